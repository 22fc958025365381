#!/usr/bin/env bash
# Drives `tilelab compile|disasm|check` as a user does: outputs, errors, exit statuses.
# usage: kernels_cli_test.sh TILELAB CODE_OBJECT_DIR
set -u
tilelab=$1
objects=$2
source "$(dirname "$0")/cli_checks.sh"

# compile: into a scratch folder, for both arches; the summary is read back from the code object.
run compile gemm_bf16 --arch all --out-dir "$tmp/k"
check "compile exit" 0 "$rc"
contains "compile gfx950 file" "$tmp/k/gfx950/gemm_bf16.hsaco" "$out"
contains "compile gfx942 target" "gemm_bf16 (amdgcn-amd-amdhsa--gfx942)" "$out"
contains "compile LDS" "  LDS: 65536 bytes; scratch: 0 bytes/lane" "$out"
contains "compile occupancy" "limited by LDS" "$out"
cp "$tmp/k/gfx950/gemm_bf16.hsaco" "$tmp/first.hsaco"
run compile gemm_bf16 --out-dir "$tmp/k"
check "compile is deterministic" "same" "$(cmp -s "$tmp/k/gfx950/gemm_bf16.hsaco" "$tmp/first.hsaco" && echo same)"
check "compile gives the build's code" "$("$tilelab" disasm "$objects/gfx950/gemm_bf16.hsaco" --no-colour | grep '^ ')" \
      "$("$tilelab" disasm "$tmp/k/gfx950/gemm_bf16.hsaco" --no-colour | grep '^ ')"
run compile gemm_f16
check "compile unknown exit" 2 "$rc"
contains "compile unknown message" "error: no kernel named 'gemm_f16' (did you mean 'gemm_bf16'?) (there are: rmsnorm, topk, gemm_bf16, grouped_gemm_bf16, gemm_mxfp8, gemm_mxfp4, attention_fwd, attention_fwd_d256, attention_bwd, global_memory, lds_patterns, mfma_rate)" "$err"
run compile gemm_mxfp8 --arch gfx942
check "compile gfx950-only exit" 2 "$rc"
contains "compile gfx950-only message" "gemm_mxfp8 is built for gfx950 only (instructions or LDS only gfx950 has)" "$err"
run compile attention_fwd_d256 --arch gfx942
contains "compile gfx950-only LDS message" "attention_fwd_d256 is built for gfx950 only" "$err"
run compile gemm_mxfp8 --arch all --out-dir "$tmp/k"
check "compile gfx950-only with all" 0 "$rc"
check "compile gfx950-only skipped for gfx942" "no" "$([ -e "$tmp/k/gfx942/gemm_mxfp8.hsaco" ] && echo yes || echo no)"
run compile rmsnorm --arch gfx1100
check "compile bad arch" 2 "$rc"
contains "compile bad arch message" "--arch: 'gfx1100' is not gfx950, gfx942 or all" "$err"

# disasm
run disasm "$objects/gfx950/gemm_bf16.hsaco" --no-colour
check "disasm exit" 0 "$rc"
contains "disasm header" "  registers: " "$out"
contains "disasm loop counts" "    loop 1 (depth 1, " "$out"
contains "disasm mfma line" "MFMA       |   M v_mfma_f32_16x16x32_bf16 " "$out"
contains "disasm lds line" "LDS        |   L ds_read_b128 " "$out"
contains "disasm branch target" "s_cbranch_scc1 " "$out"
run disasm "$objects/gfx950/topk.hsaco" --kernel topk_bf16 --summary
contains "disasm one kernel" "topk_bf16 (amdgcn-amd-amdhsa--gfx950)" "$out"
check "disasm only that kernel" 0 "$(grep -c '^topk_f32' <<< "$out")"
run disasm "$objects/gfx950/topk.hsaco" --kernel topk
check "disasm unknown kernel exit" 1 "$rc"
check "disasm unknown kernel" "error: $objects/gfx950/topk.hsaco: no kernel named 'topk' (it has: topk_f32, topk_bf16)" "$err"
printf 'not an elf' > "$tmp/x.hsaco"
run disasm "$tmp/x.hsaco"
check "disasm not elf" "error: $tmp/x.hsaco: offset 0x0: not an ELF file" "$err"
run disasm "$tilelab"
contains "disasm wrong machine" "wrong machine: e_machine 62 is not AMDGPU (224)" "$err"
head -c 3000 "$objects/gfx950/gemm_bf16.hsaco" > "$tmp/cut.hsaco"
run disasm "$tmp/cut.hsaco"
check "disasm truncated exit" 1 "$rc"
contains "disasm truncated names file" "error: $tmp/cut.hsaco: " "$err"
run disasm
check "disasm no file" 2 "$rc"

