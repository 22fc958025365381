// A suite kernel's functional run for tests and benchmarks, named the way
// they name it (kernel, arch, shape as values): app::resolve_suite then
// app::run_functional, as the CLI and the Python module do.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "app/functional_run.hpp"
#include "sim/arch/arch.hpp"

namespace tilelab::testing {

inline app::FunctionalRun run_suite(const std::string& kernel, const std::string& arch, const std::vector<long long>& shape,
                                    std::uint64_t seed, const std::string& code_object_dir = "",
                                    const std::function<void(emu::Emulator&)>& prepare = {},
                                    const std::function<bool()>& check_output = {}) {
  return app::run_functional(app::resolve_suite(kernel, arch::load_arch(arch), shape, code_object_dir), seed, prepare,
                             check_output);
}

}  // namespace tilelab::testing
