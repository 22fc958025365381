#!/usr/bin/env bash
# Drives `tilelab sim --functional` as a user does: outputs, errors, exit
# statuses, and that two runs with one seed store the same HDF5 contents.
# usage: emu_cli_test.sh TILELAB CODE_OBJECT_DIR HANDWRITTEN_CO
set -u
tilelab=$1
code_objects=$2
handwritten=$3
launch="$(dirname "$0")/../data/handwritten/scale_rows.launch.toml"
source "$(dirname "$0")/cli_checks.sh"

run sim gemm_bf16 --functional --shape 256,128,128 --seed 3 --out "$tmp/a.h5"
check "sim gemm exit" 0 "$rc"
contains "sim gemm header" "gemm_bf16 on gfx950, M=256,N=128,K=128, seed 3: 2 workgroups, 8 waves, " "$out"
contains "sim gemm pass" "): PASS" "$out"
contains "sim gemm site" "ds_read_b128 v[140:143], v107" "$out"
contains "sim gemm agrees" "  ds_read_b128            0.000 vs    0.000  agree" "$out"
run sim gemm_bf16 --functional --shape 256,128,128 --seed 3 --out "$tmp/b.h5"
check "sim same seed same store" "same" "$(/usr/bin/python3 "$(dirname "$0")/same_store.py" "$tmp/a.h5" "$tmp/b.h5")"
run runs list "$tmp/a.h5"
contains "sim run stored" "sim-gemm_bf16-gfx950" "$out"
check "no lock file left" "no" "$([ -e "$tmp/a.h5.lock" ] && echo yes || echo no)"
run sim gemm_bf16 --functional --shape 256,128,128 --seed 3 --out "$tmp/a.h5"
check "duplicate run id exit" 1 "$rc"
check "duplicate run id refused before the run" "" "$out"
contains "duplicate run id message" "error: '$tmp/a.h5' already has a run 'sim-gemm_bf16-gfx950'" "$err"
run sim rmsnorm_bf16 --functional --arch gfx942
check "sim rmsnorm exit" 0 "$rc"
contains "sim rmsnorm smallest shape" "rmsnorm_bf16 on gfx942, rows=7,hidden=8, seed 1" "$out"
# --arch FILE.toml is the description of every part of the run: the
# emulator's bank model too (a gfx950 file with 32 banks makes the MFMA
# operand reads 2-way), and the stored run records the file's SHA-256.
sed 's/^banks = 64 .*/banks = 32/' "$(dirname "$0")/../../sim/arch/gfx950.toml" > "$tmp/banks32.toml"
run sim gemm_bf16 --functional --shape 256,128,128 --seed 3 --arch "$tmp/banks32.toml" --out "$tmp/arch.h5"
check "sim arch file exit" 0 "$rc"
contains "sim arch file reaches the emulator" "ds_read_b128 v[140:143], v107                      16         64     2" "$out"
check "sim arch file hashes" "$(sha256sum "$tmp/banks32.toml" | cut -c1-64) $(sha256sum "$code_objects/gfx950/gemm_bf16.hsaco" | cut -c1-64)" \
  "$(/usr/bin/python3 - "$tmp/arch.h5" <<'PY'
