#!/usr/bin/env python3
"""The attention development set: AMD's hand-written gfx950 attention forward
(aiter fmha_v3_fwd, hd128 bf16, plain and causal; tools/reference/published/
attention/) at the 20 shapes HipKittens measured on MI355X through
aiter.flash_attn_func (hipkittens_measured_fwd.csv), timed by the cycle model
on the whole chip.  Launch files are written from the neutral launch
descriptions (*.launch.json: every kernarg field by offset; BSHD layout, the
LSE stored, K and V given 512 spare rows for the kernel's prefetch past the
sequence).  Prints a markdown table (sim/timing/README.md holds its output).

The measured times are host-side (a Python call per launch), so they hold
the launch gap a device time does not; the model's time is the device's.
Nothing is fitted to these rows.

usage: attention_published.py [--only N,N] [--full] [BUILD_DIR]
  --only N,N  the CSV's rows N (1-based) only
  --full      simulate every XCD and workgroup (default: sampled, fast-forward)
"""
import csv
import json
import math
import pathlib
import subprocess
import sys
import tempfile
import time

usage = "usage: attention_published.py [--only N,N] [--full] [BUILD_DIR]"
args = sys.argv[1:]
only, full = None, False
while args and args[0].startswith("--"):
    flag = args.pop(0)
    if flag == "--only" and args:
        only = {int(v) for v in args.pop(0).split(",")}
    elif flag == "--full":
        full = True
    else:
        sys.exit(usage)
root = pathlib.Path(__file__).resolve().parents[2]
data = root / "tools" / "reference" / "published" / "attention"
build = pathlib.Path(args[0]) if args else root / "build"
SPARE_ROWS = 512  # the kernel reads the next K/V tile past the sequence (README.md there)


def launch_toml(desc, b, hq, hk, s, causal):
    d = 128
    bytes_ = {"Q": b * s * hq * d * 2, "K": b * (s + SPARE_ROWS) * hk * d * 2, "V": b * (s + SPARE_ROWS) * hk * d * 2,
              "O": b * s * hq * d * 2, "LSE": b * hq * s * 4}
    # BSHD strides in bytes (the descriptions' value formulas).
    values = {"scalar": 1.0 / math.sqrt(d), "seq_len": s, "Seqs": hq * d * 2, "Ts": 256 * hq * d * 2, "Hs": d * 2,
              "Bs": hq * s * d * 2, "gqa": hq // hk, "k_Seqs": hk * d * 2, "k_Hs": d * 2, "k_Bs": hk * s * d * 2,
              "msk_opt": 3 if causal and (hq % 8 != 0 or s > 16384) else 5, "lse": 1, "kv_seq_len": s,
              "qk_head_dim": d, "v_head_dim": d, "q_head_num": hq, "v_Seqs": hk * d * 2, "v_Hs": d * 2,
              "v_Bs": hk * s * d * 2, "r_Seqs": hq * d * 2, "r_Hs": d * 2, "r_Bs": hq * s * d * 2, "lse_Hs": s * 4}
    tiles = -(-s // 256)
    grid_x = (tiles + 1) // 2 if causal else tiles
    lines = [f'kernel = "{desc["kernel_symbol"]}"', f"grid = [{grid_x}, {hq}, {b}]", f"block = {desc['block']}",
             "seed = 1", ""]
    for f in desc["kernarg"]:
        name, off = f["name"], f["offset"]
        if name == "pad":
            continue  # zero: the launch's kernarg segment starts zeroed
        lines.append(f'[args."@{off}"]')
        if name.startswith("ptr_"):
            lines.append("value = 0")  # batch mode: the sequence-length pointers are null
        elif f.get("type") == "ptr":
            buf = f["buffer"]
            fill = '"zeros"' if buf in ("O", "LSE") else '"random", dtype = "bf16"'
            lines.append(f"buffer = {{ bytes = {bytes_[buf]}, fill = {fill} }}")
        else:
            lines.append(f"value = {values[name]!r}")
        lines.append("")
    return "\n".join(lines)


descs = {c: json.loads((data / ("fwd_hd128_bf16_causal.launch.json" if c else "fwd_hd128_bf16.launch.json")).read_text())
         for c in (0, 1)}
rows = []
for n, r in enumerate(csv.DictReader(open(data / "hipkittens_measured_fwd.csv")), start=1):
    if only and n not in only:
        continue
    b, hq, hk, s, causal = (int(r[k]) for k in ("batch", "q_heads", "kv_heads", "seqlen", "causal"))
    desc = descs[causal]
    with tempfile.TemporaryDirectory() as tmp:
        launch = pathlib.Path(tmp) / "l.toml"
        launch.write_text(launch_toml(desc, b, hq, hk, s, causal))
        t0 = time.time()
        cmd = [str(build / "bin" / "tilelab"), "sim", str(data / desc["code_object"]), "--launch", str(launch), "--timing",
               "--json"] + (["--full"] if full else [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.time() - t0
    if p.returncode not in (0, 1):
        sys.exit(f"row {n}: failed: {p.stderr.strip()}")
    j = json.loads(p.stdout)
    us, measured = j["seconds"] * 1e6, float(r["measured_ms"]) * 1e3
    chip = j.get("chip", {})
    l2 = chip.get("l2_hits", 0) / max(1, chip.get("l2_requests", 0))
    rows.append((n, b, hq, hk, s, causal, measured, us, j["limiter"], l2, j.get("utilisation", {}).get("mfma", 0), wall))
    print(f"row {n}: {us:.1f} us against {measured:.1f} ({wall:.0f} s)", file=sys.stderr, flush=True)

print("| row | batch | q heads | kv heads | S | causal | measured µs (host) | model µs (device) | model / measured | limiter | L2 hit | MFMA busy | wall s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for n, b, hq, hk, s, c, m, us, lim, l2, mf, wall in rows:
    print(f"| {n} | {b} | {hq} | {hk} | {s} | {'yes' if c else 'no'} | {m:.1f} | {us:.1f} | {us / m:.3f} | {lim} | "
          f"{100 * l2:.1f}% | {100 * mf:.1f}% | {wall:.0f} |")
if rows:
    errors = [abs(x[7] / x[6] - 1) for x in rows]
    print(f"\nmean |model / measured - 1| over {len(rows)} rows: {100 * sum(errors) / len(errors):.1f}%")
