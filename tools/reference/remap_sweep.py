#!/usr/bin/env python3
"""The XCD/L2 effect of the workgroup order, as HipKittens measured it on
MI355X, run on the suite's gemm_bf16 template in the cycle model on the whole
chip (nothing is fitted to the measured figures):

  default       the GROUP_M sweep (docs/facts/chip-facts.md section 3, HK-GRID):
                8192^3, no remap, then the chunked XCD remap (an eighth of the
                grid per XCD) with GROUP_M 2, 4, 8, 32.  Measured (HK's
                256x256x64 kernel): 1016.6, 1083.3, 1108.8, 1113.9, 875.1 TFLOP/s.
  --table4      the three orders of chip-facts section 6a (HipKittens' Table 4):
                9216^3 on a 192x256x64 tile (1728 workgroups), row-major, then
                Algorithm 1 with W = 7, C = 216 and W = 5, C = 25; the measured
                L2 and LLC (MALL) hit rates and TFLOPS beside the model's.

The tile: gemm_bf16 (128x128x64, 4 waves), its variant gemm_256 (--tile 256:
256x256x64, 8 waves as 2x4) or, for --table4, the template compiled with
TILE_M=192, TILE_N=256, WAVES_M=2, WAVES_N=4 (`tilelab compile --params`).
These have the shape of HK's kernels, not their code (HK ping-pongs two
groups of waves, ours double-buffers through registers), so absolute numbers
are not comparable; the ordering and the spread are.

usage: remap_sweep.py [--full|--all-xcds] [--size S] [--tile 128|256] [--table4] [BUILD_DIR]
  --full      simulate every workgroup (default: sampled, see sim/timing/README.md)
  --all-xcds  simulate every XCD, fast-forward kept: the remapped orders share
              panels between XCDs at different times, which one sampled XCD
              does not see (the default for --table4)
  --size S    M = N = K = S (default 8192; --table4: 9216)
  --tile T    128 (gemm_bf16, default) or 256 (the gemm_256 variant)
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import time

# (name, group_m, xcd_chunk, TFLOP/s, L2 hit, LLC hit) as measured on MI355X; None: not published.
GROUP_M_SWEEP = [("no remap", 0, 0, 1016.6, None, None)] + [
    (f"chunked + group_m {g}", g, 0, tf, None, None) for g, tf in ((2, 1083.3), (4, 1108.8), (8, 1113.9), (32, 875.1))]
TABLE4 = [("row-major", 0, 0, 1113, 0.55, 0.95), ("W = 7, C = 216", 7, 216, 991, 0.79, 0.24),
          ("W = 5, C = 25", 5, 25, 1145, 0.75, 0.93)]

usage = "usage: remap_sweep.py [--full|--all-xcds] [--size S] [--tile 128|256] [--table4] [BUILD_DIR]"
args = sys.argv[1:]
mode, size, tile, table4 = None, None, 128, False
while args and args[0].startswith("--"):
    flag = args.pop(0)
    if flag in ("--full", "--all-xcds"):
        mode = [flag]
    elif flag == "--size" and args:
        size = int(args.pop(0))
    elif flag == "--tile" and args and args[0] in ("128", "256"):
        tile = int(args.pop(0))
    elif flag == "--table4":
        table4 = True
    else:
        sys.exit(usage)
root = pathlib.Path(__file__).resolve().parents[2]
build = pathlib.Path(args[0]) if args else root / "build"
tilelab = build / "bin" / "tilelab"
orders = TABLE4 if table4 else GROUP_M_SWEEP
size = size or (9216 if table4 else 8192)
mode = mode if mode is not None else (["--all-xcds"] if table4 else [])
if table4:
    tile_m, tile_n, threads, name = 192, 256, 512, "192x256"
    p = subprocess.run([str(tilelab), "compile", "gemm_bf16", "--params", "TILE_M=192,TILE_N=256,WAVES_M=2,WAVES_N=4"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"error: compiling the 192x256 variant failed: {p.stderr.strip()}")
    code_object = pathlib.Path(p.stdout.splitlines()[0].strip())
else:
    tile_m = tile_n = tile
    threads, name = (256, "gemm_bf16") if tile == 128 else (512, "gemm_256")
    code_object = build / "kernels" / ("gfx950" if tile == 128 else "variants/gemm_256/gfx950") / "gemm_bf16.hsaco"
if not code_object.is_file():
    sys.exit(f"error: {code_object}: not built (tools/setup.sh builds it)")


def launch_toml(s, group_m, chunk):
    # by byte offset: C, A, B, M, N, K, group_m, xcd_chunk (the code object keeps no argument names)
    return "\n".join([
        'kernel = "gemm_bf16"',
        f"grid = [{s // tile_n}, {s // tile_m}, 1]",
        f"block = [{threads}, 1, 1]",
        "seed = 1",
        "",
        f"[args.\"@0\"]\nbuffer = {{ bytes = {s * s * 2}, fill = \"zeros\" }}",
        f"[args.\"@8\"]\nbuffer = {{ bytes = {s * s * 2}, fill = \"random\", dtype = \"bf16\" }}",
        f"[args.\"@16\"]\nbuffer = {{ bytes = {s * s * 2}, fill = \"random\", dtype = \"bf16\" }}",
        f"[args.\"@24\"]\nvalue = {s}",
        f"[args.\"@28\"]\nvalue = {s}",
        f"[args.\"@32\"]\nvalue = {s}",
        f"[args.\"@36\"]\nvalue = {group_m}",
        f"[args.\"@40\"]\nvalue = {chunk}",
        "",
    ])


rows = []
for label, g, chunk, *_ in orders:
    with tempfile.TemporaryDirectory() as tmp:
        launch = pathlib.Path(tmp) / "l.toml"
        launch.write_text(launch_toml(size, g, chunk))
        t0 = time.time()
        cmd = [str(tilelab), "sim", str(code_object), "--launch", str(launch), "--timing", "--json"]
        p = subprocess.run(cmd + mode, capture_output=True, text=True)
        wall = time.time() - t0
    if p.returncode not in (0, 1):
        sys.exit(f"{label}: failed: {p.stderr.strip()}")
    j = json.loads(p.stdout)
    tflops = 2.0 * size ** 3 / j["seconds"] / 1e12
    chip = j.get("chip", {})
    l2 = chip.get("l2_hits", 0) / max(1, chip.get("l2_requests", 0))
    mall = chip.get("mall_hits", 0) / max(1, chip.get("mall_hits", 0) + chip.get("mall_misses", 0))
    rows.append((tflops, j["limiter"], l2, mall, chip.get("hbm_bytes", 0) / 1e6, j["cycles"],
                 ("sampled" if j.get("sampled") else "all XCDs") + (", fast-forward" if j.get("fast_forwarded") else ""), wall))
    print(f"{label}: {tflops:.1f} TFLOP/s ({wall:.0f} s)", file=sys.stderr, flush=True)


def pct(v):
    return "—" if v is None else f"{100 * v:.0f}%"


base, measured_base = rows[0][0], orders[0][3]
print(f"| order | measured TFLOP/s | vs first | measured L2 hit | measured LLC hit | {name} {size}^3 predicted TFLOP/s "
      "| vs first | limiter | L2 hit | MALL hit | HBM MB | cycles | run | wall s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (label, g, chunk, mtf, ml2, mllc), (tf, lim, l2, mall, hbm, cyc, how, wall) in zip(orders, rows):
    print(f"| {label} | {mtf:.1f} | {mtf / measured_base:.3f} | {pct(ml2)} | {pct(mllc)} | {tf:.1f} | {tf / base:.3f} | {lim} | "
          f"{100 * l2:.1f}% | {100 * mall:.1f}% | {hbm:.0f} | {cyc} | {how} | {wall:.0f} |")
