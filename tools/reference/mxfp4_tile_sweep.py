#!/usr/bin/env python3
"""Writes the sweep file of AMD's four MXFP4 GEMM tiles (aiter's hand-written
gfx950 f4gemm kernels: 32x128, 64x128, 128x512 and the 256x256 in
tools/reference/published/), one launch template for all four
(published/f4gemm_bf16_per1x32Fp4_BpreShuffle.launch.toml), at five problem
shapes from M=32 to 8192^3.  Then:

  tilelab sweep mxfp4_tiles.toml --out sweep.h5                    # one process
  mpirun -n 2 tilelab sweep mxfp4_tiles.toml --out sweep.h5        # two ranks, the same result
  tilelab tune export sweep.h5 --out tuning.db

usage: mxfp4_tile_sweep.py DIR [OUT.toml]   (DIR: the folder holding AMD's
f4gemm_bf16_per1x32Fp4_BpreShuffle_{32x128,64x128,128x512}.co;
docs/thirdparty-code-objects.md says where they come from; OUT default
mxfp4_tiles.toml)
"""
import pathlib
import sys

PUBLISHED = pathlib.Path(__file__).resolve().parent / "published"
TILES = [(32, 128), (64, 128), (128, 512), (256, 256)]
PROBLEMS = [(32, 8192, 8192), (128, 8192, 8192), (1024, 8192, 8192), (4096, 4096, 4096), (8192, 8192, 8192)]

if len(sys.argv) not in (2, 3) or sys.argv[1] in ("-h", "--help"):
    sys.exit(__doc__.strip().split("\n\n")[-1])
folder = pathlib.Path(sys.argv[1]).resolve()
out = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "mxfp4_tiles.toml")
lines = ['name = "mxfp4_tiles"']
for m, n in TILES:
    co = (PUBLISHED if (m, n) == (256, 256) else folder) / f"f4gemm_bf16_per1x32Fp4_BpreShuffle_{m}x{n}.co"
    if not co.is_file():
        sys.exit(f"error: {co}: no such code object")
    lines += ["", "[[candidate]]", f'name = "{m}x{n}"', f'code_object = "{co}"',
              f'launch = "{PUBLISHED / "f4gemm_bf16_per1x32Fp4_BpreShuffle.launch.toml"}"',
              f"shape = {{ TILE_M = {m}, TILE_N = {n} }}"]
for m, n, k in PROBLEMS:
    lines += ["", "[[problem]]", f"M = {m}", f"N = {n}", f"K = {k}"]
out.write_text("\n".join(lines) + "\n")
print(f"wrote {out}: {len(TILES)} candidates x {len(PROBLEMS)} problems")
