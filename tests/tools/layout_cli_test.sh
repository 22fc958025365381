#!/usr/bin/env bash
# Drives `tilelab layout` as a user does and checks output and exit statuses.
# usage: layout_cli_test.sh TILELAB DATA_DIR
set -u
tilelab=$1
source "$(dirname "$0")/cli_checks.sh"
data=$2



# The issue's examples, one result per line, in order.
run layout eval 'composition((6,2):(8,2),(4,3):(3,1))' 'complement(4:2,24)' \
  'logical_divide((9,(4,8)):(59,(13,1)),<3:3,(2,4):(1,8)>)' 'blocked_product((2,5):(5,1),(3,4):(1,3))' \
  'raked_product((2,5):(5,1),(3,4):(1,3))' 'right_inverse((2,4):(4,1))' '8' '(4)'
check "eval examples" "((2,2),3):((24,2),8)
(2,3):(1,8)
((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))
((2,3),(5,4)):((5,10),(1,30))
((3,2),(4,5)):((10,5),(30,1))
(4,2):(2,1)
8
(4)" "$out"
check "eval examples exit" 0 "$rc"

# --file with a bad line in the middle: its error on its line, the run goes on, exit 1.
run layout eval --file "$data/layout_exprs_with_error.txt"
check "file output" "((2,2),3):((24,2),8)
(2,3):(1,8)
error: expected ')' to close the call of logical_divide, found end of expression, at column 56
(4,2):(2,1)" "$out"
check "file exit" 1 "$rc"

# Reading from standard input.
out=$(printf '12:1\nsize((4,8))\n' | "$tilelab" layout eval --file -); rc=$?
check "stdin" "12:1
32" "$out"

# JSON lines.
run layout eval --json '(4,(2,3)):(1,(4,8))' 'complement((2,2):(1,1),8)'
check "json" '{"result":{"shape":[4,[2,3]],"stride":[1,[4,8]]},"text":"(4,(2,3)):(1,(4,8))"}
{"error":"complement not defined: (2,2):(1,1) is not injective or its modes interleave (mode 2:1 starts inside the span 2 of the smaller-stride modes), at column 1","column":1}' "$out"
check "json exit" 1 "$rc"

# A failed precondition names the condition.
run layout eval 'composition((6,2):(1,7), 4:4)'
check "not admissible" "error: composition not admissible: stride divisibility fails, right-hand stride 4 and left-hand mode shape 6 do not divide one another, at column 1" "$out"
check "not admissible exit" 1 "$rc"

# Usage errors exit 2 with a message on stderr.
run layout eval
check "no expressions exit" 2 "$rc"
check "no expressions message" "error: eval needs expressions or --file" "$(echo "$err" | head -1)"
run layout eval --file "$tmp/missing.txt"
check "missing file exit" 2 "$rc"
check "missing file message" "error: cannot read expression file '$tmp/missing.txt'" "$(echo "$err" | head -1)"
run layout frobnicate
check "unknown subcommand exit" 2 "$rc"
run layout eval --bogus 1
check "unknown option exit" 2 "$rc"
run nosuchcommand
check "unknown command exit" 2 "$rc"
run layout --help
check "help exit" 0 "$rc"
case "$out" in *"blocked_product(L, B)"*) ;; *) echo "FAIL: help lists the functions"; failures=$((failures + 1)) ;; esac

# show: a table, and an SVG written whole.
run layout show '(2,3):(3,1)'
check "show table" "(2,3):(3,1)
    0   1   2
  +---+---+---+
0 | 0 | 1 | 2 |
  +---+---+---+
1 | 3 | 4 | 5 |
  +---+---+---+" "$out"
run layout show --tv '(16,4):(1,16)' '(1,8)' --svg "$tmp/a.svg"
check "show tv exit" 0 "$rc"
check "show tv svg cells" 512 "$(grep -o '<rect' "$tmp/a.svg" | wc -l | tr -d ' ')"
check "show tv row 1" 1 "$(echo "$out" | grep -c '^ 1 | *T1V0 | *T1V1 |')"
check "no temp file left" "" "$(ls "$tmp" | grep tmp)"
run layout show '(2,2,2):(1,2,4)' --svg "$tmp/bad.svg"
check "show rank-3 exit" 1 "$rc"
check "show rank-3 writes nothing" "" "$(ls "$tmp" | grep bad)"
run layout show --svg "$tmp/x/y/z.svg" '4:1'
check "unwritable svg exit" 1 "$rc"

# 10,000 expressions through --file (the speed target is checked in the benchmark, not here).
awk 'BEGIN { for (i = 0; i < 10000; i++) printf "logical_divide((%d,(4,8)):(59,(13,1)),<3:3,(2,4):(1,8)>)\n", 3 * (i % 7 + 1) }' > "$tmp/many.txt"
run layout eval --file "$tmp/many.txt"
check "10k lines" 10000 "$(echo "$out" | wc -l | tr -d ' ')"
check "10k exit" 0 "$rc"

# Unbounded inputs are refused with one line (issue 16): a file without
# newlines, and /dev/zero as an arch file; the lines before a long one print.
printf '4:2\n' > "$tmp/long.txt"
head -c 70000 /dev/zero | tr '\0' '1' >> "$tmp/long.txt"
run layout eval --file "$tmp/long.txt"
check "long line exit" 1 "$rc"
check "long line keeps earlier output" "4:2" "$out"
contains "long line message" "line 2 is longer than 65536 characters; stopped there" "$err"
run layout eval --file /dev/zero
check "dev zero exit" 1 "$rc"
contains "dev zero message" "/dev/zero: line 1 is longer than 65536 characters" "$err"
# Only regular files are read (a FIFO would block): /dev/zero is refused at
# once; a regular file beyond the size bound is refused by its size (sparse
# files: no disk is used).
run arch show /dev/zero
check "arch dev zero exit" 1 "$rc"
contains "arch dev zero message" "architecture file '/dev/zero' is not a regular file" "$err"
run disasm /dev/zero
check "disasm dev zero exit" 1 "$rc"
contains "disasm dev zero message" "/dev/zero: not a regular file" "$err"
truncate -s 2M "$tmp/big.toml"
run arch show "$tmp/big.toml"
check "arch big file exit" 1 "$rc"
contains "arch big file message" "big.toml: larger than 1 MiB: not an architecture description" "$err"
truncate -s 300M "$tmp/big.co"
run disasm "$tmp/big.co"
check "disasm big file exit" 1 "$rc"
contains "disasm big file message" "big.co: larger than 256 MiB: not a code object tilelab reads" "$err"

finish "layout CLI"
