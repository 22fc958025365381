#!/usr/bin/env bash
# Drives `tilelab runs|compare|export` on a store with two synthetic runs.
# usage: traces_cli_test.sh TILELAB MAKE_FIXTURE
set -u
tilelab=$1
source "$(dirname "$0")/cli_checks.sh"
make_fixture=$2

"$make_fixture" "$tmp/t.h5" || { echo "FAIL: fixture"; exit 1; }
sum_before=$(sha256sum "$tmp/t.h5")

run runs list "$tmp/t.h5"
check "runs list" "sim-0  sim  gemm_bf16  gfx950/simulator  2026-12-02T00:00:00Z  median 1000 ns, correct
hw-0  hw  gemm_bf16  gfx950/AMD Instinct MI355X  2026-12-02T00:00:00Z  median 1500 ns, correct" "$out"
run runs show "$tmp/t.h5" hw-0
contains "runs show provenance" "arch gfx950, device AMD Instinct MI355X, backend hip" "$out"
contains "runs show sizes" "5 repetitions, 8 waves, 800 events, 1 LDS sites, 3 counters" "$out"
contains "runs show counter" "counter GRBM_GUI_ACTIVE = 12345" "$out"
run runs list "$tmp/t.h5" --json
check "runs list --json" "sim-0 sim 1000.0 True|hw-0 hw 1500.0 True" "$(echo "$out" | /usr/bin/python3 -c '
import json, sys
print("|".join("%s %s %s %s" % (r["id"], r["kind"], r["summary"]["median_ns"], r["summary"]["correct"]) for r in json.load(sys.stdin)))')"
run runs show "$tmp/t.h5" hw-0 --json
check "runs show --json" "AMD Instinct MI355X 12345.0 1 5" "$(echo "$out" | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r["device"], r["counters"]["GRBM_GUI_ACTIVE"], len(r["lds"]), r["sizes"]["repetitions"])')"
run runs show "$tmp/t.h5" nope
check "runs show missing exit" 1 "$rc"
check "runs show missing" "error: no run 'nope' in '$tmp/t.h5' (runs: sim-0, hw-0)" "$err"
run runs list "$tmp/missing.h5"
check "missing file" "error: no such file '$tmp/missing.h5'" "$err"
echo "hello" > "$tmp/text.h5"
run runs list "$tmp/text.h5"
check "not hdf5" "error: '$tmp/text.h5' is not a readable HDF5 file" "$err"
head -c $(( $(stat -c %s "$tmp/t.h5") / 2 )) "$tmp/t.h5" > "$tmp/cut.h5"
run runs list "$tmp/cut.h5"
check "truncated exit" 1 "$rc"
check "truncated one line" 1 "$(echo "$err" | wc -l | tr -d ' ')"

# One run's file missing, another's damaged: every readable run is listed, each
# unreadable one gets its line, and the exit status says so.
"$make_fixture" "$tmp/m.h5" || { echo "FAIL: fixture"; exit 1; }
mv "$tmp/m.h5" "$tmp/renamed.h5"  # a renamed store keeps its runs
"$make_fixture" "$tmp/m.h5" || { echo "FAIL: fixture"; exit 1; }
run runs list "$tmp/renamed.h5"
check "renamed store lists" 0 "$rc"
check "renamed store runs" 2 "$(echo "$out" | grep -c 'median')"
rm "$tmp/m.h5.runs/sim-0.h5"
head -c 600 "$tmp/m.h5.runs/hw-0.h5" > "$tmp/cut-run.h5" && cp "$tmp/cut-run.h5" "$tmp/m.h5.runs/hw-0-2.h5"
run runs list "$tmp/renamed.h5"
check "unreadable run exit" 1 "$rc"
contains "missing run named" "sim-0  unreadable: run 'sim-0' of '$tmp/renamed.h5' is stored in '$tmp/m.h5.runs/sim-0.h5', which is missing" "$out"
contains "good run still listed" "hw-0  hw  gemm_bf16" "$out"
check "unreadable count" "error: 1 run(s) of '$tmp/renamed.h5' could not be read" "$err"
run runs list "$tmp/renamed.h5" --json
check "unreadable run exit (json)" 1 "$rc"
check "unreadable run in the JSON" "sim-0 True|hw-0 False" "$(echo "$out" | /usr/bin/python3 -c '
import json, sys
print("|".join("%s %s" % (r["id"], "error" in r) for r in json.load(sys.stdin)))')"
run runs list "$tmp/m.h5"
check "damaged run exit" 1 "$rc"
check "both runs have a line" 2 "$(echo "$out" | wc -l | tr -d ' ')"
contains "damaged run named" "hw-0  unreadable: " "$out"

run compare "$tmp/t.h5" sim-0 hw-0
contains "compare ratio" "median time: A 1000 ns, B 1500 ns, B/A 1.500" "$out"
contains "compare VALU" "VALU       200      200       800      1600  2.00      144      144  1.00" "$out"
contains "compare counter" "SQ_LDS_BANK_CONFLICT  12  0  0.00" "$out"
contains "compare lds" "LDS conflict cycles: A 12, B 0" "$out"
run compare "$tmp/t.h5" sim-0 hw-0 --json --by wave
contains "compare json" '"time_ratio":1.5' "$out"
echo "$out" | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["rows"])==8' || { echo "FAIL: compare json parse"; failures=$((failures+1)); }
run compare "$tmp/t.h5" sim-0 hw-0 --by opcode
check "compare bad by" 2 "$rc"

run export "$tmp/t.h5" sim-0 --perfetto "$tmp/trace.json"
check "export exit" 0 "$rc"
contains "export message" "slices for 800 events" "$out"
/usr/bin/python3 - "$tmp/trace.json" <<'PY' || { echo "FAIL: perfetto json"; failures=$((failures+1)); }
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
threads = {e["tid"] for e in ev if e.get("ph") == "M" and e["name"] == "thread_name"}
slices = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "instruction"]
assert threads == set(range(8)), threads
assert len(slices) == 800, len(slices)
assert all(e["dur"] >= 0 for e in slices)
PY
run export "$tmp/t.h5" sim-0 --perfetto "$tmp/trace.pftrace"
check "export protobuf exit" 0 "$rc"
contains "export protobuf message" "wrote $tmp/trace.pftrace: " "$out"
check "export protobuf is smaller" "yes" "$([ "$(stat -c %s "$tmp/trace.pftrace")" -lt "$(stat -c %s "$tmp/trace.json")" ] && echo yes)"
run export "$tmp/t.h5" sim-0 --perfetto "$tmp/trace.txt"
check "export unknown format exit" 2 "$rc"
contains "export unknown format message" "the trace's name says its format: .json (Chrome trace-event JSON) or .pftrace" "$err"
check "export unknown format writes nothing" "" "$(ls "$tmp" | grep 'trace.txt')"
run export "$tmp/t.h5" nope --perfetto "$tmp/none.json"
check "export missing run exit" 1 "$rc"
check "export writes nothing" "" "$(ls "$tmp" | grep none)"

check "readers never modify the file" "$sum_before" "$(sha256sum "$tmp/t.h5")"
# Every command, and a command with its subcommand, answers --help with its
# usage on stdout and exit 0 (`runs list --help` once said "no such file").
for c in layout arch lds occupancy swizzle compile disasm check sim run sweep tune import runs compare export \
         "runs list" "runs show" "import rocprof" "tune lookup" "layout eval"; do
  run $c --help
  check "$c --help exit" 0 "$rc"
  check "$c --help usage" "usage: tilelab ${c%% *}" "$(echo "$out" | head -1 | cut -d' ' -f1-3)"
done

finish "traces CLI"