import sys, h5py
a = h5py.File(sys.argv[1], "r")["runs/sim-gemm_bf16-gfx950"].attrs
text = lambda v: v.decode() if isinstance(v, bytes) else v
print(text(a["arch_file_sha256"]), text(a["code_object_sha256"]))
PY
)"
run --version
version=$(sed -n 's/^project(tilelab VERSION \([0-9.]*\).*/\1/p' "$(dirname "$0")/../../CMakeLists.txt")
check "version" "yes" "$([[ ${out%%$'\n'*} =~ ^tilelab\ $version\ \(git\ ([0-9a-f]{12}|unknown)\)$ ]] && echo yes || echo "no: $out")"
check "version names the kernels folder" "kernels: $(cd "$(dirname "$tilelab")/../kernels" && pwd -P)" "${out#*$'\n'}"
run sim gemm_bf16 --shape 128,128,64
check "sim needs --functional" 2 "$rc"
contains "sim needs --functional message" "say --functional or --timing (or both)" "$err"
run sim gemm_bf16 --functional --shape 100,128,64
check "sim bad shape exit" 2 "$rc"
contains "sim bad shape message" "error: gemm_bf16 refuses this shape: gemm_bf16 needs M % 128 == 0" "$err"
run sim attention_fwd_d64 --functional --shape 1,128,1 --json
check "sim json exit" 0 "$rc"
check "sim json parses and agrees" "True True 4 0" "$(printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["pass"], all(k["agree"] for k in d["lds_vs_design"]), len(d["lds_vs_design"]), d["lds_races"]["count"])')"
run sim gemm_f16 --functional
check "sim unknown kernel exit" 2 "$rc"
contains "sim unknown kernel message" "no kernel named 'gemm_f16'" "$err"
run sim lds_read_b128 --functional --shape 10 --seed 2 --arch gfx942
check "sim microbenchmark exit" 0 "$rc"
contains "sim microbenchmark site" "ds_read_b128 v[10:13], v1        10        560     8" "$out"
contains "sim microbenchmark no design" "(a microbenchmark: its accesses are chosen at launch, no designed accesses to compare)" "$out"
run sim gemm_bf16 --functional --shape 128,128,64 --code-objects "$tmp/none"
check "sim missing code object exit" 1 "$rc"
contains "sim missing code object message" "error: " "$err"

# --timing: the cycle model.
run sim gemm_bf16 --timing --functional --shape 256,128,128 --seed 3 --out "$tmp/t.h5" --run-id t1
check "timing gemm exit" 0 "$rc"
contains "timing header" "gemm_bf16 on gfx950 (cycle model), M=256,N=128,K=128, seed 3: 2 workgroups on 2 of 256 CUs, 8 waves, " "$out"
contains "timing limiter" "  limiter: " "$out"
contains "timing hot table" "  hottest instructions (the thread trace's per-pc columns, summed over waves):" "$out"
contains "timing hot table columns" "hits  latency  stall  idle  waits most on" "$out"
contains "timing counters" "SQ_INSTS_MFMA=" "$out"
contains "timing hazards" "hazards: none" "$out"
contains "timing assumptions" "timing.branch_taken_cycles (not public" "$out"
contains "timing reference" "reference check: max relative error 0 (tolerance 0.0156): PASS" "$out"
run sim gemm_bf16 --timing --functional --shape 256,128,128 --seed 3 --out "$tmp/t2.h5" --run-id t1
check "timing same seed same store" "same" "$(/usr/bin/python3 "$(dirname "$0")/same_store.py" "$tmp/t.h5" "$tmp/t2.h5")"
check "timing store has waves and events" "8 True cycle-model" "$(/usr/bin/python3 - "$tmp/t.h5" <<'PY'
import sys, h5py
run = h5py.File(sys.argv[1], "r")["runs/t1"]
backend = run.attrs["backend"]
print(len(run["waves"]), len(run["events"]) > 1000, backend.decode() if isinstance(backend, bytes) else backend)
PY
)"
run export "$tmp/t.h5" t1 --perfetto "$tmp/t.json"
check "timing perfetto exit" 0 "$rc"
check "timing perfetto slices nest" "ok" "$(/usr/bin/python3 - "$tmp/t.json" <<'PY'
import json, sys, collections
ev = json.load(open(sys.argv[1]))["traceEvents"]
tracks = collections.defaultdict(list)
for e in ev:
    if e["ph"] == "X":
        tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
bad = sum(1 for s in tracks.values() for a, b in zip(sorted(s), sorted(s)[1:]) if a[1] > b[0])
begins = sum(e["ph"] == "b" for e in ev)
ends = sum(e["ph"] == "e" for e in ev)
print("ok" if bad == 0 and begins == ends > 0 and len(tracks) == 8 else f"bad {bad} b {begins} e {ends} tracks {len(tracks)}")
PY
)"
run sim gemm_bf16 --timing --shape 256,128,128 --listing --quiet
check "timing listing exit" 0 "$rc"
contains "timing listing header" "    pc      class       loop  hits  latency  stall  idle  waits most on" "$out"
check "timing listing waits on the barrier" "yes" "$(printf '%s\n' "$out" | grep -E '^ +0x[0-9a-f]+ +BARRIER .* barrier +s_barrier( +kernels/.*)?$' >/dev/null && echo yes || echo no)"
# The source column, from the code object's line table: the barrier is
# tl::barrier's __builtin_amdgcn_s_barrier (inlined: its own line).
barrier_line=$(grep -n '__builtin_amdgcn_s_barrier()' "$(dirname "$0")/../../kernels/common/tilelab_hip.hpp" | cut -d: -f1)
contains "timing listing: the barrier's source line" "s_barrier                                                              kernels/common/tilelab_hip.hpp:$barrier_line" "$out"
contains "timing listing: source lines of the GEMM tile" "kernels/gemm_bf16/gemm_tile.hpp:" "$out"
listing=$out
run disasm "$code_objects/gfx950/gemm_bf16.hsaco" --source --no-colour
contains "disasm --source" "        ; kernels/common/tilelab_hip.hpp:$barrier_line
    $(printf '%s\n' "$listing" | grep -E 'BARRIER .* s_barrier' | head -1 | sed -E 's/^ +0x([0-9a-f]+).*/\1/')  BARRIER" "$out"
