#!/usr/bin/env bash
# `pip install .` as a user does it (issue 27): a fresh virtual environment
# that sees Debian's python3-* packages, `pip install --no-build-isolation
# --no-index` (nothing fetched) reusing this build's module, then, from a
# folder outside the source and build trees and with no PYTHONPATH,
# `import tilelab` finds the installed package, its kernels inside it, and
# runs a kernel against its reference.
# Usage: pip_install_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$(cd "$2" && pwd -P)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

untracked() { git -C "$src" status --porcelain --untracked-files=all 2>/dev/null | grep -v '^ \?M' || true; }
before=$(untracked)
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
TILELAB_BUILD_DIR=$build TILELAB_WHEEL_TMP=$tmp/wheel \
  "$tmp/venv/bin/pip" install --no-build-isolation --no-index --no-deps --quiet --disable-pip-version-check "$src" \
  >"$tmp/pip.log" 2>&1 || { cat "$tmp/pip.log" >&2; fail "pip install"; }
site=$("$tmp/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
out=$(env -u PYTHONPATH "$tmp/venv/bin/python" - "$site" <<'PY'
import sys
import tilelab
site = sys.argv[1]
assert tilelab.__file__.startswith(site), tilelab.__file__
assert tilelab.code_object_dir() == site + "/tilelab/kernels", tilelab.code_object_dir()
r = tilelab.sim("gemm_bf16", shape=(128, 128, 64))
assert r["pass"] is True, r
print("version", tilelab.__version__)
PY
) || fail "the installed module: $out"
version=$(sed -n 's/^project(tilelab VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[ "$out" = "version $version" ] || fail "printed '$out'"
[ "$(untracked)" = "$before" ] || fail "pip left files in the source tree: $(diff <(echo "$before") <(untracked))"
echo "pip install: ok"
