// A suite kernel compiled offline with the build's compiler and flags
// (kernels/CMakeLists.txt, recorded in generated/kernel_build.hpp): what
// `tilelab compile` and tilelab.compile in Python run.
#pragma once
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

}  // namespace tilelab::app
