#!/usr/bin/env python3
"""The small-shapes MXFP4 development set: AMD's four f4gemm tiles at the 20
tuner shapes of tools/reference/published/f4_small_shapes.csv, timed by
`tilelab sweep tools/reference/sweeps/f4_small_shapes.toml --json`, against
the time AMD's tuner measured for the tile it picked.  Prints a markdown
table (sim/timing/README.md holds its output): each shape's published
winner and time, the model's time for every tile, the model's fastest, the
ratio of the model's time for AMD's tile to the published time, and whether
AMD's tile is within 5% of the model's fastest.  Nothing is fitted to these
rows.

usage: f4_small_shapes.py [SWEEP.json]   (without it, runs the sweep: ~3 min on 2 cores)
"""
import csv
import json
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parents[2]
rows = list(csv.DictReader(open(root / "tools/reference/published/f4_small_shapes.csv")))
if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help")):
    sys.exit(__doc__.strip().splitlines()[-1])
if len(sys.argv) == 2:
    sweep = json.load(open(sys.argv[1]))
else:
    out = subprocess.run([str(root / "build/bin/tilelab"), "sweep", str(root / "tools/reference/sweeps/f4_small_shapes.toml"), "--json"],
                         check=True, capture_output=True, text=True).stdout
    sweep = json.loads(out)

model = {}
for p in sweep["problems"]:
    s = p["shape"]
    model[(s["M"], s["N"], s["K"])] = {pt["candidate"]: pt["us"] for pt in p["points"] if pt["us"] is not None}

tiles = [c["name"] for c in sweep["candidates"]]
print("| M | N | K | AMD's tile | published µs | " + " | ".join(f"model {t} µs" for t in tiles) +
      " | model's fastest | model / published (AMD's tile) | AMD's tile within 5% of fastest |")
print("|" + "---|" * (8 + len(tiles)))
within, ratios = 0, []
for r in rows:
    key = (int(r["M"]), int(r["N"]), int(r["K"]))
    times = model[key]
    fastest = min(times, key=times.get)
    amd = r["winner_tile"]
    ratio = times[amd] / float(r["winner_us"])
    ratios.append(ratio)
    ok = times[amd] <= 1.05 * times[fastest]
    within += ok
    cells = " | ".join(("**%.1f**" if t == fastest else "%.1f") % times[t] for t in tiles)
    print(f"| {key[0]} | {key[1]} | {key[2]} | {amd} | {float(r['winner_us']):.1f} | {cells} | {fastest} | {ratio:.2f} | {'yes' if ok else 'no'} |")
mean = sum(abs(x - 1) for x in ratios) / len(ratios)
print(f"\nAMD's tile within 5% of the model's fastest at {within} of {len(rows)} shapes; "
      f"model / published for AMD's tile {min(ratios):.2f}–{max(ratios):.2f}, mean |ratio − 1| {100 * mean:.1f}%.")