# The stored run keeps each executed instruction's source line (pc_sources):
# runs show --listing prints them as sim --listing does.
run sim gemm_bf16 --timing --shape 256,128,128 --quiet --out "$tmp/listing.h5"
run runs show "$tmp/listing.h5" timing-gemm_bf16-gfx950 --listing
contains "a stored run's listing: the source column" "waits most on    source" "$out"
contains "a stored run's listing: the barrier's source line" "kernels/common/tilelab_hip.hpp:$barrier_line" "$out"
# compare --by pc --in-order: the two listings side by side, with the source
# line where it changes (from either run's pc_sources).
run sim gemm_bf16 --timing --shape 256,128,128 --cus 1 --quiet --out "$tmp/listing.h5" --run-id one-cu
run compare "$tmp/listing.h5" timing-gemm_bf16-gfx950 one-cu --by pc --in-order
check "compare --in-order exit" 0 "$rc"
contains "compare --in-order: the source column" "idle A  idle B  source" "$out"
check "compare --in-order: the barrier's source line" "yes" "$(printf '%s\n' "$out" | grep -E "s_barrier .* kernels/common/tilelab_hip.hpp:$barrier_line\$" >/dev/null && echo yes || echo no)"
run compare "$tmp/listing.h5" timing-gemm_bf16-gfx950 one-cu --by pc --json
check "compare --json: a pc's source" "yes" "$(printf '%s\n' "$out" | python3 -c 'import json,sys; j=json.load(sys.stdin); print("yes" if any((p.get("source") or "").startswith("kernels/") for p in j["pc_stats"]) else "no")')"
out=$listing
check "timing listing has every instruction" "yes" "$(
  listed=$(printf '%s\n' "$out" | sed -n '/listing (program order/,$p' | grep -c '^    0x')
  total=$("$tilelab" disasm "$code_objects/gfx950/gemm_bf16.hsaco" --kernel gemm_bf16 --no-colour | grep -c '^ *[0-9a-f]\{4,\}  ')
  [ "$listed" -eq "$total" ] && [ "$total" -gt 100 ] && echo yes || echo "no: $listed listed, $total in the kernel")"
run sim gemm_bf16 --timing --shape 256,128,128 --json
check "timing json" "True True" "$(printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["cycles"] > 0 and d["reference"]["pass"], d["static_bound"]["cycles_per_workgroup"] <= d["cycles"])')"
# A pass of two kernels (attention backward): the timing is the main kernel's,
# and its hottest instructions are that kernel's, pc and text as disasm lists them.
"$tilelab" disasm "$code_objects/gfx950/attention_bwd.hsaco" --kernel attention_bwd_d64 > "$tmp/bwd.lst"
run sim attention_bwd_d64 --functional --shape 1,100,1
contains "sim no LDS races" "LDS races: none (no LDS halfword touched by two waves between the same barriers with a write)" "$out"
contains "sim pass note" "  the pass ran attention_bwd_prep_d64 first; these figures are attention_bwd_d64's alone" "$out"
run sim attention_bwd_d64 --timing --shape 1,100,1 --json
check "timing pass hottest from the main kernel" "True 10 ['attention_bwd_prep_d64']" "$(printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys, re
listing = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s+([0-9a-f]+)\s+\S+\s+[| ]*(?:[ML] )?\s*(\S.*)$", line)
    if m: listing[int(m.group(1), 16)] = m.group(2).strip()
