#!/usr/bin/env bash
# The hostile-input cases of cases.txt (issue 47), each run as a user would
# type it: the exit status, the one "error: " line, what no output may show
# (secret.txt's text, /etc/passwd's, LLVM's and Python's raw messages), a
# time limit per case (a hang fails), and that no FIFO was replaced.
# usage: hostile_test.sh TILELAB
set -u
here=$(cd "$(dirname "$0")" && pwd)
T=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
S=$here/../../data/handwritten/scale_rows.s
L=$here/../../data/handwritten/scale_rows.launch.toml
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
cd "$D" || exit 1
source "$here/make_inputs.sh"
export T S
failures=0 cases=0 failed_cases=0 last_failed=""
fail() {
  echo "FAIL: $name: $1"; printf '  %s\n' "${@:2}"; failures=$((failures + 1))
  [ "$last_failed" = "$name" ] || failed_cases=$((failed_cases + 1)); last_failed=$name
}
while IFS=$'\t' read -r name want expect forbid command; do
  case "$name" in ''|'#'*) continue ;; esac
  cases=$((cases + 1))
  timeout 120 bash -c "$command" >"$D/.out" 2>"$D/.err"; rc=$?
  out=$(cat "$D/.out"); err=$(cat "$D/.err")
  if [ "$rc" -ne "$want" ]; then fail "exit $rc, expected $want" "stdout: ${out:0:300}" "stderr: ${err:0:300}"; continue; fi
  if [ "$want" -ne 0 ]; then
    errors=$(printf '%s\n' "$err" | grep -c '^error: ')
    [ "$errors" -eq 1 ] || fail "$errors error lines, expected one" "$err"
    case "$err" in *"$expect"*) ;; *) fail "no '$expect' on stderr" "$err" ;; esac
  else
    case "$out$err" in *"$expect"*) ;; *) fail "no '$expect' in the output" "$out" "$err" ;; esac
  fi
  for bad in TOPSECRET root:x:0 "LLVM ERROR" "YAML:" Traceback "terminate called" "$forbid"; do
    [ "$bad" = "-" ] && continue
    case "$out$err" in *"$bad"*) fail "the output shows '$bad'" "${out:0:300}" "${err:0:300}" ;; esac
  done
  for f in fifo fifo.h5 fifo.db; do [ -p "$f" ] || fail "$f is no longer a FIFO"; done
done < "$here/cases.txt"
leftovers=$(ls -a "$D" | grep -c '\.tmp-')
[ "$leftovers" -eq 0 ] || { name=temporaries; fail "$leftovers temporary file(s) left beside an output"; }
if [ "$failures" -ne 0 ]; then echo "$failed_cases of $cases hostile case(s) failed ($failures check(s))"; exit 1; fi
echo "all $cases hostile cases held"
