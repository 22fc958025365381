#!/usr/bin/env bash
# Copies into LIBDIR every shared library BINARY needs (as the dynamic linker
# resolves them here, through ldd) except the C library's own (libc, libm,
# libpthread, libdl, librt, libresolv, the loader), which every Linux has
# and which must match its kernel.  Run BINARY elsewhere with
# LD_LIBRARY_PATH=LIBDIR.  A library ldd cannot find stops it with one line.
# Usage: tools/bundle_libraries.sh BINARY LIBDIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: tools/bundle_libraries.sh BINARY LIBDIR" >&2; exit 2; }
binary=$1
libdir=$2
deps=$(ldd "$binary") || { echo "bundle: ldd cannot read $binary" >&2; exit 1; }
if missing=$(grep "not found" <<<"$deps"); then
  echo "bundle: $binary needs a library this machine lacks: $(head -1 <<<"$missing" | awk '{print $1}')" >&2
  exit 1
fi
mkdir -p "$libdir"
while read -r name arrow path _; do
  [ "$arrow" = "=>" ] && [ -n "$path" ] || continue
  case "$name" in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|ld-linux*) continue ;;
  esac
  cp -L "$path" "$libdir/$name"
done <<<"$deps"
