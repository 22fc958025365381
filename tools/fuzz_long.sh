#!/usr/bin/env bash
# The longer fuzzing to run before submitting (the suite's fuzz runs are short
# and fixed): each libFuzzer target (ASan + UBSan) for MINUTES minutes from
# its corpus in tests/fuzz/, and the code-object mutation hunt.  Findings go to
# FINDINGS (default build/fuzz_findings/<target>/); a finding becomes a corpus
# seed and a regression test before the change lands.
# usage: tools/fuzz_long.sh [MINUTES per target, default 3]
set -uo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-3}
seconds=$((minutes * 60))
jobs=$(nproc)
out=${FINDINGS:-build/fuzz_findings}
status=0
run() {  # run TARGET CORPUS MAX_LEN
  local target=$1 corpus=$2 max_len=$3
  local bin=build/bin/$target
  if [ ! -x "$bin" ]; then echo "skip $target: not built (clang-22 missing?)"; return; fi
  mkdir -p "$out/$target/new"
  echo "== $target: $minutes min on $jobs cores"
  (cd "$out/$target" && "$OLDPWD/$bin" -max_len="$max_len" -timeout=10 -jobs="$jobs" -workers="$jobs" \
      -max_total_time="$seconds" -print_final_stats=0 new "$OLDPWD/$corpus" > log.txt 2>&1)
  local crashes
  crashes=$(ls "$out/$target" | grep -E '^(crash|leak|timeout|oom)-' || true)
  if [ -n "$crashes" ]; then
    echo "   FOUND: $crashes (in $out/$target; rerun: $bin $out/$target/<file>)"
    status=1
  else
    echo "   nothing found"
  fi
}
run fuzz_layout_expr tests/fuzz/corpus 256
run fuzz_arch_toml tests/fuzz/arch_corpus 8192
run fuzz_emu_operands tests/fuzz/emu_corpus 200
run fuzz_rocprof_csv tests/fuzz/csv_corpus 4096
run fuzz_launch_file tests/fuzz/launch_corpus 4096
run fuzz_launch_expression tests/fuzz/expression_corpus 256
run fuzz_thread_trace tests/fuzz/att_corpus 4096
run fuzz_rocpd tests/fuzz/rocpd_corpus 8192
echo "== code objects: cut and flipped bytes"
if TILELAB_MUTANTS=$((minutes * 400)) TILELAB_MUTANT_SEED=$RANDOM build/bin/test_isa --gtest_filter='*Survives*' > "$out/code_objects.txt" 2>&1; then
  echo "   nothing found"
else
  echo "   FOUND: see $out/code_objects.txt"
  status=1
fi
exit $status
