#!/usr/bin/env bash
# Drives `tilelab sim --functional` as a user does: outputs, errors, exit
# statuses, and that two runs with one seed store the same HDF5 contents.
# usage: emu_cli_test.sh TILELAB
set -u
tilelab=$1
source "$(dirname "$0")/cli_checks.sh"

run sim gemm_bf16 --functional --shape 256,128,128 --seed 3 --out "$tmp/a.h5"
check "sim gemm exit" 0 "$rc"
contains "sim gemm header" "gemm_bf16 on gfx950, M=256,N=128,K=128, seed 3: 2 workgroups, 8 waves, " "$out"
contains "sim gemm pass" "): PASS" "$out"
contains "sim gemm site" "ds_read_b128 v[140:143], v107" "$out"
contains "sim gemm agrees" "  ds_read_b128            0.000 vs    0.000  agree" "$out"
run sim gemm_bf16 --functional --shape 256,128,128 --seed 3 --out "$tmp/b.h5"
check "sim same seed same store" "same" "$(/usr/bin/python3 - "$tmp/a.h5" "$tmp/b.h5" <<'PY'
import sys, h5py, numpy as np
def walk(f):
    out = {}
    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            out[name] = obj[()].tobytes()
        for k, v in obj.attrs.items():
            if k != "utc_time":
                out[name + "@" + k] = np.asarray(v).tobytes()
    f.visititems(visit)
    return out
a, b = (walk(h5py.File(p, "r")) for p in sys.argv[1:3])
print("same" if a == b and len(a) > 5 else "differ")
PY
)"
run runs list "$tmp/a.h5"
contains "sim run stored" "sim-gemm_bf16-gfx950" "$out"
run sim rmsnorm_bf16 --functional --arch gfx942
check "sim rmsnorm exit" 0 "$rc"
contains "sim rmsnorm smallest shape" "rmsnorm_bf16 on gfx942, rows=7,hidden=8, seed 1" "$out"
run sim gemm_bf16 --shape 128,128,64
check "sim needs --functional" 2 "$rc"
contains "sim needs --functional message" "only --functional runs exist so far" "$err"
run sim gemm_bf16 --functional --shape 100,128,64
check "sim bad shape exit" 2 "$rc"
contains "sim bad shape message" "error: gemm_bf16 refuses this shape: gemm_bf16 needs M % 128 == 0" "$err"
run sim attention_fwd_d64 --functional --shape 1,128,1 --json
check "sim json exit" 0 "$rc"
check "sim json parses and agrees" "True True 4" "$(printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["pass"], all(k["agree"] for k in d["lds_vs_design"]), len(d["lds_vs_design"]))')"
run sim gemm_f16 --functional
check "sim unknown kernel exit" 2 "$rc"
contains "sim unknown kernel message" "no kernel named 'gemm_f16'" "$err"
run sim lds_read_b128 --functional --shape 10 --seed 2 --arch gfx942
check "sim microbenchmark exit" 0 "$rc"
contains "sim microbenchmark site" "ds_read_b128 v[10:13], v1                                    10       560     8" "$out"
contains "sim microbenchmark no design" "(a microbenchmark: its accesses are chosen at launch, no designed accesses to compare)" "$out"
run sim gemm_bf16 --functional --shape 128,128,64 --code-objects "$tmp/none"
check "sim missing code object exit" 1 "$rc"
contains "sim missing code object message" "error: " "$err"
finish "emulator CLI"