# check: the whole suite is clean on both arches; one kernel; errors.
run check
check "check exit" 0 "$rc"
contains "check count" "29 kernel(s) checked on gfx950, 0 with problems" "$out"
contains "check gemm" "    A: MFMA operand read [ds_read_b128]: 16 instruction(s), 64 cycles, 0 conflict cycles, worst 1-way" "$out"
run check --arch gfx942
contains "check gfx942" "21 kernel(s) checked on gfx942, 0 with problems" "$out"
mkdir -p "$tmp/none"  # a folder without the kernel's code object
run check gemm_bf16 --code-objects "$tmp/none"
contains "check without code object" "occupancy: unknown (no compiled code object" "$out"
run check gemm_bf16 --shape 512,512,512
contains "check shape bound" "per workgroup at M=512,N=512,K=512 (16 workgroups): MFMA 4096 cycles, LDS 3072 cycles" "$out"
contains "check shape limiter" "global 1536 cycles with perfect cache reuse (4608 with none: 294912 bytes) at 64 B/clock (this CU's share of HBM among the CUs running work); likely limiter: MFMA" "$out"
run check gemm_bf16 --shape 500,512,512
check "check bad shape exit" 2 "$rc"
contains "check bad shape" "error: gemm_bf16 needs M % 128 == 0" "$err"
run check gemm_bf16 --shape 512,x,512
contains "check shape not a number" "error: --shape: 'x' is not an integer" "$err"
run check --shape 512,512,512
check "check shape without kernel" 2 "$rc"
run check gemm_bf16 --json
contains "check json" '"kernel":"gemm_bf16","arch":"gfx950","clean":true,"lds_bytes":65536' "$out"
contains "check json bound" '"limiter":"MFMA"' "$out"
run check --summary
contains "check summary row" "gemm_bf16                  clean      65536         0  2 WG/CU, 2 w/SIMD      MFMA           M=4096,N=4096,K=4096" "$out"
run check --summary --record "$tmp/d.h5"
check "check record exit" 0 "$rc"
run runs list "$tmp/d.h5"
contains "check recorded" "design-gemm_bf16-gfx950" "$out"
run check gemm_bf16 --out "$tmp/d.h5" --run-id mine
run runs show "$tmp/d.h5" mine
contains "check recorded run" "gemm_bf16" "$out"
run check gemm_bf16 --out "$tmp/d.h5" --record "$tmp/d.h5" --run-id twice
check "check --out with --record exit" 2 "$rc"
contains "check --out with --record" "--out and --record name the same store: give one" "$err"
run check gemm_f16
check "check unknown exit" 2 "$rc"
contains "check unknown" "error: no kernel named 'gemm_f16'" "$err"
run check lds_read_b64_tr_b16 --arch gfx942
check "check wrong arch" 2 "$rc"
contains "check wrong arch message" "lds_read_b64_tr_b16 is not built for gfx942" "$err"

# Issue 16: a misspelt code-object folder is an error, not a silent pass; a
# shape whose counts would overflow is refused, not printed as garbage.
run check gemm_bf16 --code-objects "$tmp/nonexistent"
check "check missing code-object folder exit" 2 "$rc"
contains "check missing code-object folder message" "--code-objects $tmp/nonexistent: no such directory" "$err"
run check gemm_bf16 --shape 549755813888,549755813888,64
check "check huge shape exit" 2 "$rc"
contains "check huge shape message" "M = 549755813888 is beyond the largest dimension tilelab takes (2^31 - 1)" "$err"
run check gemm_bf16 --shape 2147483520,2147483520,2147483520
check "check shape product exit" 2 "$rc"
contains "check shape product message" "multiply to more than 2^53" "$err"

