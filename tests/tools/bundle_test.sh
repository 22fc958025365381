#!/usr/bin/env bash
# tools/bundle_libraries.sh (what tools/device_bundle.sh copies beside the
# binary for a bare GPU machine): applied to this build's tilelab, every
# library but the C library's then resolves into the bundle, and the binary
# starts in an empty environment (env -i) with only LD_LIBRARY_PATH set.
# Usage: bundle_test.sh SOURCE_DIR TILELAB
set -euo pipefail
src=$1
bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$src/tools/bundle_libraries.sh" "$bin" "$tmp/lib"
for need in libsqlite3.so.0 libsimdjson.so libhdf5_serial.so libboost_program_options.so libtomlplusplus.so; do
  ls "$tmp/lib/$need"* >/dev/null 2>&1 || fail "$need was not bundled"
done
[ ! -e "$tmp/lib/libc.so.6" ] || fail "the C library was bundled"
outside=$(env -i LD_LIBRARY_PATH="$tmp/lib" ldd "$bin" | awk '$2 == "=>" && $3 !~ "^'"$tmp"'/lib/" {print $1}' |
  grep -v -E '^(libc|libm|libpthread|libdl|librt|libresolv)\.so' || true)
[ -z "$outside" ] || fail "resolved outside the bundle: $outside"
out=$(env -i LD_LIBRARY_PATH="$tmp/lib" "$bin" --version) || fail "the binary does not start: $out"
[[ $out == tilelab\ * ]] || fail "printed '$out'"
"$src/tools/bundle_libraries.sh" "$bin" 2>/dev/null && fail "a missing argument was accepted"
echo "bundle: ok"
