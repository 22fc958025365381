// A suite kernel compiled offline with the build's compiler and flags
// (kernels/CMakeLists.txt, recorded in generated/kernel_build.hpp): what
// `tilelab compile` and tilelab.compile in Python run.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilelab::app {

// The suite's sources by name ("gemm_bf16" for gemm_bf16/gemm_bf16.hip), in build order.
std::vector<std::string> suite_source_names();
// Built for gfx950 only (instructions or LDS only gfx950 has).
bool gfx950_only(const std::string& name);

// The sources `name` selects ("all": every one) for the arches `arch` selects
// ("gfx950", "gfx942", or "all": both, skipping gfx950-only sources on
// gfx942).  std::invalid_argument naming the bad value or a gfx950-only
// source asked for gfx942.
struct CompileJob {
  std::string name, arch;
};
std::vector<CompileJob> compile_jobs(const std::string& name, const std::string& arch);

// Compiles one source for one arch into OUT_DIR/<arch>/<name>.hsaco and
// returns that path.  The linker writes through a temporary file renamed into
// place, so a reader never sees half a code object; a failed compile leaves no
// file and throws std::runtime_error "NAME failed to compile for ARCH (exit
// status N)".  The same path gives the same bytes as the build (lld's output
// depends on the output path).
std::string compile_suite_kernel(const CompileJob& job, const std::string& out_dir);

// A variant of a suite kernel: its source compiled with compile-time
// parameters, each NAME = V passed as -DTL_NAME=V (gemm_bf16: TILE_M, TILE_N,
// WAVES_M, WAVES_N, SWIZZLE; kernels/gemm_bf16/gemm_tile.hpp), for `arch`.
// Cached in `cache_dir` (kernel_cache_dir() when empty) under the SHA-256 of
// everything that decides the bytes: the compiler's version text, the flags,
// the arch, the parameters and the contents of the kernel's folder and of
// kernels/common; so an edited source or another compiler is a new entry, and
// a hit costs no compile.  Concurrent callers (MPI ranks) wait for each
// other on a lock, so each variant compiles once; its compilation-unit id
// comes from the key, so the same variant is the same bytes in any cache.  A variant that does not
// compile is cached too, and throws std::runtime_error with the compiler's
// first error line ("static assertion failed: ...").
struct CompiledVariant {
  std::string code_object;  // CACHE/<key>/<name>.hsaco
  std::string key;          // the SHA-256, hex
  bool cached = false;      // found, not compiled
};
CompiledVariant compile_variant(const std::string& name, const std::string& arch,
                                const std::map<std::string, std::int64_t>& params, const std::string& cache_dir = "");

// $TILELAB_KERNEL_CACHE, else $XDG_CACHE_HOME/tilelab/kernels, else
// $HOME/.cache/tilelab/kernels.
std::string kernel_cache_dir();

// The launch template beside a suite kernel's source
// (kernels/gemm_bf16/gemm_bf16.launch.toml); "" when it has none.
std::string suite_launch_template(const std::string& name);

}  // namespace tilelab::app
