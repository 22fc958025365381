#!/usr/bin/env bash
# The main job on the embedded default (gfx950): for now, the thread-value
# layout of the v_mfma_f32_16x16x32_bf16 A operand, as a table and an SVG.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
mkdir -p results

# v_mfma_f32_16x16x32_bf16, operand A (16 x 32, row m, column k): lane l holds
# row l%16 and k = 8*(l/16) .. 8*(l/16)+7 (CDNA4 ISA §7.1.4; shared/docs/arch-facts.md).
# As a CuTe thread-value layout: 16x4 lanes (column-major) each holding 1x8 values.
thr='(16,4):(1,16)'
val='(1,8):(1,1)'
echo "gfx950 v_mfma_f32_16x16x32_bf16 operand A: make_layout_tv($thr, $val)"
build/bin/tilelab layout eval "make_layout_tv($thr, $val)"
build/bin/tilelab layout show --tv "$thr" "$val" --svg results/mfma_16x16x32_bf16_A.svg
echo "wrote results/mfma_16x16x32_bf16_A.svg"