d = json.load(sys.stdin)
rows = d["hottest"]
print(d["reference"]["pass"], sum(listing.get(int(r["pc"], 16)) == r["text"] for r in rows), d["ran_before"])' "$tmp/bwd.lst")"
sed '/^\[timing\]/,$d' "$(dirname "$0")/../../sim/arch/gfx950.toml" > "$tmp/notiming.toml"
run sim gemm_bf16 --timing --shape 128,128,64 --arch "$tmp/notiming.toml"
check "timing without figures exit" 1 "$rc"
contains "timing without figures message" "notiming.toml has no [timing] part: the cycle model needs its figures" "$err"
check "timing without figures one line" 1 "$(printf '%s\n' "$err" | wc -l)"
run sim gemm_bf16 --timing --shape 100,128,64
check "timing bad shape exit" 2 "$rc"
run sim gemm_bf16 --timing --cus -1
check "timing bad cus exit" 2 "$rc"
run sim gemm_bf16 --timing --summary
check "timing summary with a kernel exit" 2 "$rc"
contains "timing summary with a kernel message" "--summary goes with --timing alone" "$err"
# The roofline: a well-formed SVG with the MFMA peak of gemm_bf16's MFMA mix
# (16x16x32 bf16: 4096 FLOP/clk per CU x 256 CUs x 1590 MHz = 1667 TFLOP/s),
# the three bandwidth ceilings and one point per level; a kernel without
# MFMA work has no roofline (exit 1, no file).
run sim gemm_bf16 --timing --shape 512,512,512 --quiet --plot "$tmp/roof.svg"
check "roofline exit" 0 "$rc"
check "roofline svg" "ok 1667 3 3" "$(/usr/bin/python3 - "$tmp/roof.svg" <<'PY'
import re, sys, xml.dom.minidom
text = open(sys.argv[1]).read()
xml.dom.minidom.parseString(text)
peak = re.search(r"MFMA peak (\d+) TFLOP/s", text).group(1)
print("ok", peak, len(re.findall(r"<polyline", text)), len(re.findall(r"<circle", text)))
PY
)"
# Without --quiet a run says what it wrote, on stderr (stdout keeps the JSON).
run sim gemm_bf16 --timing --shape 256,256,64 --json --plot "$tmp/roof2.svg" --out "$tmp/said.h5"
check "writes confirmed exit" 0 "$rc"
contains "writes confirmed: the run" "wrote run 'timing-gemm_bf16-gfx950' to $tmp/said.h5" "$err"
contains "writes confirmed: the roofline" "wrote the roofline to $tmp/roof2.svg" "$err"
check "writes confirmed: stdout is still JSON" ok "$(printf '%s' "$out" | /usr/bin/python3 -c 'import json,sys; json.load(sys.stdin); print("ok")')"
run sim rmsnorm_bf16 --timing --shape 16,1024 --quiet --plot "$tmp/none.svg"
check "roofline without MFMA exit" 1 "$rc"
contains "roofline without MFMA message" "--plot $tmp/none.svg: the run did no MFMA work: a roofline needs its FLOPs" "$err"
check "roofline without MFMA no file" "absent" "$(test -e "$tmp/none.svg" || echo absent)"

# A run has a budget: one byte of gemm_bf16 changed (offset 4228 set to 0x1d:
# the low byte of the K loop's back-edge s_cbranch_vccnz, which then lands 22 words earlier)
# turns a branch into an endless loop; both modes stop with one line, exit 1,
# and store nothing.
mkdir -p "$tmp/mut/gfx950"
cp "$code_objects/gfx950/gemm_bf16.hsaco" "$tmp/mut/gfx950/"
printf '\x1d' | dd of="$tmp/mut/gfx950/gemm_bf16.hsaco" bs=1 seek=4228 conv=notrunc 2>/dev/null
for mode in --functional --timing; do
  run sim gemm_bf16 $mode --shape 128,128,64 --code-objects "$tmp/mut" --max-wave-instructions 50000 --out "$tmp/spin.h5"
  check "endless loop exit ($mode)" 1 "$rc"
  contains "endless loop message ($mode)" "executed 50000 instructions without ending, spinning here (an endless loop?); --max-wave-instructions raises the budget" "$err"
  contains "endless loop names the wave ($mode)" "error: gemm_bf16 pc 0x" "$err"
  check "endless loop one line ($mode)" 1 "$(printf '%s\n' "$err" | wc -l)"
  check "endless loop stores nothing ($mode)" "no" "$([ -e "$tmp/spin.h5" ] && echo yes || echo no)"
