// What a run runs, resolved once for every front end (the CLI and the Python
// module): a suite kernel with its spec, the arch description loaded once
// (from a built-in name or a .toml file) and handed to every part of the run,
// the shape checked against the spec's rules (or the default one), and the
// code object's path.  Run ids and shapes as text are made here too, so that
// the CLI and Python default them the same way.
#pragma once
#include <optional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/spec.hpp"
#include "sim/arch/arch.hpp"

namespace tilelab::app {

struct SuiteTarget {
  const kernels::KernelSpec* spec = nullptr;
  arch::Arch arch;                 // the one description every part of the run uses
  std::vector<long long> shape;    // the spec's dimensions, checked
  std::string code_object;         // DIR/<arch name>/<source>.hsaco
};

// `kernel` by spec name; `arch` loaded by the caller (arch::load_arch: a
// built-in name or a .toml path; its `name` picks the code object, so a
// user's file describing gfx950 runs gfx950's code with the user's figures);
// no `shape`: default_shape.  `code_object_dir` empty: the build's.
// std::invalid_argument for an unknown kernel, a kernel without a host, an
// arch the kernel is not built for, or a shape it refuses.
SuiteTarget resolve_suite(const std::string& kernel, arch::Arch arch,
                          const std::optional<std::vector<long long>>& shape = std::nullopt,
                          const std::string& code_object_dir = "");

// A suite kernel's shape when none is given: its smallest example (emulation
// costs about a microsecond per wave-instruction).  `check --summary` and
// `sim --timing --summary` take the first example instead (the shape the spec
// is designed for), and say so.
std::vector<long long> default_shape(const kernels::KernelSpec& spec);

// "M=128,N=128,K=64": a shape with the spec's dimension names.
std::string shape_text(const kernels::KernelSpec& spec, const std::vector<long long>& shape);
// "128,128,64" -> {128, 128, 64}; std::invalid_argument naming the bad item.
std::vector<long long> parse_shape(const std::string& text);
// "M=4096,N=4096,K=512" -> {M: 4096, N: 4096, K: 512}: a launch template's
// shape; std::invalid_argument naming the bad item.
std::map<std::string, std::int64_t> parse_named_shape(const std::string& text);

// The run id a stored run gets when none is given: "<kind>-<kernel>-<arch>"
// (kind: design, sim, timing, hw).
std::string default_run_id(std::string_view kind, const std::string& kernel, const std::string& arch);

}  // namespace tilelab::app
