#!/usr/bin/env bash
# tilelab against CuTe's Python reference: every expression of
# tests/data/pycute_reference.tsv (written by pycute itself, see
# tools/reference/make_pycute_reference.py) must print exactly pycute's result,
# nesting included; lines marked 'refused' must fail as not admissible.
# usage: pycute_reference_test.sh TILELAB TSV
set -u
tilelab=$1
tsv=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$tsv" | cut -f1 > "$tmp/exprs"
grep -v '^#' "$tsv" | cut -f2 > "$tmp/expected"
"$tilelab" layout eval --file "$tmp/exprs" > "$tmp/got"
paste -d '\t' "$tmp/exprs" "$tmp/expected" "$tmp/got" | awk -F '\t' '
  { n++ }
  $2 == "refused" { if ($3 ~ /^error: .*not admissible/) { refused++; next } }
  $2 != $3 { bad++; if (bad <= 10) printf "MISMATCH %s\n  pycute:  %s\n  tilelab: %s\n", $1, $2, $3; next }
  { same++ }
  END {
    printf "%d cases: %d identical to pycute, %d refused as not admissible, %d mismatches\n", n, same, refused, bad
    exit (bad > 0 || n < 1000)
  }'
