#!/usr/bin/env bash
# Drives `tilelab import rocprof` as a user does: the real rocprofv3 files
# (tests/data/rocprof), a rocpd database built from the fixture, a decoded
# thread trace, malformed files refused with one line and the store untouched.
# usage: import_cli_test.sh TILELAB CODE_OBJECT_DIR
set -u
tilelab=$1
code_objects=$2
data="$(dirname "$0")/../data/rocprof"
source "$(dirname "$0")/cli_checks.sh"

run import rocprof "$data/kernel_trace.csv" --out "$tmp/s.h5" --arch gfx90a
check "kernel trace exit" 0 "$rc"
contains "kernel trace runs" "imported 9 dispatch(es) from 1 file(s)" "$out"
run runs show "$tmp/s.h5" rocprof-1
contains "imported duration" "median 12800 ns" "$out"
contains "imported not checked" "not checked" "$out"
contains "imported provenance" "arch gfx90a, device Agent 4, backend rocprofv3" "$out"
run import rocprof "$data/kernel_trace.csv" --out "$tmp/s.h5"
check "second import exit" 1 "$rc"
contains "second import refused" "already has a run 'rocprof-1'" "$err"

/usr/bin/python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.commit()" \
  "$tmp/results.db" "$data/rocpd_v3.sql"
cp -r "$data/att" "$tmp/att"
run import rocprof "$tmp" --out "$tmp/p.h5" --kernel gemm_bf16 --shape M=256,N=128,K=128
check "rocpd and thread trace exit" 0 "$rc"
contains "rocpd and thread trace runs" "imported 2 dispatch(es) from 2 file(s)" "$out"
run compare "$tmp/p.h5" rocprof-10 rocprof-11
contains "compare derived" "lds_bank_conflict_rate  0.142857  0  0.00  " "$err$out"
# The imported thread trace's listing in program order, and both runs' side by side.
run runs show "$tmp/p.h5" rocprof-10 --listing
contains "listing of an imported thread trace" "rocprof-10: 3 instructions in program order" "$out"
contains "listing row (hits, latency, mean, stall, idle, waits on)" "0x001008  v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11]     2       20  10.0      4    18  stall" "$out"
run runs show "$tmp/p.h5" rocprof-11 --listing
contains "no listing without pc statistics" "no listing: the run has no per-pc statistics" "$out"
run compare "$tmp/p.h5" rocprof-10 rocprof-11 --by pc --in-order
check "compare in program order exit" 0 "$rc"
run compare "$tmp/p.h5" rocprof-10 rocprof-11 --in-order
check "--in-order without --by pc exit" 2 "$rc"
run export "$tmp/p.h5" rocprof-10 rocprof-11 --perfetto "$tmp/both.json"
check "export two runs exit" 0 "$rc"
check "export two runs tracks (11 has no thread trace)" "rocprof-10: CU 5" "$(/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("|".join(sorted(e["args"]["name"] for e in d["traceEvents"] if e.get("name") == "process_name")))' "$tmp/both.json")"

# Round trip: the real files imported, written back, imported again: the same store.
mkdir -p "$tmp/real"
cp "$data/kernel_trace.csv" "$data/counter_collection.csv" "$tmp/real/"
run import rocprof "$tmp/real" --out "$tmp/first.h5"
check "round trip first import" 0 "$rc"
run export "$tmp/first.h5" $("$tilelab" runs list "$tmp/first.h5" | awk '{print $1}') --rocprof "$tmp/back"
check "round trip export" 0 "$rc"
run import rocprof "$tmp/back" --out "$tmp/second.h5"
check "round trip second import" 0 "$rc"
check "round trip same store" "same" "$(/usr/bin/python3 "$(dirname "$0")/same_store.py" "$tmp/first.h5" "$tmp/second.h5")"
# The same with a rocpd database and a thread trace: written back as CSVs and
# a decoded thread-trace folder, imported again: the same store.
run export "$tmp/p.h5" rocprof-10 rocprof-11 --rocprof "$tmp/back2"
check "thread trace round trip export" 0 "$rc"
run import rocprof "$tmp/back2" --out "$tmp/p2.h5" --kernel gemm_bf16 --shape M=256,N=128,K=128
check "thread trace round trip import" 0 "$rc"
check "thread trace round trip same store" "same" "$(/usr/bin/python3 "$(dirname "$0")/same_store.py" "$tmp/p.h5" "$tmp/p2.h5")"
run export "$tmp/p.h5" rocprof-10 --rocprof "$tmp/x" --perfetto "$tmp/x.json"
check "export one format at a time" 2 "$rc"

