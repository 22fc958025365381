#!/usr/bin/env python3
"""AMD's hand-written gfx950 kernels run in tilelab's emulator from launch files
(tools/reference/thirdparty/*.launch.toml, arguments as the library's host
launchers set them), their saved outputs checked against a CPU reference
written here from the operation's definition.  Prints a markdown table (the
docs hold its output); exits 1 if a run fails or an output differs.

usage: run_thirdparty.py DIR [BUILD_DIR]      (DIR: the folder of the .co files)
"""
import math
import pathlib
import struct
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent / "thirdparty"
if len(sys.argv) not in (2, 3) or sys.argv[1] in ("-h", "--help"):
    sys.exit("usage: run_thirdparty.py DIR [BUILD_DIR]  (DIR: the folder of AMD's gfx950 .co files; "
             "docs/thirdparty-code-objects.md says where they come from)")
folder = pathlib.Path(sys.argv[1])
if not folder.is_dir():
    sys.exit(f"error: {folder}: not a folder of .co files")
build = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else pathlib.Path(__file__).resolve().parents[2] / "build"


def f32(path):
    raw = path.read_bytes()
    return list(struct.unpack("<%df" % (len(raw) // 4), raw))


def i32(path):
    raw = path.read_bytes()
    return list(struct.unpack("<%di" % (len(raw) // 4), raw))


def bf16(path):
    raw = path.read_bytes()
    return [struct.unpack("<f", b"\0\0" + raw[i:i + 2])[0] for i in range(0, len(raw), 2)]


def softmax(row):
    m = max(row)
    e = [math.exp(x - m) for x in row]
    s = sum(e)
    return [x / s for x in e]


def topk_softmax(out, tokens, experts, read_logits):
    """Top 8 of softmax(logits) per token, renormalised: ids exact, weights to 1e-6."""
    logits, ids, weights = read_logits(out / "A.bin"), i32(out / "T.bin"), f32(out / "W.bin")
    wrong_ids, err = 0, 0.0
    for t in range(tokens):
        p = softmax(logits[t * experts:(t + 1) * experts])
        top = sorted(range(experts), key=lambda i: (-p[i], i))[:8]
        total = sum(p[i] for i in top)
        wrong_ids += ids[t * 8:(t + 1) * 8] != top
        err = max(err, max(abs(w - p[i] / total) for w, i in zip(weights[t * 8:(t + 1) * 8], top)))
    ok = wrong_ids == 0 and err < 1e-6
    return ok, f"{tokens} tokens: ids {tokens - wrong_ids}/{tokens} rows equal, weights max |err| {err:.1e}"


def paged_attention(out):
    """softmax(q.k / sqrt(128)) v over each sequence's context, K/V in aiter's paged layouts."""
    q, k, v, o = bf16(out / "Q.bin"), bf16(out / "K.bin"), bf16(out / "V.bin"), bf16(out / "O.bin")
    table = i32(HERE / "inputs/pa_block_tables.i32")
    lengths = i32(HERE / "inputs/pa_context_lens.i32")
    d, heads, per_seq = 128, 8, 8
    kat = lambda b, t, c: k[(((b * 16) + c // 8) * 16 + t) * 8 + c % 8]    # [blocks, 1, 128/8, 16, 8]
    vat = lambda b, t, c: v[(((b * 2) + t // 8) * 128 + c) * 8 + t % 8]     # [blocks, 1, 16/8, 128, 8]
    err = biggest = 0.0
    for s, n in enumerate(lengths):
        blocks = [table[s * per_seq + t // 16] for t in range(n)]
        for h in range(heads):
            qh = q[(s * heads + h) * d:(s * heads + h + 1) * d]
            p = softmax([sum(qh[c] * kat(blocks[t], t % 16, c) for c in range(d)) / math.sqrt(d) for t in range(n)])
            for c in range(d):
                ref = sum(p[t] * vat(blocks[t], t % 16, c) for t in range(n))
                err = max(err, abs(ref - o[(s * heads + h) * d + c]))
                biggest = max(biggest, abs(ref))
    ok = err <= biggest * 2 ** -7  # bf16 output: 8 significant bits
    return ok, f"contexts {lengths}: max |err| {err:.1e} (max |O| {biggest:.2f}, bf16 step {biggest * 2 ** -8:.1e})"


def moe_stage1(out):
    """Uniform inputs: every element is silu(g) * g, g = dim * x * w * x_scale * w_scale."""
    o = bf16(out / "O.bin")
    xs, ws = struct.unpack("<f", bytes([0x3C] * 4))[0], struct.unpack("<f", bytes([0x3E] * 4))[0]
    g = 1024 * 1.0 * 0.5 * xs * ws
    ref = g * g / (1 + math.exp(-g))
    good = sum(abs(x - ref) <= ref * 2 ** -7 for x in o)
    return good == len(o), f"{good}/{len(o)} outputs equal silu(g)*g = {ref:.4f}"


RUNS = [
    ("topksoftmax_4x128x8", lambda out: topk_softmax(out, 64, 128, f32)),
    ("topksoftmax_12x256x8_bf16", lambda out: topk_softmax(out, 56, 256, bf16)),
    ("pa_bf16_noquant_gqa8_1tg_4w", paged_attention),
    ("fmoe_stage1_bf16_pertokenFp8_g1u1_32x256_2tg_pf2", moe_stage1),
]


def main():
    """Each kernel twice: the functional emulator (each wave runs until it
    blocks) and the cycle model (waves interleaved cycle by cycle)."""
    failures = 0
    print("| code object | run | wave-instructions | out-of-bounds | output against the CPU reference |")
    print("|---|---|---|---|---|")
    for name, check in RUNS:
        co = next(folder.rglob(name + ".co"))
        launch = HERE / (name + ".launch.toml")
        for mode in ("--functional", "--timing"):
            with tempfile.TemporaryDirectory() as tmp:
                run = subprocess.run([str(build / "bin/tilelab"), "sim", str(co), "--launch", str(launch), mode,
                                      "--save", tmp], capture_output=True, text=True)
                if run.returncode != 0:
                    failures += 1
                    print(f"| {co.name} | {mode} | - | {run.stderr.strip()} | not run |")
                    continue
                count = run.stdout.split(" wave-instructions")[0].rsplit(" ", 1)[-1]
                ok, what = check(pathlib.Path(tmp))
                failures += not ok
                print(f"| {co.name} | {mode} | {count} | none | {'equal' if ok else 'DIFFERENT'}: {what} |")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