# A code object without a spec: resources, mix per loop, each loop's bound.
run check "$objects/gfx950/gemm_bf16.hsaco"
check "check code object exit" 0 "$rc"
contains "check code object header" "  checked without a spec, on gfx950" "$out"
# By hand, from the loop's instructions and the gfx950 figures: 32 MFMAs x 16
# cycles = 512; LDS 16 ds_read_b128 x 4 passes + 8 ds_write_b128 x 8 passes =
# 128 passes x 2 clocks x 2 SIMDs per port = 512; global 8 loads x 64 lanes x
# 16 B = 8192 B per wave x 4 SIMDs / (8 TB/s / 256 CUs / 1.59 GHz, the clock under load = 19.65 B/clock) = 1667.
contains "check code object loop bound" "    loop 1 (0x1d54..0x2110): MFMA 512, LDS 512, global 1667 cycles (8192 bytes per wave); bound 1667 cycles, global memory" "$out"
# Dynamic LDS set at launch counts for occupancy: 64 KiB + 32 KiB per workgroup
# leaves room for one workgroup in gfx950's 160 KiB.
run check "$objects/gfx950/gemm_bf16.hsaco" --dynamic-lds 32768
check "check dynamic LDS exit" 0 "$rc"
contains "check dynamic LDS bytes" "  LDS: 65536 bytes + 32768 dynamic (set at launch);" "$out"
contains "check dynamic LDS occupancy" "1 workgroup(s)/CU, 1 waves/SIMD, limited by LDS" "$out"
run check gemm_bf16 --dynamic-lds 5
check "dynamic LDS without a code object" 2 "$rc"
run check "$objects/gfx950/gemm_bf16.hsaco" --dynamic-lds 4294967295
check "dynamic LDS too large" 2 "$rc"
run check "$objects/gfx950/gemm_bf16.hsaco" --kernel nope
check "check code object unknown kernel exit" 1 "$rc"
contains "check code object unknown kernel message" "no kernel named 'nope' (it has: gemm_bf16)" "$err"
run check gemm_bf16 --kernel gemm_bf16
check "check --kernel without a file" 2 "$rc"

# gemm_bf16's workgroup orders (group_m; tools/reference/remap_sweep.py) only
# permute the tiles: C = A x B^T (256 x 512, K = 64, 8 workgroups) comes out
# byte for byte the same in the grid's order (0, the host's, checked against
# the CPU reference elsewhere) and with the chunked remap and group_m 2, 3, 32.
for g in 0 2 3 32; do
  cat > "$tmp/order$g.toml" <<ORDER
kernel = "gemm_bf16"
grid = [4, 2, 1]
block = [256, 1, 1]
seed = 1
[args."@0"]
buffer = { bytes = 262144, fill = "zeros" }
save = true
[args."@8"]
buffer = { bytes = 32768, fill = "random", dtype = "bf16" }
[args."@16"]
buffer = { bytes = 65536, fill = "random", dtype = "bf16" }
[args."@24"]
value = 256
[args."@28"]
value = 512
[args."@32"]
value = 64
[args."@36"]
value = $g
ORDER
  run sim "$objects/gfx950/gemm_bf16.hsaco" --launch "$tmp/order$g.toml" --functional --save "$tmp/order$g"
  check "workgroup order $g exit" 0 "$rc"
done
for g in 2 3 32; do
  check "workgroup order $g computes the same C" "ok" "$(cmp -s "$tmp/order0/@0.bin" "$tmp/order$g/@0.bin" && echo ok)"
done
# The 256x256x64, 8-wave variant (build/kernels/variants/gemm_256) keeps the
# copy, swizzle, MFMA and K order: on the same inputs (256 x 512, 2 workgroups
# of 512 work-items, plain order and group_m 2) its C is gemm_bf16's, bit for bit.
for g in 0 2; do
  sed -e 's/^grid = \[4, 2, 1\]/grid = [2, 1, 1]/' -e 's/^block = \[256, 1, 1\]/block = [512, 1, 1]/' \
    -e "s/^value = $g\$/value = $g/" < "$tmp/order$g.toml" > "$tmp/tile256_$g.toml"
  run sim "$objects/variants/gemm_256/gfx950/gemm_bf16.hsaco" --launch "$tmp/tile256_$g.toml" --functional --save "$tmp/tile256_$g"
  check "256 x 256 tile, order $g exit" 0 "$rc"
  check "256 x 256 tile, order $g computes gemm_bf16's C" "ok" "$(cmp -s "$tmp/order0/@0.bin" "$tmp/tile256_$g/@0.bin" && echo ok)"
done
head -c 262144 /dev/zero > "$tmp/zeros.bin"
check "C is written" "differ" "$(cmp -s "$tmp/order0/@0.bin" "$tmp/zeros.bin" || echo differ)"

finish "kernels CLI"
