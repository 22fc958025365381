#!/usr/bin/env python3
"""The XCD/L2 effect of the workgroup order, as HipKittens measured it on
MI355X (docs/facts/chip-facts.md section 3, HK-GRID): an 8192^3 bf16 GEMM with
no remap, then a chunked XCD remap with a GROUP_M tile order of 2, 4, 8, 32.
Measured there (HK's 256x256x64 kernel, 8 waves): 1016.6, 1083.3, 1108.8,
1113.9, 875.1 TFLOP/s.

This runs the suite's gemm_bf16 (128x128x64 tile, 4 waves) or its variant
gemm_256 (--tile 256: 256x256x64, 8 waves as 2x4, the shape of HK's kernel
but not its code: HK's ping-pongs two groups of 8 waves, ours double-buffers
through registers, so absolute numbers are not comparable; the ordering and
the spread are) with its `group_m` argument set to each order, from a launch
file, in the cycle model on the whole chip, and prints a markdown table.
Nothing is fitted to the measured figures.

usage: remap_sweep.py [--full|--all-xcds] [--size S] [--tile 128|256] [BUILD_DIR]
  --full      simulate every workgroup (default: sampled, see sim/timing/README.md)
  --all-xcds  simulate every XCD, fast-forward kept: the remapped orders share B
              between XCDs, and one sampled XCD counts those lines as its own
              HBM traffic
  --size S M = N = K = S (default 8192)
  --tile T  128 (gemm_bf16, default) or 256 (the gemm_256 variant)
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import time

MEASURED = {0: 1016.6, 2: 1083.3, 4: 1108.8, 8: 1113.9, 32: 875.1}  # HK-GRID data_to_log.json, TFLOP/s

args = sys.argv[1:]
mode, size, tile = [], 8192, 128
while args and args[0].startswith("--"):
    flag = args.pop(0)
    if flag in ("--full", "--all-xcds"):
        mode = [flag]
    elif flag == "--size":
        size = int(args.pop(0))
    elif flag == "--tile" and args and args[0] in ("128", "256"):
        tile = int(args.pop(0))
    else:
        sys.exit("usage: remap_sweep.py [--full|--all-xcds] [--size S] [--tile 128|256] [BUILD_DIR]")
root = pathlib.Path(__file__).resolve().parents[2]
build = pathlib.Path(args[0]) if args else root / "build"
tilelab = build / "bin" / "tilelab"
code_object = build / "kernels" / ("gfx950" if tile == 128 else "variants/gemm_256/gfx950") / "gemm_bf16.hsaco"
if not code_object.is_file():
    sys.exit(f"error: {code_object}: not built (tools/setup.sh builds it)")


def launch_toml(s, group_m):
    # by byte offset: C, A, B, M, N, K, group_m (the code object keeps no argument names)
    return "\n".join([
        'kernel = "gemm_bf16"',
        f"grid = [{s // tile}, {s // tile}, 1]",
        f"block = [{256 if tile == 128 else 512}, 1, 1]",
        "seed = 1",
        "",
        f"[args.\"@0\"]\nbuffer = {{ bytes = {s * s * 2}, fill = \"zeros\" }}",
        f"[args.\"@8\"]\nbuffer = {{ bytes = {s * s * 2}, fill = \"random\", dtype = \"bf16\" }}",
        f"[args.\"@16\"]\nbuffer = {{ bytes = {s * s * 2}, fill = \"random\", dtype = \"bf16\" }}",
        f"[args.\"@24\"]\nvalue = {s}",
        f"[args.\"@28\"]\nvalue = {s}",
        f"[args.\"@32\"]\nvalue = {s}",
        f"[args.\"@36\"]\nvalue = {group_m}",
        "",
    ])


rows = []
for g in MEASURED:
    with tempfile.TemporaryDirectory() as tmp:
        launch = pathlib.Path(tmp) / "l.toml"
        launch.write_text(launch_toml(size, g))
        t0 = time.time()
        cmd = [str(tilelab), "sim", str(code_object), "--launch", str(launch), "--timing", "--json"]
        p = subprocess.run(cmd + mode, capture_output=True, text=True)
        wall = time.time() - t0
    if p.returncode not in (0, 1):
        sys.exit(f"group_m {g}: failed: {p.stderr.strip()}")
    j = json.loads(p.stdout)
    tflops = 2.0 * size ** 3 / j["seconds"] / 1e12
    chip = j.get("chip", {})
    l2 = chip.get("l2_hits", 0) / max(1, chip.get("l2_requests", 0))
    rows.append((g, tflops, j["limiter"], l2, chip.get("mall_hits", 0) / max(1, chip.get("mall_hits", 0) + chip.get("mall_misses", 0)),
                 chip.get("hbm_bytes", 0) / 1e6, j["cycles"],
                 ("sampled" if j.get("sampled") else "all XCDs") + (", fast-forward" if j.get("fast_forwarded") else ""), wall))
    print(f"group_m {g}: {tflops:.1f} TFLOP/s ({wall:.0f} s)", file=sys.stderr, flush=True)

base = rows[0][1]
name = "gemm_bf16" if tile == 128 else "gemm_256"
print(f"| order | HK measured TFLOP/s | vs no remap | {name} {size}^3 predicted TFLOP/s | vs no remap | limiter | L2 hit | MALL hit | HBM MB | cycles | run | wall s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for g, tf, lim, l2, mall, hbm, cyc, how, wall in rows:
    name = "no remap" if g == 0 else f"chunked + group_m {g}"
    print(f"| {name} | {MEASURED[g]:.1f} | {MEASURED[g] / MEASURED[0]:.3f} | {tf:.1f} | {tf / base:.3f} | {lim} | "
          f"{100 * l2:.1f}% | {100 * mall:.1f}% | {hbm:.0f} | {cyc} | {how} | {wall:.0f} |")
