#!/usr/bin/env bash
# The NVIDIA validation of the hardware path (issue 17), on an H200: the
# kernels built for NVIDIA from the suite's HIP sources (clang CUDA mode,
# PTX) through `tilelab run --device cuda` — correctness, timing three
# times each, per-warp stamps — into one trace store, plus Nsight Compute's
# view of the copy and the shared-memory probe through the new Device API.
#
# Here:  tools/device_bundle.sh            (a portable tilelab in build-device/)
# There: hw/runs/h200/run.sh OUT           (repository root; OUT gets the files;
#        the device tool brings back few files: tar OUT into one)
# The measured files are kept in hw/runs/h200/measured/ (README.md there).
set -uo pipefail
out=${1:?usage: hw/runs/h200/run.sh OUT_DIR}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build-device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
T=build-device/bin/tilelab
K=build-device/kernels
store=$out/h200.h5
run() {  # run NAME ARGS...: one tilelab run, its JSON and exit status kept
  local name=$1
  shift
  "$T" run "$@" --device cuda --code-objects "$K" --out "$store" --run-id "$name" --json >"$out/$name.json" 2>"$out/$name.err"
  echo "$name: exit $?"
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,clocks.max.mem,memory.total --format=csv >"$out/device.txt"
for i in 1 2 3; do
  run "stream_copy-$i" stream_copy --shape 67108864 --reps 50        # 1 GiB read + 1 GiB written per launch
  run "rmsnorm-$i" rmsnorm_bf16 --shape 16384,8192 --reps 50           # 256 MiB in, 256 MiB out
  run "pointer_chase-$i" pointer_chase --shape 100000 --reps 10        # 100000 dependent loads, 16 KiB chain
done
run stream_copy-noflush stream_copy --shape 67108864 --reps 50 --no-flush
run stream_copy-stamps stream_copy --shape 67108864 --reps 10 --wave-stamps
run rmsnorm-stamps rmsnorm_bf16 --shape 16384,8192 --reps 10 --wave-stamps
run pointer_chase-stamps pointer_chase --shape 100000 --reps 5 --wave-stamps
"$T" runs list "$store" >"$out/runs.txt" 2>&1
# Nsight Compute on the copy: DRAM bytes and kernel duration of two launches.
ncu --clock-control none --csv --launch-count 2 \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
  "$T" run stream_copy --device cuda --code-objects "$K" --shape 67108864 --reps 1 --warmup 0 --no-flush \
  >"$out/ncu_stream_copy.csv" 2>"$out/ncu_stream_copy.err"
echo "ncu: exit $?"
# The HIP backend on a machine without ROCm: one line, exit status 3.
"$T" run rmsnorm_bf16 --device hip >"$out/hip_without_rocm.txt" 2>&1
echo "hip without ROCm: exit $?" | tee -a "$out/hip_without_rocm.txt"
# The shared-memory probe, now on the new Device interface (one launch per case).
build-device/bin/smem_bank_probe "$K/sm_90/smem_bank_kernels.cubin" "$out/smem_cases.tsv" >"$out/smem_probe.err" 2>&1
echo "smem_bank_probe: exit $?"