# A rocprof-compute workload (real MI300X files): pmc_perf.csv's dispatches,
# the GPU from sysinfo.csv, backend rocprof-compute.
run import rocprof "$data/rocprof_compute_mi300x" --out "$tmp/w.h5"
check "workload exit" 0 "$rc"
contains "workload runs" "imported 3 dispatch(es) from 2 file(s)" "$out"
run runs show "$tmp/w.h5" rocprof-0
contains "workload provenance" "arch gfx942, device GPU 60633, backend rocprof-compute" "$out"
contains "workload duration" "median 16119 ns" "$out"
contains "workload CUs" "counter CU_NUM = 304" "$out"
contains "workload TCC_HIT from its _sum" "counter TCC_HIT = 66160" "$out"

# sim --like: a profiled gemm_bf16 dispatch of 2x2 workgroups (M=N=256),
# simulated at the shape given and compared without --force; a shape that
# launches another grid, a dispatch of no suite kernel, a shape that cannot
# be found: one line each, nothing stored.
head -1 "$data/kernel_trace.csv" > "$tmp/gemm_kernel_trace.csv"
echo '"KERNEL_DISPATCH","Agent 2",1,1,7,3,12,"gemm_bf16",3,1000,11000,65536,0,128,0,32,256,1,1,512,2,1' >> "$tmp/gemm_kernel_trace.csv"
run import rocprof "$tmp/gemm_kernel_trace.csv" --out "$tmp/like.h5" --arch gfx950
check "like import exit" 0 "$rc"
run sim --like rocprof-3 --out "$tmp/like.h5" --timing --quiet
check "like without a shape exit" 2 "$rc"
contains "like without a shape says what is missing" "does not say gemm_bf16's shape (profiles record no kernel arguments): its grid is 4 workgroups; give --shape M,N,K" "$err"
run sim --like rocprof-3 --out "$tmp/like.h5" --timing --quiet --shape 512,256,64
check "like, another grid exit" 2 "$rc"
contains "like, another grid" "error: M=512,N=256,K=64 (given) launches 8 workgroups; run 'rocprof-3' ran 4" "$err"
run sim --like rocprof-3 --out "$tmp/like.h5" --timing --quiet --shape 256,256,64
check "like exit" 0 "$rc"
contains "like says what it simulates" "like rocprof-3 (gemm_bf16, 4 workgroups): gemm_bf16 M=256,N=256,K=64, the shape from given" "$out"
run compare "$tmp/like.h5" rocprof-3 rocprof-3-timing
check "like compares without --force" 0 "$rc"
contains "like comparison" "median time: A 10000 ns" "$out"
run sim --like rocprof-0 --out "$tmp/w.h5" --timing
check "like of no suite kernel exit" 2 "$rc"
contains "like of no suite kernel" "('vecCopy'), which is no suite kernel" "$err"
check "like refused: nothing stored" "3" "$("$tilelab" runs list "$tmp/w.h5" | wc -l)"

# sim --like of a code object with its launch template: the shape solved from
# the dispatch's grid (x = N/TILE_N, y = M/TILE_M), K given (no grid axis
# reads it), the template's tile kept and said; refusals name what is missing
# or differs, and store nothing.
co="$code_objects/gfx950/gemm_bf16.hsaco"
template="$(dirname "$0")/../../kernels/gemm_bf16/gemm_bf16.launch.toml"
run sim --like rocprof-3 "$co" --launch "$template" --out "$tmp/like.h5" --timing --quiet
check "like a code object without K exit" 2 "$rc"
contains "like a code object without K" "error: run 'rocprof-3' does not say K (profiles record no kernel arguments; the grid does not tell it): give --shape K=..." "$err"
run sim --like rocprof-3 "$co" --launch "$template" --out "$tmp/like.h5" --timing --quiet --shape K=64,N=512
check "like a code object, another grid exit" 2 "$rc"
contains "like a code object, another grid" "launches a grid of 4x2x1; run 'rocprof-3' ran 2x2x1" "$err"
run sim --like rocprof-3 "$co" --launch "$template" --out "$tmp/like.h5" --timing --quiet --shape K=64 --run-id co
check "like a code object exit" 0 "$rc"
contains "like a code object says how it found the shape" "the shape from K given, N from the grid x = 2 (N/TILE_N), M from the grid y = 2 (M/TILE_M), the template's GROUP_M=0, TILE_M=128, TILE_N=128, WAVES_M=2, WAVES_N=2" "$out"
contains "like a code object runs it" "gemm_bf16 on gfx950 (cycle model), launch $template, GROUP_M=0,K=64,M=256,N=256,TILE_M=128" "$out"
run compare "$tmp/like.h5" rocprof-3 co
check "like a code object compares without --force" 0 "$rc"
run runs show "$tmp/like.h5" co
check "like a code object: the same cycles as the suite kernel" \
  "$("$tilelab" runs show "$tmp/like.h5" rocprof-3-timing | grep -o '[0-9]* cycles' | head -1)" "$(echo "$out" | grep -o '[0-9]* cycles' | head -1)"
