#!/usr/bin/env bash
# A tilelab that runs on a GPU machine without this one's packages: LLVM's
# components linked statically (TILELAB_STATIC_LLVM), every other shared
# library it needs but the C library's copied beside it (tools/bundle_libraries.sh,
# from the binary's own ldd), and the kernels.
#   build-device/bin/tilelab, build-device/lib/*.so*, build-device/kernels/...
# Run it there with LD_LIBRARY_PATH=build-device/lib (hw/runs/h200/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-device
if [ ! -f "$dir/build.ninja" ]; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILELAB_STATIC_LLVM=ON -DTILELAB_FUZZ=OFF >/dev/null
fi
ninja -C "$dir" tilelab smem_bank_probe smem_bank_kernels >/dev/null
rm -rf "$dir/lib"
tools/bundle_libraries.sh "$dir/bin/tilelab" "$dir/lib"  # what the binary needs, read from it (ldd)
du -sh "$dir/bin/tilelab" "$dir/lib" "$dir/kernels"
