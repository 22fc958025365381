# Shared by the CLI test scripts (source it after setting $tilelab):
# a scratch directory, a failure count, and three helpers.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1"; echo "  expected: $(printf '%q' "$2")"; echo "  actual:   $(printf '%q' "$3")"
    failures=$((failures + 1))
  fi
}

contains() {  # contains NAME NEEDLE HAYSTACK
  case "$3" in *"$2"*) ;; *) echo "FAIL: $1: no '$2' in:"; echo "$3"; failures=$((failures + 1)) ;; esac
}

run() {  # run ARGS... ; sets out, err, rc
  out=$("$tilelab" "$@" 2>"$tmp/err"); rc=$?; err=$(cat "$tmp/err")
}

finish() {  # finish WHAT: exit 1 if any check failed
  if [ "$failures" -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
  echo "all $1 checks passed"
}
