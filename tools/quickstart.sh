#!/usr/bin/env bash
# The main job on the embedded default (gfx950): for now, the thread-value
# layout of the v_mfma_f32_16x16x32_bf16 A operand, as a table and an SVG.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
mkdir -p results

# v_mfma_f32_16x16x32_bf16, operand A (16 x 32, row m, column k): lane l holds
# row l%16 and k = 8*(l/16) .. 8*(l/16)+7 (CDNA4 ISA §7.1.4; docs/facts/arch-facts.md).
# As a CuTe thread-value layout: 16x4 lanes (column-major) each holding 1x8 values.
thr='(16,4):(1,16)'
val='(1,8):(1,1)'
echo "gfx950 v_mfma_f32_16x16x32_bf16 operand A: make_layout_tv($thr, $val)"
build/bin/tilelab layout eval "make_layout_tv($thr, $val)"
build/bin/tilelab layout show --tv "$thr" "$val" --svg results/mfma_16x16x32_bf16_A.svg
echo "wrote results/mfma_16x16x32_bf16_A.svg"

# The design check of reading those operands from a 64x64 bf16 LDS tile,
# row-major and with the XOR swizzle tilelab's search finds; both recorded
# as design runs in results/quickstart.h5 (traces/SCHEMA.md) and compared.
rm -rf results/quickstart.h5 results/quickstart.h5.runs
for smem in '(64,64):(64,1)' 'Sw<3,3,3> o (64,64):(64,1)'; do
  id=$([ "$smem" = '(64,64):(64,1)' ] && echo row-major || echo swizzled)
  echo
  echo "== ds_read_b128 of the A operands from LDS laid out as $smem"
  build/bin/tilelab lds --arch gfx950 --inst ds_read_b128 --tv "$thr" "$val" --smem "$smem" --elem-bytes 2 \
    --out results/quickstart.h5 --run-id "$id" | tail -1
done
echo
build/bin/tilelab compare results/quickstart.h5 row-major swizzled | tail -2

# The kernel suite: compiled offline for gfx950 (clang, no GPU), each kernel's
# design checked at its default shape from its spec and its code object, and
# every check recorded as a design run in results/quickstart.h5.
echo
echo "== tilelab compile all --arch gfx950"
build/bin/tilelab compile all --arch gfx950 | grep -E "^[a-z_0-9]+ \(amdgcn" | sed 's/^/  compiled /'
echo
echo "== tilelab check --summary (gfx950)"
build/bin/tilelab check --summary --out results/quickstart.h5
echo
build/bin/tilelab disasm build/kernels/gfx950/gemm_bf16.hsaco --summary | grep -E "instructions:|loop 1"

# The same code objects executed on the CPU by the functional emulator, each
# output checked against its CPU reference and each LDS site's conflicts
# against the design check and the LDS checked for races; attention backward
# runs as its pass (the preprocessing kernel, then the gradients) on a
# sequence length that ends in a partial tile; the runs go into
# results/quickstart.h5 too.
for run in "gemm_bf16 256,256,128" "attention_fwd_d128 1,256,1" "attention_bwd_d64 1,200,1" "topk_f32 4,4096,8"; do
  set -- $run
  echo
  echo "== tilelab sim $1 --functional --shape $2"
  build/bin/tilelab sim "$1" --functional --shape "$2" --out results/quickstart.h5 | grep -v "^  0x"
done

# The same code objects timed by the cycle model: cycles, limiter, where the
# waves' time went, the hottest instructions; stored as timing runs.
for run in "gemm_bf16 512,512,512" "attention_fwd_d128 1,512,1"; do
  set -- $run
  echo
  echo "== tilelab sim $1 --timing --functional --shape $2"
  build/bin/tilelab sim "$1" --timing --functional --quiet --shape "$2" --top 5 --out results/quickstart.h5 \
    | grep -v -E "^    - |^  assumptions"
done

# The hardware path: the same host on a device — an MI350 with --device hip,
# an NVIDIA GPU with --device cuda (rmsnorm and the global-memory
# microbenchmarks); here the emulator, which checks but does not time.
echo
echo "== tilelab run rmsnorm_bf16 --device emu --shape 64,4096"
build/bin/tilelab run rmsnorm_bf16 --device emu --shape 64,4096 --out results/quickstart.h5
echo "wrote results/quickstart.h5"
