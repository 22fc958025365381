#!/usr/bin/env bash
# gemm_bf16 and gemm_mxfp4 as templates (kernels/gemm_bf16/gemm_tile.hpp,
# kernels/common/mx_gemm_tile.hpp): variants
# compiled with -DTL_NAME=V into the kernel cache, each launched by
# gemm_bf16.launch.toml, all computing the same C (= A·Bᵀ, checked with numpy);
# a variant that breaks the template's rules is refused with the compiler's
# line; a template sweep with one process and with 2 MPI ranks gives the same
# summary and store; its tuning database names the winner's parameters.
# usage: gemm_template_test.sh TILELAB
set -u
tilelab=$1
here=$(realpath "$(dirname "$0")")
source "$here/cli_checks.sh"
export TILELAB_KERNEL_CACHE="$tmp/cache"
template="$here/../../kernels/gemm_bf16/gemm_bf16.launch.toml"
# The template with A and B saved too, for the reference.
sed -e 's|^\(buffer = { bytes = "[MN]\*K\*2".*\)$|\1\nsave = true|' "$template" > "$tmp/saving.toml"

variants="TILE_M=128,TILE_N=128,WAVES_M=2,WAVES_N=2 TILE_M=256,TILE_N=128,WAVES_M=2,WAVES_N=4
TILE_M=128,TILE_N=256,WAVES_M=2,WAVES_N=2 TILE_M=64,TILE_N=64,WAVES_M=1,WAVES_N=1
TILE_M=256,TILE_N=256,WAVES_M=2,WAVES_N=4 TILE_M=128,TILE_N=128,WAVES_M=2,WAVES_N=2,SWIZZLE=0"
first=""
for v in $variants; do
  run compile gemm_bf16 --params "$v"
  check "compile $v exit" 0 "$rc"
  co=$(printf '%s\n' "$out" | head -1)
  contains "compile $v into the cache" "$tmp/cache/" "$co"
  run compile gemm_bf16 --params "$v"
  check "compile $v again is a cache hit" "$co (cached)" "$(printf '%s\n' "$out" | head -1)"
  shape=$(echo "$v" | sed 's/,SWIZZLE=0//')
  rm -rf "$tmp/saved"
  run sim "$co" --launch "$tmp/saving.toml" --shape "M=256,N=256,K=192,$shape" --functional --save "$tmp/saved"
  check "variant $v runs" 0 "$rc"
  c=$(sha256sum < "$tmp/saved/@0.bin")
  if [ -z "$first" ]; then
    first=$c
    check "C = A·Bᵀ" "ok" "$(/usr/bin/python3 -c '
import sys, numpy as np
def bf16(path, shape):
    u = np.fromfile(path, dtype=np.uint16).astype(np.uint32) << 16
    return u.view(np.float32).reshape(shape)
d = sys.argv[1]
a, b, c = bf16(d + "/@8.bin", (256, 192)), bf16(d + "/@16.bin", (256, 192)), bf16(d + "/@0.bin", (256, 256))
ref = a.astype(np.float64) @ b.astype(np.float64).T
err = np.abs(c - ref).max() / np.abs(ref).max()
print("ok" if err < 1e-2 and np.abs(c).max() > 0 else f"max relative error {err}")' "$tmp/saved")"
  else
    check "variant $v computes the same C" "$first" "$c"
  fi
done

# The MXFP4 GEMM's template (kernels/common/mx_gemm_tile.hpp): the same C from
# every variant, and C = A·Bᵀ of the E2M1 values (scales 2^0) by numpy.
mx_template="$here/../../kernels/gemm_mxfp4/gemm_mxfp4.launch.toml"
sed -e 's|^\(buffer = { bytes = "[MN]\*(K/128)\*64".*\)$|\1\nsave = true|' "$mx_template" > "$tmp/mx_saving.toml"
first=""
for v in TILE_M=128,TILE_N=128,WAVES_M=2,WAVES_N=2 TILE_M=256,TILE_N=128,WAVES_M=2,WAVES_N=4 \
         TILE_M=64,TILE_N=64,WAVES_M=1,WAVES_N=1 TILE_M=128,TILE_N=256,WAVES_M=4,WAVES_N=1; do
  run compile gemm_mxfp4 --params "$v"
  check "compile mxfp4 $v exit" 0 "$rc"
  co=$(printf '%s\n' "$out" | head -1)
  rm -rf "$tmp/saved"
  run sim "$co" --launch "$tmp/mx_saving.toml" --shape "M=256,N=256,K=256,$v" --functional --save "$tmp/saved"
  check "mxfp4 variant $v runs" 0 "$rc"
  c=$(sha256sum < "$tmp/saved/@0.bin")
  if [ -z "$first" ]; then
    first=$c
    check "mxfp4 C = A·Bᵀ" "ok" "$(/usr/bin/python3 -c '
import sys, numpy as np
e2m1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6])
def fp4(path, rows):
    b = np.fromfile(path, dtype=np.uint8).reshape(rows, -1)
    return np.stack([e2m1[b & 15], e2m1[b >> 4]], axis=-1).reshape(rows, -1)  # element 2i in the low nibble
