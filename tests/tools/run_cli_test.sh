#!/usr/bin/env bash
# Drives `tilelab run` as a user does on a machine without a GPU: the
# emulator, the HIP backend against the emulator-backed shim (what a user
# of an MI350 runs, with the runtime swapped), Debian's real libamdhip64
# finding no GPU, the CUDA backend finding no driver, and bad command lines.
# usage: run_cli_test.sh TILELAB HIP_SHIM HANDWRITTEN_CO
set -u
tilelab=$1
shim=$2
handwritten=$3
launch="$(dirname "$0")/../data/handwritten/scale_rows.launch.toml"
source "$(dirname "$0")/cli_checks.sh"

run run rmsnorm_bf16 --device emu --shape 16,256 --seed 2
check "emu exit" 0 "$rc"
contains "emu header" "rmsnorm_bf16 on functional emulator (gfx950) (gfx950, emu, 1590 MHz)" "$out"
contains "emu check" "  check: pass, max relative error " "$out"
contains "emu no clock" "  timing: none: the functional emulator has no clock (tilelab sim --timing)" "$out"

# The HIP backend on the shim: check, 3 timed repetitions, wave stamps, stored.
export TILELAB_HIP_LIBRARY=$shim
run run rmsnorm_bf16 --device hip --shape 16,256 --reps 3 --warmup 1 --no-flush --wave-stamps --out "$tmp/s.h5"
check "hip shim exit" 0 "$rc"
contains "hip shim device" "rmsnorm_bf16 on tilelab HIP shim (functional emulator, gfx950) (gfx950:sramecc+:xnack-, hip, 1 CUs, 1590 MHz; HIP driver 0.0.0)" "$out"
contains "hip shim timing" "  timing: 3 repetitions, caches not flushed" "$out"
contains "hip shim stamps" "  wave stamps: 64 waves on 1 CUs;" "$out"
check "hip shim run stored" "hw hip gfx950 3 64 ns True 1" "$(/usr/bin/python3 - "$tmp/s.h5" <<'PY'
import sys, h5py
r = h5py.File(sys.argv[1], "r")["runs/run-rmsnorm_bf16-hip-gfx950"]
a = lambda k: r.attrs[k].decode() if isinstance(r.attrs[k], bytes) else r.attrs[k]
w = r["waves"][:]
print(a("kind"), a("backend"), a("arch"), len(r["results/repetitions"]), len(w), a("time_unit"),
      "HIP runtime 0.0.0" in a("driver"), int(r["results"].attrs["correct"]))
PY
)"
# A pass of two kernels (attention backward: delta, then the gradients) through
# the HIP module API: both launched every repetition, checked, timed, stamped.
run run attention_bwd_d64 --device hip --shape 1,100,1 --reps 2 --warmup 1 --no-flush --wave-stamps --out "$tmp/p.h5"
check "hip shim pass exit" 0 "$rc"
contains "hip shim pass check" "  check: pass, max relative error " "$out"
contains "hip shim pass named" "  a pass: attention_bwd_prep_d64, then attention_bwd_d64, launched, checked and timed together" "$out"
contains "hip shim pass timing" "  timing: 2 repetitions, caches not flushed" "$out"
contains "hip shim pass stamps" "  wave stamps: 16 waves on 1 CUs;" "$out"
check "hip shim pass stored" "['attention_bwd_prep_d64'] 2" "$(/usr/bin/python3 - "$tmp/p.h5" <<'PY'
import sys, json, h5py
r = h5py.File(sys.argv[1], "r")["runs/run-attention_bwd_d64-hip-gfx950"]
c = r.attrs["config"]
print(json.loads(c.decode() if isinstance(c, bytes) else c)["ran_before"], len(r["results/repetitions"]))
PY
)"
run run rmsnorm_bf16 --device hip --shape 16,256 --json --reps 2 --no-flush
check "hip shim json" "hip 2 True" "$(printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["device"]["backend"], len(d["timing"]["reps_s"]), d["check"]["pass"])')"
# A suite kernel runs the device's own build; a code object for another gfx
# than the device's is refused naming both.
export TILELAB_HIP_SHIM_ARCH=gfx942
run run rmsnorm_bf16 --device hip --shape 16,256 --reps 1 --no-flush
contains "gfx942 device runs the gfx942 build" "/kernels/gfx942/rmsnorm.hsaco" "$out"
run run "$handwritten" --launch "$launch" --device hip --reps 1 --no-flush
unset TILELAB_HIP_SHIM_ARCH
check "arch mismatch exit" 1 "$rc"
check "arch mismatch message" "error: the code object is built for gfx950, the device (tilelab HIP shim (functional emulator, gfx942)) is gfx942" "$err"
# A code object tilelab did not build, from its launch file.
run run "$handwritten" --launch "$launch" --device hip --reps 2 --no-flush
check "hip launch file exit" 0 "$rc"
contains "hip launch file check" "  check: none (no reference: a launch file's buffers are saved, not judged)" "$out"
# Issue 24 (17): a library named by TILELAB_HIP_LIBRARY that does not load is
# named (no fall-back to another runtime); a negative ordinal is a usage error.
run run rmsnorm_bf16 --device hip --ordinal -1
check "negative ordinal exit" 2 "$rc"
contains "negative ordinal message" "--ordinal takes a GPU's number, 0 or more" "$err"
export TILELAB_HIP_LIBRARY=$tmp/nonexistent.so
run run rmsnorm_bf16 --device hip
check "unloadable HIP library exit" 3 "$rc"
contains "unloadable HIP library message" "error: TILELAB_HIP_LIBRARY=$tmp/nonexistent.so: cannot load it (" "$err"
unset TILELAB_HIP_LIBRARY

# Debian's libamdhip64 (libamdhip64-dev) on a machine without an AMD GPU.
run run rmsnorm_bf16 --device hip
check "no AMD GPU exit" 3 "$rc"
check "no AMD GPU message" "error: no AMD GPU: the HIP runtime (libamdhip64.so) finds no device" "$err"
# No NVIDIA driver here (a machine with one would run the kernel instead).
if ! command -v nvidia-smi >/dev/null; then
  run run rmsnorm_bf16 --device cuda
  check "no NVIDIA driver exit" 3 "$rc"
  contains "no NVIDIA driver message" "error: no NVIDIA driver: cannot load libcuda.so.1" "$err"
fi

run run rmsnorm_bf16
check "no device exit" 2 "$rc"
contains "no device message" "error: --device hip, cuda or emu is required" "$err"
run run rmsnorm_bf16 --device tpu
check "bad device exit" 2 "$rc"
run run "$handwritten" --device emu
check "code object without launch exit" 2 "$rc"
run run "$handwritten" --launch "$launch" --device emu --wave-stamps
check "stamps of a code object exit" 2 "$rc"
contains "stamps of a code object message" "--wave-stamps needs a kernel of the suite" "$err"
run run rmsnorm_bf16 --device emu --shape 16,7
check "bad shape exit" 2 "$rc"
run run rmsnorm_bf16 --device emu --reps -1
check "bad reps exit" 2 "$rc"
# The H200 runs kept in the repository read back with this tilelab.
measured="$(dirname "$0")/../../hw/runs/h200/measured/h200.h5"
run runs list "$measured"
check "measured runs" 13 "$(printf '%s\n' "$out" | grep -c ' hw ')"
run compare "$measured" rmsnorm-stamps rmsnorm-1
check "measured compare exit" 0 "$rc"
contains "measured compare waves" "waves A: 131072 on 132 CUs" "$out"
finish run
