#!/usr/bin/env python3
"""AMD's gfx950 GEMMs with published MI355X times (tools/reference/published/,
the whole-chip model's development set) timed by tilelab's cycle model at the
published shapes.  Writes a launch file per instance from the neutral launch
description (*.launch.json: every kernarg field, the buffers, the grid), runs
`tilelab sim CO --launch L --timing --json`, and prints predicted against
published as a markdown table, with the model's limiter and the chip's
traffic.  The figures test the model's structure; nothing is fitted to them.

usage: run_published.py [--only ID,ID] [--max-workgroups N] [--full] [PUBLISHED_DIR [BUILD_DIR]]

Runs are sampled (XCD 0 simulated, the other XCDs taken to be like it: see
sim/timing/README.md) unless --full simulates every XCD.
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]
only, max_wg, full = None, None, False
while args and args[0].startswith("--"):
    flag = args.pop(0)
    if flag == "--only":
        only = set(args.pop(0).split(","))
    elif flag == "--max-workgroups":
        max_wg = int(args.pop(0))
    elif flag == "--full":
        full = True
    else:
        sys.exit("usage: run_published.py [--only ID,ID] [--max-workgroups N] [--full] [PUBLISHED_DIR [BUILD_DIR]]")
root = pathlib.Path(__file__).resolve().parents[2]
published = pathlib.Path(args[0]) if args else root / "tools" / "reference" / "published"
build = pathlib.Path(args[1]) if len(args) > 1 else root / "build"
if not published.is_dir():
    sys.exit(f"error: {published}: no such folder (the published kernels: tools/reference/published)")


def launch_toml(desc, inst):
    lines = [f'kernel = "{desc["kernel_symbol"]}"', f"grid = {inst['grid']}", f"block = {inst['block']}", "seed = 1", ""]
    for name, v in inst["kernarg_values"].items():
        lines.append(f'[args.{name}]')
        if isinstance(v, str) and v.startswith("&"):
            buf = v[1:]
            fill = '"zeros"' if buf in ("D", "C") else '"random", dtype = "u16"'
            lines.append(f'buffer = {{ bytes = {inst["buffer_bytes"][buf]}, fill = {fill} }}')
        elif isinstance(v, str):
            lines.append(f"value = {float(v.split()[0])!r}")
        else:
            lines.append(f"value = {v}")
        lines.append("")
    return "\n".join(lines)


rows = []
for desc_path in sorted(published.glob("*.launch.json")):
    desc = json.loads(desc_path.read_text())
    co = published / desc["code_object"]
    for inst in desc["instances"]:
        if only and inst["id"] not in only:
            continue
        if max_wg and inst["workgroups"] > max_wg:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            launch = pathlib.Path(tmp) / "l.toml"
            launch.write_text(launch_toml(desc, inst))
            t0 = time.time()
            cmd = [str(build / "bin" / "tilelab"), "sim", str(co), "--launch", str(launch), "--timing", "--json"]
            p = subprocess.run(cmd + (["--full"] if full else []), capture_output=True, text=True)
            wall = time.time() - t0
        if p.returncode not in (0, 1):
            print(f"{inst['id']}: failed: {p.stderr.strip()}", file=sys.stderr)
            continue
        j = json.loads(p.stdout)
        us = j["seconds"] * 1e6
        chip = j.get("chip", {})
        l2 = chip.get("l2_hits", 0) / max(1, chip.get("l2_requests", 0))
        mall = chip.get("mall_hits", 0) / max(1, chip.get("mall_hits", 0) + chip.get("mall_misses", 0))
        rows.append((desc["kernel"], inst["id"], inst["published_us"], us, j["limiter"], l2, mall,
                     chip.get("hbm_bytes", 0) / 1e6, j["wave_instructions"], j["cycles"], "sampled" if j.get("sampled") else "full", wall))
        print(f"{inst['id']}: {us:.1f} us ({rows[-1][9]}, {wall:.0f} s)", file=sys.stderr, flush=True)

print("| kernel | instance | published µs | predicted µs | predicted / published | limiter | L2 hit | MALL hit | HBM MB | wave-instructions | cycles | run | wall s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for k, i, pub, us, lim, l2, mall, hbm, wi, cyc, how, wall in rows:
    print(f"| {k} | {i} | {pub:.1f} | {us:.1f} | {us / pub:.2f} | {lim} | {100 * l2:.1f}% | {100 * mall:.1f}% | {hbm:.0f} | {wi:,} | {cyc} | {how} | {wall:.0f} |")
