#!/usr/bin/env bash
# Drives `tilelab arch|lds|occupancy|swizzle` as a user does: outputs, errors, exit statuses.
# usage: sim_cli_test.sh TILELAB
set -u
tilelab=$1
source "$(dirname "$0")/cli_checks.sh"

# arch
run arch list
check "arch list" "gfx942
gfx950
sm90" "$out"
run arch show gfx950
check "arch show exit" 0 "$rc"
contains "arch show phases" "ds_read_b128: 16 B/lane, 4 phases, bank period 64, measured" "$out"
contains "arch show assumption" "ds_write_b128: 16 B/lane, 8 phases, bank period 32, assumed (NOT KNOWN: assumption)" "$out"
run arch show gfx1200
check "arch unknown exit" 1 "$rc"
contains "arch unknown message" "unknown architecture 'gfx1200'" "$err"
printf 'name = "x"\nvendor = "amd"\nbogus = 1\n' > "$tmp/bad.toml"
run arch show "$tmp/bad.toml"
check "arch bad file" "error: $tmp/bad.toml:3: bogus: unknown key" "$err"

# lds from addresses: the MFMA A-operand read of a row-major bf16 tile (128-byte rows).
for l in $(seq 0 63); do echo $(( 128 * (l % 16) + 16 * (l / 16) )); done > "$tmp/mfma.txt"
run lds --arch gfx950 --inst ds_read_b128 --addresses "$tmp/mfma.txt"
check "lds table" "gfx950 ds_read_b128 (measured)
  pass  lanes                     active  banks  ways  cycles
  0     0-3,12-15,20-27           16      16     4     4
  1     4-11,16-19,28-31          16      16     4     4
  2     32-35,44-47,52-59         16      16     4     4
  3     36-43,48-51,60-63         16      16     4     4
LDS cycles 16, conflict cycles 12 (SQ_LDS_BANK_CONFLICT units), passes 4, worst 4-way" "$out"
out=$(tr '\n' ',' < "$tmp/mfma.txt" | "$tilelab" lds --arch gfx950 --inst ds_read_b128 --addresses - --json)
contains "lds json stdin" '"cycles":16,"conflict_cycles":12,"max_ways":4' "$out"
run lds --arch gfx942 --inst ds_read_b128 --addresses "$tmp/mfma.txt" --mask 0x1
contains "lds mask" "conflict cycles 0" "$out"
run lds --arch gfx950 --inst ds_write_b128 --addresses "$tmp/mfma.txt"
contains "lds assumption note" "note: the phases of ds_write_b128 on gfx950 are not known" "$out"
# errors
head -63 "$tmp/mfma.txt" > "$tmp/short.txt"
run lds --arch gfx950 --inst ds_read_b128 --addresses "$tmp/short.txt"
check "lds lane count exit" 2 "$rc"
contains "lds lane count" "expected 64 addresses (one per lane of a gfx950 wave), got 63" "$err"
sed '6s/.*/648/' "$tmp/mfma.txt" > "$tmp/misaligned.txt"
run lds --arch gfx950 --inst ds_read_b128 --addresses "$tmp/misaligned.txt"
check "lds misaligned exit" 1 "$rc"
check "lds misaligned" "error: lane 5: address 648 is not 16-byte aligned for ds_read_b128" "$err"
run lds --arch gfx942 --inst ds_read_b64_tr_b16 --addresses "$tmp/mfma.txt"
check "lds unknown inst exit" 1 "$rc"
contains "lds unknown inst" "unknown instruction 'ds_read_b64_tr_b16' for gfx942" "$err"
printf '0 16 x\n' > "$tmp/junk.txt"
run lds --arch gfx950 --inst ds_read_b128 --addresses "$tmp/junk.txt"
check "lds junk" "error: address file line 1: 'x' is not an address" "$(echo "$err" | head -1)"
run lds --inst ds_read_b128
check "lds no input exit" 2 "$rc"

# lds from layouts: the same reads, then with a swizzle.
run lds --arch gfx950 --inst ds_read_b128 --tv '(16,4):(1,16)' '(1,8)' --smem '(64,64):(64,1)' --elem-bytes 2
contains "lds layout total" "total: LDS cycles 128, conflict cycles 96" "$out"
run lds --arch gfx950 --inst ds_read_b128 --tv '(16,4):(1,16)' '(1,8)' --smem 'Sw<3,3,3> o (64,64):(64,1)' --elem-bytes 2
contains "lds swizzled total" "total: LDS cycles 32, conflict cycles 0" "$out"
run lds --arch gfx950 --inst ds_read_b128 --tv '(16,4):(1,16)' '(1,8)' --smem '(64,64):(1,64)' --elem-bytes 2
check "lds split vector exit" 1 "$rc"
contains "lds split vector" "not at consecutive LDS offsets" "$err"

# recording the design check as a run of a trace store
run lds --arch gfx950 --inst ds_read_b128 --tv '(16,4):(1,16)' '(1,8)' --smem '(64,64):(64,1)' --elem-bytes 2 \
  --record "$tmp/runs.h5" --run-id plain
check "record exit" 0 "$rc"
run runs show "$tmp/runs.h5" plain
contains "recorded run" "kind design, kernel lds-tile, shape tile=(64,64)" "$out"
contains "recorded counter" "counter SQ_LDS_BANK_CONFLICT = 96" "$out"
run lds --arch gfx950 --inst ds_read_b128 --tv '(16,4):(1,16)' '(1,8)' --smem '(64,64):(64,1)' --elem-bytes 2 \
  --record "$tmp/runs.h5" --run-id plain
check "record duplicate exit" 1 "$rc"
contains "record duplicate" "already has a run 'plain'" "$err"

# occupancy
run occupancy --arch gfx950 --vgprs 128 --agprs 128 --sgprs 64 --lds 65536 --wg-size 256
contains "occupancy" "gfx950: 2 workgroup(s) of 4 wave(s) per CU = 8 waves, 2 per SIMD; limited by VGPRs+AGPRs, LDS" "$out"
run occupancy --arch gfx950 --vgprs 300 --wg-size 256
check "occupancy range exit" 2 "$rc"
contains "occupancy range" "--vgprs must be in [0, 256]" "$err"
run occupancy --arch gfx950 --vgprs 64
check "occupancy missing exit" 2 "$rc"

# swizzle search
run swizzle --arch gfx950 --tile 64,64 --elem-bytes 2 --write-tv '(8,8):(8,1)' '(1,8)' --write-inst ds_write_b128 \
  --read-tv '(16,4):(1,16)' '(1,8)' --read-inst ds_read_b128 --top 1
contains "swizzle best" "  0 (0 + 0)                       0                Sw<" "$out"
contains "swizzle plain" "  96 (0 + 96)                     0                (64,64):(64,1)" "$out"
run swizzle --arch gfx950 --tile 64,64 --elem-bytes 2 --write-tv '(8,8):(8,1)' '(1,8)' --write-inst ds_write_b128
check "swizzle missing exit" 2 "$rc"

finish "sim CLI"
