# Sourced by hostile_test.sh in its scratch folder $D: builds the hostile
# inputs the cases of cases.txt name.  $S is the hand-written kernel's
# source (tests/data/handwritten/scale_rows.s), $L its launch file.
target='.amdgcn_target "amdgcn-amd-amdhsa--gfx950"'
echo "TOPSECRET-42" > secret.txt
mkdir -p sub
asm() { local name=$1; shift; { cat "$S"; printf '%s\n' "$@"; } > "$name"; }
bare() { local name=$1; shift; { echo "$target"; printf '%s\n' "$@"; } > "$name"; }
asm include_abs.s '.include "/etc/passwd"'
asm include_rel.s ".include \"../$(basename "$D")/secret.txt\""
asm include_upper.s '.INCLUDE "secret.txt"'
bare include_macro.s '.macro m a' '.inc\a "secret.txt"' '.endm' 'm lude'
asm include_self.s '.include "include_self.s"'
asm incbin.s '.data' '.incbin "secret.txt"'
asm incbin_zero.s '.data' '.incbin "/dev/zero"'
cp include_abs.s sub/k.s
bare skip_huge.s '.skip 100000000000'
bare fill_huge.s '.fill 4000000000, 1, 0'
bare rept_huge.s '.rept 1000000000' 's_nop 0' '.endr'
bare p2align_huge.s '.p2align 40'
bare skip_computed.s '.skip 1<<36'
bare bad_instruction.s 's_nop 0' 'v_bogus v1'
sed 's/\.wavefront_size: *64/.wavefront_size: 7/' "$S" > wave7.s
sed 's/\.wavefront_size: *64/.wavefront_size: 32/' "$S" > wave32_mismatch.s
sed 's/\.wavefront_size: *64/.wavefront_size: [64/' "$S" > yaml_broken.s
sed 's/\.offset: 32,/.offset: 4000000000,/' "$S" > arg_offset.s
sed 's/\.group_segment_fixed_size: *0/.group_segment_fixed_size: 200000/; s/^\( *\)\.amdhsa_kernel scale_rows/&\n\1  .amdhsa_group_segment_fixed_size 200000/' "$S" > lds_big.s
cp "$L" launch.toml
# Sweeps: a launch template of the kernel, and sweep files.
sed 's/^grid = .*/grid = ["ceil(n\/64)", 1, 1]/; s/bytes = 4000/bytes = "4*n"/g; s/^value = 1000/value = "n"/' "$L" > template.toml
printf '[shape]\nn = 1000\n' >> template.toml
sweep() {  # sweep FILE NAME CANDIDATE [n]: one candidate at one problem
  printf 'name = "%s"\n[[candidate]]\nname = "%s"\ncode_object = "%s"\nlaunch = "template.toml"\n[[problem]]\nm = 1\nn = %s\n' \
    "$2" "$3" "$S" "${4:-64}" > "$1"
}
sweep collide_a.toml x y-z
sweep collide_b.toml x-y z
sweep stale.toml s c 64
printf '[[problem]]\nm = 1\nn = 64\n' | cat stale.toml - > duplicate.toml
printf 'name = "s"\n[[candidate]]\nname = "c"\ncode_object = "%s"\nlaunch = "template.toml"\nshape = { %s = 1 }\n[[problem]]\nn = 64\n' \
  "$S" "$(head -c 2000000 /dev/zero | tr '\0' k)" > long_key.toml
printf 'name = "s\\u001b[2J"\n[[candidate]]\nname = "c"\ncode_object = "%s"\nlaunch = "template.toml"\n[[problem]]\nn = 64\n' "$S" > control_name.toml
{ printf 'name = "big"\n'; for c in $(seq 1 1001); do printf '[[candidate]]\nname = "c%s"\ncode_object = "x.co"\nlaunch = "l.toml"\n' "$c"; done
  for n in $(seq 1 1000); do printf '[[problem]]\nn = %s\n' "$n"; done; } > too_many.toml
mkfifo fifo fifo.h5 fifo.db
sweep lost.toml lost c 64  # a store whose run file goes missing (read.* cases)
ln -s fifo link_to_fifo.json
# Tuning databases: each a SQLite file made by python3's sqlite3.
python3 - <<'PY'
import sqlite3
cols = "arch TEXT, cus INTEGER, family TEXT, shape TEXT, candidate TEXT, params TEXT, predicted_us REAL"
def db(name, rows, view=False):
    c = sqlite3.connect(name)
    if view:
        c.execute("CREATE VIEW winners AS WITH RECURSIVE r(arch, cus, family, shape, candidate, params, predicted_us) AS "
                  "(SELECT 'gfx950', 256, 'f', 'n=1', 'x', '{}', 1.0 UNION ALL SELECT * FROM r) SELECT * FROM r")
    else:
        c.execute(f"CREATE TABLE winners({cols})")
        c.executemany("INSERT INTO winners VALUES(?,?,?,?,?,?,?)", rows)
    c.commit(); c.close()
db("view.db", [], view=True)
db("nan.db", [("gfx950", 256, "f", "n=64", "fast", "{}", float("nan")),
              ("gfx950", 256, "f", "n=64", "neg", "{}", -5.0),
              ("gfx950", 256, "f", "n=64", "real", "{}", 7.5)])
db("escape.db", [("gfx950", 256, "f", "n=64", "evil\x1b[2J\nname", "{}", 1.0)])
PY
head -c 3000 view.db > corrupt.db; head -c 8192 /dev/urandom >> corrupt.db
cp nan.db nan_copy.db
