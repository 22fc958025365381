#!/usr/bin/env bash
# The installed tilelab (issue 27): `cmake --install` into a fresh prefix; the
# installed binary names and uses the kernels under that prefix (not the
# build tree's) and runs a kernel; another CMake project finds
# tilelab::layouts with find_package(tilelab) and computes with it.
# Usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
prefix=$(cd "$tmp/prefix" && pwd -P)
[ -f "$prefix/share/tilelab/kernels/gfx950/gemm_bf16.hsaco" ] || fail "no installed gemm_bf16 code object"
version=$("$prefix/bin/tilelab" --version)
[[ $version == *$'\n'"kernels: $prefix/share/tilelab/kernels" ]] || fail "the installed binary looks for kernels elsewhere: $version"
out=$("$prefix/bin/tilelab" sim gemm_bf16 --functional --shape 128,128,64 2>&1) || fail "installed sim: $out"
[[ $out == *"): PASS"* ]] || fail "installed sim did not match its reference: $out"

mkdir -p "$tmp/consumer"
cat > "$tmp/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(consumer CXX)
find_package(tilelab 0.8 CONFIG REQUIRED)
add_executable(consumer main.cpp)
target_link_libraries(consumer PRIVATE tilelab::layouts)
CMAKE
cat > "$tmp/consumer/main.cpp" <<'CPP'
// composition((4,8):(8,1), 8:4): index i of the result is a(4i); 4i has
// coordinate (0, i) in (4,8), so a gives 0*8 + i*1 = i.
#include <iostream>
#include "layouts/algebra.hpp"
int main() {
  using namespace tilelab;
  const Layout a(IntTuple{4, 8}, IntTuple{8, 1}), b(IntTuple{8}, IntTuple{4});
  const Layout c = composition(a, b);
  for (Int i = 0; i < 8; ++i) std::cout << c(i) << (i < 7 ? " " : "\n");
}
CPP
cmake -S "$tmp/consumer" -B "$tmp/consumer/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null ||
  fail "find_package(tilelab) failed"
ninja -C "$tmp/consumer/build" >/dev/null || fail "the consumer does not build against tilelab::layouts"
got=$("$tmp/consumer/build/consumer")
[ "$got" = "0 1 2 3 4 5 6 7" ] || fail "consumer printed '$got'"
echo "install: ok"