done
# A code object tilelab did not build, run from a launch file.
run sim "$handwritten" --launch "$launch" --functional --save "$tmp/saved"
check "code object functional exit" 0 "$rc"
contains "code object header" "scale_rows ($handwritten) on gfx950, launch $launch: 16 workgroups, 16 waves, 240 wave-instructions" "$out"
check "code object output saved" "1000 True" "$(/usr/bin/python3 -c '
import sys, numpy as np
a = np.fromfile(sys.argv[1] + "/in.bin", dtype=np.uint32); b = np.fromfile(sys.argv[1] + "/out.bin", dtype=np.uint32)
print(len(a), bool((b == (2 * a.astype(np.uint64)) % 2**32).all()) and bool(a.any()))' "$tmp/saved")"
run sim "$handwritten" --launch "$launch" --timing --json --out "$tmp/co.h5"
check "code object timing exit" 0 "$rc"
check "code object timing json" "True None 16" "$(printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["cycles"] > 0, d["reference"], d["workgroups"])')"
run runs list "$tmp/co.h5"
contains "code object run stored" "timing-scale_rows-gfx950" "$out"
# Assembly as input: the same kernel from its source text, assembled and
# linked on reading; a malformed line is reported at its line and nothing runs.
source_s="$(dirname "$0")/../data/handwritten/scale_rows.s"
run sim "$source_s" --launch "$launch" --functional --save "$tmp/from_s"
check "assembly functional exit" 0 "$rc"
contains "assembly header" "scale_rows ($source_s) on gfx950, launch $launch: 16 workgroups, 16 waves, 240 wave-instructions" "$out"
check "assembly run gives the code object's output" "same" "$(cmp -s "$tmp/saved/out.bin" "$tmp/from_s/out.bin" && echo same)"
sed 's/v_add_u32_e32 v3, v3, v3/v_add_u32_e32 v3, v3, s999/' "$source_s" > "$tmp/bad.s"
bad_line=$(grep -n 's999' "$tmp/bad.s" | cut -d: -f1)
run sim "$tmp/bad.s" --launch "$launch" --functional --out "$tmp/bad.h5" --save "$tmp/bad_saved"
check "malformed assembly exit" 1 "$rc"
check "malformed assembly message" "error: $tmp/bad.s:$bad_line:31: register index is out of range" "$err"
check "malformed assembly runs nothing" "" "$out"
check "malformed assembly writes nothing" "no" "$([ -e "$tmp/bad.h5" ] || [ -e "$tmp/bad_saved" ] && echo yes || echo no)"
run disasm "$tmp/bad.s"
check "malformed assembly disasm exit" 1 "$rc"
contains "malformed assembly disasm message" "bad.s:$bad_line:31: register index is out of range" "$err"
# A launch template: the same launch with every size an expression of the
# shape, the file's [shape] default replaced by --shape; same output bytes.
sed -e 's/^grid = \[16, 1, 1\]/grid = ["ceil(n\/64)", 1, 1]/' -e 's/bytes = 4000/bytes = "4*n"/g' \
    -e 's/^value = 1000/value = "n"/' -e 's/^seed = 5/seed = 5\n[shape]\nn = 7/' "$launch" > "$tmp/template.toml"
