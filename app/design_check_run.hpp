// The design check as both front ends run it (`tilelab check`, Python's
// `check`): the spec's check with the registers and LDS of its compiled code
// object when there is one, and its one machine-readable form.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/json.hpp"
#include "kernels/design_check.hpp"
#include "sim/isa/code_object.hpp"

namespace tilelab::app {

// The registers and LDS of `spec`'s kernel in its code object for `arch`:
// `code_object` if given, else <dir>/<arch>/<source>.hsaco (dir empty: the
// suite's, kernels::code_object_dir()) when the spec is built for `arch` and
// the file exists; nullopt otherwise.  `read` caches each file read (several
// kernels share one); IsaError when a file exists but is not a code object
// or lacks the kernel.
std::optional<kernels::CompiledFacts> compiled_facts(const kernels::KernelSpec& spec, const std::string& arch,
                                                     const std::string& dir, const std::string& code_object,
                                                     std::map<std::string, isa::CodeObject>& read);

// `check --json` and Python's `check`: kernel, arch, clean, LDS, every
// access's cost, the compiled facts and occupancy (when known), the
// per-iteration and whole-chip bounds, the problems.
Json design_json(const kernels::KernelSpec& spec, const kernels::DesignReport& r);

}  // namespace tilelab::app
