#!/usr/bin/env python3
"""The stride sweep (issue 48): AMD's bf16 GEMM (MFMA-bound) and AMD's MXFP4
32x128 GEMM at M = 16 (a stream of B from HBM) at K and N around 16384 and
at the powers of two from 1024 to 65536, timed by `tilelab sweep` of
tools/reference/sweeps/stride_{bf16,mxfp4}.toml.  Prints one markdown table
per sweep: each shape's time, its time per unit of work (µs per 2·M·N·K
TFLOP, so that shapes of different size compare), and the change in that
from the previous shape of its series (in bold between the neighbours
around 16384, the steps the issue bounds at 10%).

usage: stride_sweep.py [BF16.json MXFP4.json]   (without them, runs both sweeps: ~8 min on 2 cores)
"""
import json
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parents[2]
if len(sys.argv) not in (1, 3):
    sys.exit(__doc__.strip().splitlines()[-1])


def load(i, name):
    if len(sys.argv) == 3:
        return json.load(open(sys.argv[i]))
    out = subprocess.run([str(root / "build/bin/tilelab"), "sweep", str(root / f"tools/reference/sweeps/{name}.toml"), "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def table(sweep):
    rows = [(p["shape"], p["points"][0]["us"]) for p in sweep["problems"]]
    # Two series, in the sweep's order: first K varies (N as the first
    # problem's), then N varies.
    split = next((i for i, r in enumerate(rows) if r[0]["N"] != rows[0][0]["N"]), len(rows))
    k_series, n_series = rows[:split], rows[split:]
    print(f"**{sweep['sweep']}** ({sweep['candidates'][0]['name']})\n")
    print("| series | M | N | K | µs | µs per TFLOP of work | change from the previous |")
    print("|---|---|---|---|---|---|---|")
    for label, series in (("K", k_series), ("N", n_series)):
        prev, prev_near = None, False
        for shape, us in series:
            per = us / (2.0 * shape["M"] * shape["N"] * shape["K"] / 1e12)
            near = 16000 <= shape[label] <= 16700  # the neighbours around 16384
            change = "" if prev is None else f"{100 * (per / prev - 1):+.1f}%"
            if near and prev_near:
                change = f"**{change}** (between neighbours)"
            print(f"| {label} | {shape['M']} | {shape['N']} | {shape['K']} | {us:.1f} | {per:.1f} | {change} |")
            prev, prev_near = per, near
    print()


table(load(1, "stride_bf16"))
table(load(2, "stride_mxfp4"))