run sim "$handwritten" --launch "$tmp/template.toml" --shape n=1000 --functional --save "$tmp/from_template"
check "template exit" 0 "$rc"
contains "template header" "launch $tmp/template.toml, n=1000: 16 workgroups, 16 waves, 240 wave-instructions" "$out"
check "template gives the literal file's output" "same" "$(cmp -s "$tmp/saved/out.bin" "$tmp/from_template/out.bin" && echo same)"
run sim "$handwritten" --launch "$tmp/template.toml" --functional
contains "template default shape" "n=7: 1 workgroups, 1 waves" "$out"
run sim "$handwritten" --launch "$tmp/template.toml" --shape n=1000.5 --functional
check "template bad shape exit" 2 "$rc"
contains "template bad shape message" "--shape: 'n=1000.5' is not NAME=INTEGER" "$err"
run sim "$handwritten" --launch "$tmp/template.toml" --shape m=1000 --functional
contains "template other name keeps the default" "m=1000,n=7" "$out"
sed 's/"4\*n"/"4*(n"/' "$tmp/template.toml" > "$tmp/template_bad.toml"
run sim "$handwritten" --launch "$tmp/template_bad.toml" --functional
check "template bad expression exit" 2 "$rc"
contains "template bad expression message" "template_bad.toml:11: bytes '4*(n': column 5: expected ')', found the end" "$err"
# A sweep: two candidates (the code object and its source text) x three
# problems of the template, one of which the template refuses (grid 0).
cat > "$tmp/sweep.toml" <<EOS
name = "rows"
[[candidate]]
name = "co"
code_object = "$handwritten"
launch = "template.toml"
[[candidate]]
name = "asm"
code_object = "$source_s"
launch = "template.toml"
[[problem]]
n = 1000
[[problem]]
n = 64
[[problem]]
n = 0
EOS
run sweep "$tmp/sweep.toml" --out "$tmp/sweep.h5"
check "sweep exit" 0 "$rc"
contains "sweep header" "sweep rows: 2 candidates x 3 problems (cycle model, sampled)" "$out"
contains "sweep winner (ties keep the first)" "  n=1000   co" "$out"
contains "sweep equal candidates" "asm 1.00" "$out"
contains "sweep wins" "wins: co 2 asm 0; 2 invalid point(s)" "$out"
contains "sweep invalid reason" "invalid: co at n=0: $tmp/template.toml:4: grid values must be integers from 1 to 2^31-1 (this one is 0)" "$out"
contains "sweep progress" "[6/6] asm n=0: invalid: " "$err"
run runs list "$tmp/sweep.h5"
check "sweep stores every point, the invalid ones too" 6 "$(printf '%s\n' "$out" | grep -c '^sweep-rows-')"
contains "sweep run id (readable part, then the hash of the parts)" "sweep-rows-asm-n64-176c46dcdff6" "$out"
run sweep "$tmp/sweep.toml" --out "$tmp/sweep.h5"
check "sweep resumed exit" 0 "$rc"
check "sweep resumed reads the stored points" 4 "$(printf '%s\n' "$err" | grep -c ', stored (')"
check "sweep resumed reads the stored invalid points" 2 "$(printf '%s\n' "$err" | grep -c 'is 0) (stored) (')"
# The sweep as a tuning database, and one query against it.
run tune export "$tmp/sweep.h5" --out "$tmp/tuning.db"
check "tune export exit" 0 "$rc"
check "tune export message" "wrote $tmp/tuning.db: 4 candidate points" "$out"
check "tune database rows" "4 2 co,co 64" "$(/usr/bin/python3 -c '
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
c = d.execute("select count(*) from candidates").fetchone()[0]
w = d.execute("select shape, candidate from winners order by shape").fetchall()
sha = {len(r[0]) for r in d.execute("select code_object_sha256 from candidates")}
print(c, len(w), ",".join(x[1] for x in w), *sha)' "$tmp/tuning.db" 2>&1)"
run tune lookup "$tmp/tuning.db" --family rows --shape n=64
contains "tune lookup exact" "rows at n=64: co {}, " "$out"
contains "tune lookup exact says so" "predicted (this shape)" "$out"
run tune lookup "$tmp/tuning.db" --family rows --shape n=700
contains "tune lookup nearest" "rows at n=1000: co {}" "$out"
contains "tune lookup nearest says so" "(the nearest shape stored)" "$out"
run tune lookup "$tmp/tuning.db" --family nope --shape n=64
check "tune lookup unknown family exit" 1 "$rc"
check "tune lookup unknown family message" "error: no entry for family 'nope' on gfx950 in $tmp/tuning.db" "$err"
run tune export "$tmp/a.h5" --out "$tmp/none.db"
check "tune export without sweep points" 1 "$rc"
check "tune export writes nothing then" "no" "$([ -e "$tmp/none.db" ] && echo yes || echo no)"
printf 'name = "x"\n[[candidate]]\nname = "a"\ncode_object = "x.co"\nlaunch = "l.toml"\nshape = 3\n[[problem]]\nn = 1\n' > "$tmp/bad_sweep.toml"
run sweep "$tmp/bad_sweep.toml"
check "sweep bad file exit" 2 "$rc"
contains "sweep bad file message" "bad_sweep.toml:6: candidate shape must be { NAME = integer, ... }" "$err"
run sim "$handwritten" --functional
check "code object needs a launch file" 2 "$rc"
contains "code object needs a launch file message" "a code object needs --launch L.toml" "$err"
# launch_refused NAME EXIT MESSAGE FILTER...: the launch file made by FILTER
# (a command over the good one) is refused with EXIT and one error line.
launch_refused() {
  local name=$1 want_rc=$2 message=$3
  shift 3
  "$@" < "$launch" > "$tmp/$name.toml"
  run sim "$handwritten" --launch "$tmp/$name.toml" --functional
  check "launch $name exit" "$want_rc" "$rc"
  contains "launch $name message" "$message" "$err"
  check "launch $name one error line" 1 "$(printf '%s\n' "$err" | grep -c '^error: ')"
}
launch_refused bad_name 2 "bad_name.toml:16: kernel scale_rows has no argument 'count' (it has: out, pad, in, n)" \
  sed 's/^\[args.n\]/[args.count]/'
