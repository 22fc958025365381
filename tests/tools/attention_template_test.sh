#!/usr/bin/env bash
# attention_fwd as a template (kernels/attention_fwd/attention_fwd.hip):
# variants of the query tile, the KV tile, the ping-pong and s_setprio
# compiled with -DTL_NAME=V into the kernel cache, each launched by
# attention_fwd.launch.toml, checked against numpy's softmax(Q·Kᵀ/√D)·V and
# log-sum-exp (causal and not); the suite's build through the template times
# what its host launches; a variant against the template's rules is refused
# with the compiler's line; a sweep over the template names a winner.
# usage: attention_template_test.sh TILELAB
set -u
tilelab=$1
here=$(realpath "$(dirname "$0")")
source "$here/cli_checks.sh"
export TILELAB_KERNEL_CACHE="$tmp/cache"
template="$here/../../kernels/attention_fwd/attention_fwd.launch.toml"
# The template with Q, K and V saved too, for the reference.
sed -e 's|^\(buffer = { bytes = "BH\*S\*128\*2", fill = "random".*\)$|\1\nsave = true|' "$template" > "$tmp/saving.toml"

reference='
import sys, numpy as np
def bf16(path):
    u = np.fromfile(path, dtype=np.uint16).astype(np.uint32) << 16
    return u.view(np.float32).astype(np.float64)
d, BH, S, causal = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
q, k, v, o = (bf16(f"{d}/@{a}.bin").reshape(BH, S, 128) for a in (16, 24, 32, 0))
lse = np.fromfile(f"{d}/@8.bin", dtype=np.float32).reshape(BH, S)
s = q @ k.transpose(0, 2, 1) / np.sqrt(128)
if causal:
    s = np.where(np.triu(np.ones((S, S), bool), 1), -np.inf, s)
mx = s.max(axis=2, keepdims=True)
p = np.exp(s - mx)
ref = (p @ v) / p.sum(axis=2, keepdims=True)
ref_lse = (mx + np.log(p.sum(axis=2, keepdims=True)))[..., 0]
err = np.abs(o - ref).max() / np.abs(ref).max()
lerr = (np.abs(lse - ref_lse) / np.maximum(1, np.abs(ref_lse))).max()
print("ok" if err < 1 / 64 and lerr < 1e-4 and np.abs(o).max() > 0 else f"O error {err}, lse error {lerr}")'

for v in TILE_Q=128,TILE_KV=64 TILE_Q=64,TILE_KV=64 TILE_Q=128,TILE_KV=32 TILE_Q=128,TILE_KV=128 \
         TILE_Q=256,TILE_KV=64 TILE_Q=128,TILE_KV=64,PINGPONG=0 TILE_Q=128,TILE_KV=64,SETPRIO=0; do
  run compile attention_fwd --params "$v"
  check "compile $v exit" 0 "$rc"
  co=$(printf '%s\n' "$out" | head -1)
  contains "compile $v into the cache" "$tmp/cache/" "$co"
  for causal in 0 1; do
    rm -rf "$tmp/saved"
    run sim "$co" --launch "$tmp/saving.toml" --shape "BH=2,S=256,CAUSAL=$causal,$v" --functional --save "$tmp/saved"
    check "variant $v causal=$causal runs" 0 "$rc"
    check "variant $v causal=$causal: O = softmax(QKᵀ/√D)V and its lse" "ok" \
      "$(/usr/bin/python3 -c "$reference" "$tmp/saved" 2 256 "$causal")"
  done
done

# The suite's own build through the template: the same cycles as its host.
codes=$(dirname "$(dirname "$(realpath "$tilelab")")")/kernels/gfx950
for causal in 0 1; do
  run sim "$codes/attention_fwd.hsaco" --launch "$template" --shape "BH=2,S=512,CAUSAL=$causal" --timing --quiet
  by_template=$(printf '%s\n' "$out" | grep -o '^  [0-9]* cycles')
  run sim attention_fwd_d128 --shape "2,512,$causal" --timing --quiet
  contains "causal=$causal: timed through the launch template" " cycles" "$by_template"
  check "causal=$causal: the launch template times what the host launches" \
    "$(printf '%s\n' "$out" | grep -o '^  [0-9]* cycles')" "$by_template"
done

run compile attention_fwd --params TILE_Q=64,TILE_KV=128
check "a KV tile longer than the query tile exit" 1 "$rc"
contains "a KV tile longer than the query tile says why" "a causal query block must end on a KV tile" "$err"
run compile attention_fwd --params TILE_KV=48
check "a KV tile the template has no layout for exit" 1 "$rc"
contains "a KV tile the template has no layout for says why" "TL_TILE_KV is 32, 64 or 128" "$err"

