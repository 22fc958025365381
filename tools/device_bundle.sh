#!/usr/bin/env bash
# A tilelab that runs on a GPU machine without this one's packages: LLVM's
# components linked statically (TILELAB_STATIC_LLVM), the few shared
# libraries a bare Ubuntu/Debian lacks copied beside it, and the kernels.
#   build-device/bin/tilelab, build-device/lib/*.so*, build-device/kernels/...
# Run it there with LD_LIBRARY_PATH=build-device/lib (hw/runs/h200/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-device
if [ ! -f "$dir/build.ninja" ]; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILELAB_STATIC_LLVM=ON -DTILELAB_FUZZ=OFF >/dev/null
fi
ninja -C "$dir" tilelab smem_bank_probe smem_bank_kernels >/dev/null
mkdir -p "$dir/lib"
for lib in libboost_program_options.so.1.74.0 libtomlplusplus.so.3 libhdf5_serial.so.103; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$dir/lib/"
done
du -sh "$dir/bin/tilelab" "$dir/lib" "$dir/kernels"