launch_refused bad_pad 2 "kernel scale_rows has 4 arguments named 'pad': name them by offset" \
  sed 's/^\[args."@36"\]/[args.pad]/'
launch_refused small_out 1 "scale_rows pc 0x1644 (global_store_dword v2, v3, s[4:5]): global store of 4 bytes at 0x" \
  sed 's/bytes = 4000, fill = "zeros"/bytes = 400, fill = "zeros"/'
launch_refused missing 2 "missing.toml: argument 'n' (@32) of scale_rows is not given (only padding named 'pad' may be left out)" \
  sh -c "grep -v '^value = 1000' | sed 's/^\[args.n\]//'"
launch_refused grid0 2 "grid0.toml:4: grid values must be integers from 1 to 2^31-1" \
  sed 's/^grid = \[16, 1, 1\]/grid = [0, 1, 1]/'
launch_refused pointer_value 2 "pointer_value.toml:9: argument 'in' is a buffer: give buffer = { ... } (or value = 0, a null pointer)" \
  sh -c "sed 's/^buffer = { bytes = 4000, fill = \"random\", dtype = \"u32\" }/value = 5/' | grep -v '^save = true'"
# Issue 24 (16, 11): an offset beyond 32 bits is not offset 0; a fill file that
# is a folder or a FIFO is refused (it read as zeros, or blocked forever).
launch_refused offset_wide 2 "offset_wide.toml:19: '@4294967332': the offset is beyond 32 bits" \
  sed 's/^\[args."@36"\]/[args."@4294967332"]/'
launch_refused offset_text 2 "'@36x': an offset is written @N" \
  sed 's/^\[args."@36"\]/[args."@36x"]/'
mkdir -p "$tmp/a_folder"
launch_refused fill_folder 2 "is not a regular file" \
  sed "s|^buffer = { bytes = 4000, fill = \"random\", dtype = \"u32\" }|buffer = { bytes = 4000, fill = \"file\", path = \"$tmp/a_folder\" }|"
mkfifo "$tmp/a_fifo"
launch_refused fill_fifo 2 "a_fifo' is not a regular file" \
  sed "s|^buffer = { bytes = 4000, fill = \"random\", dtype = \"u32\" }|buffer = { bytes = 4000, fill = \"file\", path = \"$tmp/a_fifo\" }|"
