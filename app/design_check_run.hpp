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

// The design check of a template's variant (`tilelab check KERNEL --params`,
// a sweep's template candidates): the variant's spec (kernels::variant_spec)
// against the registers and LDS of the variant compiled into the kernel cache
// (compile_variant, `cache_dir` as there).  The exceptions of both.
struct VariantDesign {
  kernels::KernelSpec spec;
  std::string code_object;
  kernels::DesignReport report;
};
VariantDesign check_variant(const std::string& kernel, const arch::Arch& a, const kernels::TemplateParams& params,
                            const std::optional<std::vector<long long>>& shape = std::nullopt,
                            const std::string& cache_dir = "");

// Why a variant checked by check_variant is not a candidate ("" when it is):
// it spills to scratch, or its LDS does not fit.  Bank conflicts and a lower
// occupancy are costs the timing sees, not reasons.
std::string variant_refusal(const kernels::DesignReport& r);

// What the design check reads of a compiled kernel: registers, LDS, scratch, workgroup size.
kernels::CompiledFacts facts_of(const isa::Kernel& k);

// `check --json` and Python's `check`: kernel, arch, clean, LDS, every
// access's cost, the compiled facts and occupancy (when known), the
// per-iteration and whole-chip bounds, the problems.
Json design_json(const kernels::KernelSpec& spec, const kernels::DesignReport& r);

}  // namespace tilelab::app