d = sys.argv[1]
a, b = fp4(d + "/@8.bin", 256), fp4(d + "/@24.bin", 256)
c = (np.fromfile(d + "/@0.bin", dtype=np.uint16).astype(np.uint32) << 16).view(np.float32).reshape(256, 256)
ref = a @ b.T
err = np.abs(c - ref).max() / np.abs(ref).max()
print("ok" if err < 1e-2 and np.abs(c).max() > 0 else f"max relative error {err}")' "$tmp/saved")"
  else
    check "mxfp4 variant $v computes the same C" "$first" "$c"
  fi
done

# Each launch template launches the suite's own build as its host does: the
# same cycles at the same shape.
codes=$(dirname "$(dirname "$(realpath "$tilelab")")")/kernels/gfx950
for k in gemm_bf16 gemm_mxfp4 gemm_mxfp8; do
  run sim "$codes/$k.hsaco" --launch "$here/../../kernels/$k/$k.launch.toml" --shape M=512,N=512,K=512 --timing --quiet
  by_template=$(printf '%s\n' "$out" | grep -o '^  [0-9]* cycles')
  run sim "$k" --shape 512,512,512 --timing --quiet
  contains "$k: timed through its launch template" " cycles" "$by_template"
  check "$k: its launch template times what its host launches" "$(printf '%s\n' "$out" | grep -o '^  [0-9]* cycles')" "$by_template"
done

# The same variant is the same bytes in any cache folder (a sweep's stored
# code-object SHA-256 must not depend on where the cache is).
run compile gemm_bf16 --params TILE_M=256,TILE_N=128,WAVES_M=2,WAVES_N=4
here_co=$(printf '%s\n' "$out" | head -1 | sed 's/ (cached)$//')
run compile gemm_bf16 --params TILE_M=256,TILE_N=128,WAVES_M=2,WAVES_N=4 --cache "$tmp/other cache"
there_co=$(printf '%s\n' "$out" | head -1)
check "the same variant in another cache" "same" "$(cmp -s "$here_co" "$there_co" && echo same || echo differ)"

run compile gemm_bf16 --params TILE_M=128,TILE_N=128,WAVES_M=3,WAVES_N=1
check "a variant against the template's rules exit" 1 "$rc"
contains "a variant against the template's rules says which" "does not compile for gfx950: static assertion failed" "$err"
contains "a variant against the template's rules says why" "each wave's piece of C must be whole 16x16 MFMA tiles" "$err"
run compile gemm_bf16 --params tile_m=128
check "a lower-case parameter exit" 2 "$rc"

cat > "$tmp/sweep.toml" <<EOF
name = "gemm_template"
[[candidate]]
name = "128x128_w4"
template = "gemm_bf16"
params = { TILE_M = 128, TILE_N = 128, WAVES_M = 2, WAVES_N = 2 }
[[candidate]]
name = "256x128_w8_g2"
template = "gemm_bf16"
params = { TILE_M = 256, TILE_N = 128, WAVES_M = 2, WAVES_N = 4 }
shape = { GROUP_M = 2 }
[[candidate]]
name = "w3"
template = "gemm_bf16"
params = { TILE_M = 128, TILE_N = 128, WAVES_M = 3, WAVES_N = 1 }
[[problem]]
M = 512
N = 512
K = 128
[[problem]]
M = 128
N = 256
K = 64
EOF
run sweep "$tmp/sweep.toml" --out "$tmp/one.h5"
check "template sweep exit" 0 "$rc"
one=$out
contains "template sweep header" "sweep gemm_template: 3 candidates x 2 problems" "$out"
contains "template sweep: a variant that does not compile" "invalid: w3 at K=128,M=512,N=512: gemm_bf16 with these parameters does not compile for gfx950: static assertion failed" "$out"
contains "template sweep: a tile the shape does not divide" "invalid: 256x128_w8_g2 at K=64,M=128,N=256: " "$out"
contains "template sweep: the tile's grid refuses it" "'M/TILE_M' is 1/2, not a whole number" "$out"
mpirun=(mpirun --allow-run-as-root --oversubscribe)
out=$("${mpirun[@]}" -n 2 "$tilelab" sweep "$tmp/sweep.toml" --out "$tmp/two.h5" 2>"$tmp/err"); rc=$?
check "template sweep on 2 ranks exit" 0 "$rc"
check "template sweep on 2 ranks prints what one process prints" "$one" "$out"
check "template sweep on 2 ranks stores what one process stores" "same" "$(/usr/bin/python3 "$here/same_store.py" "$tmp/one.h5" "$tmp/two.h5")"
run tune export "$tmp/one.h5" --out "$tmp/tuning.db"
check "template tuning database exit" 0 "$rc"
run tune lookup "$tmp/tuning.db" --family gemm_template --shape M=512,N=512,K=128
contains "template tuning database: the winner's parameters" '"TILE_M":' "$out"
# A variant that spills is no candidate, whether or not its template has a
# spec per variant: gemm_mxfp8's 256x256 tile over 8 waves needs more than
# 256 VGPRs (the MX templates have none).
cat > "$tmp/mx_sweep.toml" <<EOF
name = "mx_spill"
[[candidate]]
name = "256x256_w8"
template = "gemm_mxfp8"
params = { TILE_M = 256, TILE_N = 256, WAVES_M = 2, WAVES_N = 4 }
[[problem]]
M = 256
N = 256
K = 256
EOF
run sweep "$tmp/mx_sweep.toml"
check "a sweep with a variant that spills exit" 0 "$rc"
contains "a variant that spills is invalid" "invalid: 256x256_w8 at K=256,M=256,N=256: it spills: " "$out"
finish "gemm template"
