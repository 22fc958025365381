#!/usr/bin/env bash
# Run the whole test suite: setup (install + build), then every test through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
build_dir=${TILELAB_BUILD_DIR:-build}
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" "$@"
