#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and Nsight Compute: run every shared-memory
# probe case under ncu and write OUT/cases.tsv and OUT/ncu.csv.
# tools/reference/join_smem_measurements.py turns them into
# tests/data/sm90_smem_bank_conflicts.tsv.
# usage: hw/probes/run_smem_probe.sh BUILD_DIR OUT_DIR [--holdout SEED]
set -euo pipefail
build=$1
out=$2
shift 2
mkdir -p "$out"
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
ncu --clock-control none --csv --log-file "$out/ncu.csv" --metrics "$metrics" \
  "$build/bin/smem_bank_probe" "$build/kernels/sm_90/smem_bank_kernels.cubin" "$out/cases.tsv" "$@"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt"
ncu --version | tail -1 >> "$out/device.txt"
