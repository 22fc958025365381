// Where a stored run came from, filled in one place for every kind of run:
// this build (tilelab's version and git revision), the host, and the
// SHA-256 of the arch description and of the code object the run used, so
// that two runs can be told apart by what they ran, not by their names.
#pragma once
#include <span>
#include <string>

#include "sim/arch/arch.hpp"
#include "traces/store.hpp"

namespace tilelab::app {

// "0.8.0" (CMake's project version).
const char* version();
// The git revision the build was configured from ("unknown" outside git).
const char* git_revision();
// "tilelab 0.8.0 (git 0123456789ab)": what `tilelab --version` prints.
std::string version_line();

// A run's RunInfo with its provenance: id, kind, kernel, arch name, the git
// revision of this build, the host.  The caller adds backend, device,
// compiler, shape, seed and configuration, and what it ran:
traces::RunInfo run_info(const std::string& id, const std::string& kind, const std::string& kernel, const std::string& arch);
// the arch description (its name and the SHA-256 of its TOML) ...
void set_arch_file(traces::RunInfo& info, const arch::Arch& a);
// ... and the code object (the SHA-256 of its bytes).
void set_code_object(traces::RunInfo& info, std::span<const std::uint8_t> bytes);

}  // namespace tilelab::app