# AMD's own MXFP4 GEMM (aiter assembly, tools/reference/published) profiled
# at one 256x256 tile: its name demangled, N and M solved from ceil(N/TILE_N)
# and ceil(M/TILE_M), where 1..256 all launch the grid: the largest is taken.
published="$(dirname "$0")/../../tools/reference/published"
head -1 "$data/kernel_trace.csv" > "$tmp/aiter_trace.csv"
echo '"KERNEL_DISPATCH","Agent 2",1,1,7,5,14,"aiter::f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256",5,2000,9000,0,0,256,256,80,256,1,1,256,1,1' >> "$tmp/aiter_trace.csv"
run import rocprof "$tmp/aiter_trace.csv" --out "$tmp/aiter.h5" --arch gfx950
run sim --like rocprof-5 "$published/f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256.co" \
  --launch "$published/f4gemm_bf16_per1x32Fp4_BpreShuffle.launch.toml" --out "$tmp/aiter.h5" --timing --quiet --shape K=512
check "like AMD's MXFP4 GEMM exit" 0 "$rc"
contains "like AMD's MXFP4 GEMM: the kernel" "like rocprof-5 (aiter::f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256, 1 workgroups): aiter::f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256 of" "$out"
contains "like AMD's MXFP4 GEMM: the shape" "K=512,M=256,N=256,TILE_M=256,TILE_N=256, the shape from K given, N from the grid x = 1 (ceil(N/TILE_N)), which 1..256 launch: the largest taken, M from the grid y = 1 (ceil(M/TILE_M)), which 1..256 launch: the largest taken, the template's TILE_M=256, TILE_N=256" "$out"
contains "like AMD's MXFP4 GEMM: 4 waves" "1 workgroups on 1 of 256 CUs, 4 waves" "$out"
run compare "$tmp/aiter.h5" rocprof-5 rocprof-5-timing
check "like AMD's MXFP4 GEMM compares" 0 "$rc"
run sim --like rocprof-3 "$tmp/w.h5" --launch "$template" --out "$tmp/like.h5" --timing --quiet
check "like: a store is no code object exit" 1 "$rc"
check "like: a store is no code object" "error: $tmp/w.h5: offset 0x0: not an ELF file" "$err"
run sim --like rocprof-0 "$co" --launch "$template" --out "$tmp/w.h5" --timing --quiet
check "like a code object of another kernel exit" 2 "$rc"
contains "like a code object of another kernel" "run 'rocprof-0' ran kernel 'vecCopy(double*, double*, double*, int, int) (.kd)'; $template launches gemm_bf16 of $co" "$err"

# Malformed: one line naming file and line, exit 2, the store untouched.
head -c 700 "$data/kernel_trace.csv" > "$tmp/cut_kernel_trace.csv"
run import rocprof "$tmp/cut_kernel_trace.csv" --out "$tmp/bad.h5"
check "truncated exit" 2 "$rc"
check "truncated message" "error: $tmp/cut_kernel_trace.csv:4: a quoted field is not closed before the end of the file" "$err"
check "truncated store untouched" "no" "$([ -e "$tmp/bad.h5" ] && echo yes || echo no)"
run import rocprof "$tmp/nothing" --out "$tmp/bad.h5"
check "missing exit" 2 "$rc"
run import perf "$data" --out "$tmp/bad.h5"
check "unknown importer exit" 2 "$rc"
run import rocprof "$data/kernel_trace.csv"
check "no --out exit" 2 "$rc"
finish import