# The design check sees the variant: its spec follows the parameters, and the
# variant compiled into the cache agrees with it (LDS bytes, workgroup size).
run check attention_fwd_d128 --params TILE_Q=64
check "check a variant exit" 0 "$rc"
contains "check a variant: its tile" "block tile: 64 query rows x 64-key KV tiles" "$out"
contains "check a variant: its waves" "waves: 4 waves x 16 query rows" "$out"
contains "check a variant: its LDS (2 stages of K and Vt, 64 x 128 bf16 each)" "LDS: 65536 of 163840 bytes" "$out"
contains "check a variant: the compiled variant agrees" "attention_fwd_d128 on gfx950: clean" "$out"
# Each KV tile has its own Vt swizzle (the 64-key one conflicts 2-way at 32
# and 128 keys): every variant's Vt accesses are conflict-free.  By hand: a
# Vt stage is 128 x KV bf16 = 256 KV bytes, a ds_read_b64 wave instruction
# reads 512 of them: KV/2 instructions, of 2 passes each without conflicts.
for kv in 32 128; do
  run check attention_fwd_d128 --params TILE_KV=$kv
  check "check TILE_KV=$kv exit" 0 "$rc"
  contains "check TILE_KV=$kv: the Vt reads do not conflict" "Vt: MFMA A operand of O^T [ds_read_b64]: $((kv / 2)) instruction(s), $((kv)) cycles, 0 conflict cycles" "$out"
done
contains "check TILE_KV=128: its Vt swizzle" "Vt tile: Sw<4,3,4> o (128,128):(128,1)" "$out"
run check attention_fwd_d128 --params TILE_Q=256
check "check a variant with problems exit" 1 "$rc"
contains "check a variant: 16 waves spill" "problem: the code object spills to scratch" "$out"
run check attention_fwd_d128 --params TILE_M=128
check "check a parameter the template does not take exit" 2 "$rc"
contains "check a parameter the template does not take says which it takes" "attention_fwd_d128 has no parameter 'TILE_M' (it takes TILE_Q, TILE_KV, PINGPONG, SETPRIO)" "$err"
run check rmsnorm_bf16 --params TILE_M=128
check "check --params of a kernel that is no template exit" 2 "$rc"
contains "check --params of a kernel that is no template says so" "rmsnorm_bf16 is not a template" "$err"
run check --params TILE_Q=64
check "check --params without a kernel exit" 2 "$rc"

cat > "$tmp/sweep.toml" <<EOF
name = "attention_template"
[[candidate]]
name = "q128_kv64"
template = "attention_fwd"
[[candidate]]
name = "q128_kv64_one_group"
template = "attention_fwd"
params = { PINGPONG = 0 }
[[candidate]]
name = "q64_kv128"
template = "attention_fwd"
params = { TILE_Q = 64, TILE_KV = 128 }
[[candidate]]
name = "q256_w16"
template = "attention_fwd"
params = { TILE_Q = 256 }
[[problem]]
BH = 2
S = 512
CAUSAL = 0
EOF
run sweep "$tmp/sweep.toml" --out "$tmp/sweep.h5"
check "attention template sweep exit" 0 "$rc"
contains "attention template sweep header" "sweep attention_template: 4 candidates x 1 problems" "$out"
contains "attention template sweep: a variant that spills is no candidate" "invalid: q256_w16 at BH=2,CAUSAL=0,S=512: it spills: " "$out"
sweep_out=$out
run runs show "$tmp/sweep.h5" sweep-attention_template-q128_kv64-BH2_CAUSAL0_S512-cd928994e34a --json
contains "attention template sweep: each point keeps its design check" '"design": {
      "clean": true,
      "lds_bytes": 65536,
      "conflict_cycles": 0,' "$out"
run runs show "$tmp/sweep.h5" sweep-attention_template-q256_w16-BH2_CAUSAL0_S512-3ebaac73dab1 --json
contains "attention template sweep: an invalid point is a run with its reason" '"invalid": "it spills: ' "$out"
run sweep "$tmp/sweep.toml" --out "$tmp/sweep.h5"
check "attention template sweep resumed: every point read back, the same summary" "$sweep_out" "$out"
contains "attention template sweep resumed: the invalid points too" "[4/4] q256_w16 BH=2,CAUSAL=0,S=512: invalid: it spills" "$err"
contains "attention template sweep resumed: read back, not run" "per lane (stored)" "$err"
out=$sweep_out
contains "attention template sweep: the variant against the rules" "invalid: q64_kv128 at BH=2,CAUSAL=0,S=512: attention_fwd with these parameters does not compile for gfx950: static assertion failed" "$out"
contains "attention template sweep: one winner among the two that compile" "wins: q128_kv64 " "$out"
contains "attention template sweep: the invalid ones win nothing" " q64_kv128 0 q256_w16 0; 2 invalid point(s)" "$out"
finish "attention template"
