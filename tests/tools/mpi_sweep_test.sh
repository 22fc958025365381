#!/usr/bin/env bash
# `mpirun -n N tilelab sweep`: the same summary and the same store, point for
# point and in the same order, as one process; a rank killed mid-sweep, then
# a rerun, completes the sweep with every point stored once.
# usage: mpi_sweep_test.sh TILELAB HANDWRITTEN_CO
# mpirun runs as root here (CI) only with --allow-run-as-root; --oversubscribe
# lets 3 ranks share 2 cores.
set -u
tilelab=$1
handwritten=$(realpath "$2")
here=$(realpath "$(dirname "$0")")
source "$here/cli_checks.sh"
mpirun=(mpirun --allow-run-as-root --oversubscribe)

# The hand-written kernel's launch as a template of n (as in emu_cli_test.sh);
# three candidates x four problems, one problem refused by the template.
sed -e 's/^grid = \[16, 1, 1\]/grid = ["ceil(n\/64)", 1, 1]/' -e 's/bytes = 4000/bytes = "4*n"/g' \
    -e 's/^value = 1000/value = "n"/' -e 's/^seed = 5/seed = 5\n[shape]\nn = 7/' \
    "$here/../data/handwritten/scale_rows.launch.toml" > "$tmp/template.toml"
{
  echo 'name = "rows"'
  for c in co:"$handwritten" asm:"$here/../data/handwritten/scale_rows.s" again:"$handwritten"; do
    printf '[[candidate]]\nname = "%s"\ncode_object = "%s"\nlaunch = "template.toml"\n' "${c%%:*}" "${c#*:}"
  done
  for n in 1000 64 0 5000; do printf '[[problem]]\nn = %s\n' "$n"; done
} > "$tmp/sweep.toml"

sweep_ids() { "$tilelab" runs list "$1" | grep -o '^sweep-rows-[a-z]*-n[0-9]*'; }

run sweep "$tmp/sweep.toml" --out "$tmp/one.h5"
check "one process exit" 0 "$rc"
one=$out
contains "one process summary" "wins: co 3 asm 0 again 0; 3 invalid point(s)" "$one"

out=$("${mpirun[@]}" -n 3 "$tilelab" sweep "$tmp/sweep.toml" --out "$tmp/three.h5" 2>"$tmp/err"); rc=$?
check "three ranks exit" 0 "$rc"
check "three ranks print what one process prints" "$one" "$out"
check "three ranks store what one process stores" "same" "$(/usr/bin/python3 "$here/same_store.py" "$tmp/one.h5" "$tmp/three.h5")"
check "three ranks store in the same order" "$(sweep_ids "$tmp/one.h5")" "$(sweep_ids "$tmp/three.h5")"
check "three ranks: each its share" "4 4 4" "$(for r in 0 1 2; do grep -c "^rank $r: \[" "$tmp/err"; done | tr '\n' ' ' | sed 's/ $//')"
check "the shards are merged away" "" "$(ls "$tmp" | grep shard)"

out=$("${mpirun[@]}" -n 2 "$tilelab" sweep "$tmp/sweep.toml" --out "$tmp/three.h5" 2>"$tmp/err"); rc=$?
check "a finished sweep rerun on 2 ranks exit" 0 "$rc"
check "a finished sweep rerun runs no valid point again" "0" "$(grep -c ' us (' "$tmp/err")"
check "a finished sweep rerun reads every point" "9" "$(grep -c ', stored (' "$tmp/err")"
check "a finished sweep rerun prints the same" "$one" "$out"

# Rank 1 killed with SIGKILL as soon as its first point is in its shard
# (mpirun then stops the others): the rerun, on another rank count, takes
# the shard's points as stored and completes the sweep.
cat > "$tmp/kill_rank1.sh" <<'EOS'
#!/bin/sh
[ "$OMPI_COMM_WORLD_RANK" = 1 ] || exec "$@"
"$@" & pid=$!
while [ ! -e "$SHARD" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
kill -9 "$pid"
wait "$pid"
EOS
chmod +x "$tmp/kill_rank1.sh"
"${mpirun[@]}" -n 3 -x SHARD="$tmp/killed.h5.shard-1.h5" "$tmp/kill_rank1.sh" "$tilelab" sweep "$tmp/sweep.toml" \
  --out "$tmp/killed.h5" >/dev/null 2>&1
killed_rc=$?
check "the killed sweep fails" "yes" "$([ "$killed_rc" -ne 0 ] && echo yes)"
check "the killed rank left its shard" "yes" "$([ -e "$tmp/killed.h5.shard-1.h5" ] && echo yes)"
out=$("${mpirun[@]}" -n 2 "$tilelab" sweep "$tmp/sweep.toml" --out "$tmp/killed.h5" 2>"$tmp/err"); rc=$?
check "the rerun exit" 0 "$rc"
check "the rerun prints what one process prints" "$one" "$out"
check "the rerun reads the killed rank's points" "yes" "$([ "$(grep -c ', stored (' "$tmp/err")" -ge 1 ] && echo yes)"
check "the rerun stores every point once" "$(sweep_ids "$tmp/one.h5" | sort)" "$(sweep_ids "$tmp/killed.h5" | sort)"
check "the rerun's store is one process's" "same" "$(/usr/bin/python3 "$here/same_store.py" "$tmp/one.h5" "$tmp/killed.h5")"
check "the rerun leaves no shard" "" "$(ls "$tmp" | grep 'killed.h5.shard')"
finish "MPI sweep"