# Issue 24 (11): a FIFO where a file is expected is refused, not read (it
# blocked forever): a code object, a launch file, an arch file.
mkfifo "$tmp/pipe.co" "$tmp/pipe.toml"
run sim "$tmp/pipe.co" --launch "$launch" --functional
check "fifo code object exit" 1 "$rc"
contains "fifo code object message" "pipe.co: not a regular file" "$err"
run sim "$handwritten" --launch "$tmp/pipe.toml" --functional
check "fifo launch file exit" 2 "$rc"
contains "fifo launch file message" "launch file '$tmp/pipe.toml' is not a regular file" "$err"
run sim "$handwritten" --launch "$launch" --functional --arch "$tmp/pipe.toml"
contains "fifo arch file message" "architecture file '$tmp/pipe.toml' is not a regular file" "$err"
# Issue 24 (8): a launch file's buffers have a total budget, checked before
# any is allocated (scale_rows' two buffers take 8000 bytes).
run sim "$handwritten" --launch "$launch" --functional --max-memory 7999
check "memory budget exit" 2 "$rc"
contains "memory budget message" "the buffers take 8000 bytes, more than the memory budget of 7999 (--max-memory)" "$err"
run sim "$handwritten" --launch "$launch" --functional --max-memory 8000
check "memory budget met exit" 0 "$rc"
# Issue 24 (7): a launch has a total budget.  2^31 - 1 workgroups of scale_rows
# are refused before they start (they ran without end); a budget smaller than
# the run stops it with one line.
sed 's/^grid = \[16, 1, 1\]/grid = [2147483647, 1, 1]/' < "$launch" > "$tmp/huge_grid.toml"
run sim "$handwritten" --launch "$tmp/huge_grid.toml" --functional
check "huge grid exit" 1 "$rc"
contains "huge grid message" "scale_rows: the grid's 2147483647 waves run at least" "$err"
contains "huge grid budget" "more than the launch budget of 4294967296 wave-instructions (--max-launch-instructions)" "$err"
run sim "$handwritten" --launch "$launch" --functional --max-launch-instructions 200
check "launch budget exit" 1 "$rc"
contains "launch budget message" "the launch executed more than 200 wave-instructions; --max-launch-instructions raises the budget" "$err"
# A launch file is TOML text checked as the arch files are before toml++
# reads it: a non-ASCII blank after a value (U+03E4) reached undefined
# behaviour inside toml++ 3.3 (found by fuzz_launch_file).
printf 'grid = [16, 1, 1] \xcf\xa4\n' > "$tmp/u03e4.toml"
run sim "$handwritten" --launch "$tmp/u03e4.toml" --functional
check "non-ASCII launch exit" 2 "$rc"
contains "non-ASCII launch message" "$tmp/u03e4.toml:1: non-ASCII character outside a string or comment" "$err"
# ... and in simulated cycles, for a timed run (a wave that sleeps in a loop
# would otherwise run for days within the instruction budgets).
run sim "$handwritten" --launch "$launch" --timing --max-cycles 300
check "cycle budget exit" 1 "$rc"
contains "cycle budget message" "the launch is still running after 300 simulated cycles (--max-cycles raises the bound)" "$err"
run sim "$handwritten" --launch "$launch" --timing --max-cycles 1000000
check "cycle budget met exit" 0 "$rc"
# value = 0 is a null pointer: accepted, and the kernel's first load through it is the error.
launch_refused null_in 1 "global load of 4 bytes at 0x0 (lane 0) is outside every buffer" \
  sh -c "sed 's/^buffer = { bytes = 4000, fill = \"random\", dtype = \"u32\" }/value = 0/' | sed '10d'"
# A file's path is relative to the launch file, wherever tilelab runs from.
mkdir -p "$tmp/inputs"
/usr/bin/python3 -c 'import sys, struct; open(sys.argv[1], "wb").write(struct.pack("<1000I", *range(7, 1007)))' "$tmp/inputs/in.u32"
sed 's|^buffer = { bytes = 4000, fill = "random", dtype = "u32" }|buffer = { bytes = 4000, fill = "file", path = "inputs/in.u32" }|' \
  < "$launch" > "$tmp/from_file.toml"
handwritten_abs=$(cd "$(dirname "$handwritten")" && pwd)/$(basename "$handwritten")
out=$(cd / && "$tilelab" sim "$handwritten_abs" --launch "$tmp/from_file.toml" --functional --save "$tmp/from_file" 2>&1); rc=$?
check "launch file path beside the launch file exit" 0 "$rc"
check "launch file path beside the launch file output" "14 2012" "$(/usr/bin/python3 -c '
import sys, struct
b = struct.unpack("<1000I", open(sys.argv[1] + "/out.bin", "rb").read())
print(b[0], b[-1])' "$tmp/from_file")"
# Opcode coverage: what stands between a set of code objects and a run.
run disasm --coverage "$code_objects"/gfx950/*.hsaco "$handwritten"
check "coverage exit" 0 "$rc"
contains "coverage of the suite" "opcodes the emulator cannot run (0 instructions, 0.0%)" "$out"
nkernels=$(echo "$out" | grep -c ': can run$')
contains "every suite kernel can run" "$nkernels of $nkernels kernels can run (100%):" "$out"
contains "a kernel's verdict" "  scale_rows ($handwritten): can run" "$out"
finish "emulator CLI"
