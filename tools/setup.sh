#!/usr/bin/env bash
# Install the Debian packages tilelab needs (only those missing), then
# configure and build into build/.  Idempotent; quiet when all is there.
#   TILELAB_BUILD_DIR  build directory (default: build)
#   TILELAB_SANITIZE=1 build with AddressSanitizer + UBSan (use another build dir)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build g++            # the build
  libboost-program-options-dev     # the CLI's option parsing
  libtomlplusplus-dev              # sim/arch/*.toml architecture descriptions
  libhdf5-dev                      # traces/: the HDF5 trace store
  python3-h5py                     # tests: h5py reads what tilelab wrote; the trace loader
  pybind11-dev python3-dev         # the tilelab Python module
  python3-numpy python3-matplotlib # the module's arrays and pictures
  python3-pytest python3-nbclient python3-nbformat python3-ipykernel  # pytest, notebooks run headless
  python3-venv python3-pip python3-setuptools python3-wheel  # pip install . into a virtual environment (tested)
  git                              # the tests compare the source tree before and after pip install
  libgtest-dev                     # tests
  libbenchmark-dev                 # benchmarks
  clang-22 lld-22 llvm-22          # kernels/: HIP compiled offline for gfx950/gfx942; llvm-objdump for the decoder test
  llvm-22-dev                      # sim/isa: LLVM Object, msgpack and MC (the AMDGPU disassembler)
  libclang-rt-22-dev               # libFuzzer and sanitizers for the fuzz targets
  libamdhip64-dev                  # hw/hip: HIP's header proves the runtime's signatures; its libamdhip64 (no GPU) gives the "no AMD GPU" test
  nlohmann-json3-dev               # JSON output of the CLI and the stored run configurations
  libsqlite3-dev                   # traces/rocprof: rocprofv3's rocpd database
  libsimdjson-dev                  # traces/rocprof: rocprofv3's decoded thread trace (large JSON)
  libopenmpi-dev openmpi-bin       # `mpirun -n N tilelab sweep`: a sweep over MPI ranks (tested with mpirun)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

build_dir=${TILELAB_BUILD_DIR:-build}
sanitize=OFF
[ "${TILELAB_SANITIZE:-0}" = 1 ] && sanitize=ON
if [ ! -f "$build_dir/build.ninja" ]; then
  echo "setup: configuring into $build_dir/"
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILELAB_SANITIZE=$sanitize >/dev/null
  # The first build compiles the C++ (with LLVM's MC), the HIP kernels for
  # two arches and the Python module: say so before the long quiet part.
  echo "setup: building into $build_dir/ (the first build takes about 10 minutes on 2 cores, 20 on a busy machine; later ones only what changed)"
fi
# On a terminal ninja keeps one progress line ([done/total] step); in a log
# (CI) it prints only warnings and errors.
if [ -t 1 ]; then
  cmake --build "$build_dir"
else
  cmake --build "$build_dir" -- --quiet
fi
