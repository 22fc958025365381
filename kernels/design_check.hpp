// The design check of a kernel spec on one architecture: does each designed
// LDS access conflict (exactly, from sim/lds's bank model), does the LDS fit,
// how many waves fit on a CU (with the compiled code object's registers when
// there is one), and does the code object agree with the spec (LDS bytes,
// workgroup size).  This is what `tilelab check` prints.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/spec.hpp"
#include "sim/arch/arch.hpp"
#include "sim/lds/occupancy.hpp"

namespace tilelab::kernels {

struct AccessReport {
  std::string what, instruction;
  long long instructions = 0;     // wave-level instructions over the buffer's tile
  long long cycles = 0;           // LDS cycles of those
  long long conflict_cycles = 0;  // in SQ_LDS_BANK_CONFLICT units
  int worst_ways = 0;
};

// What the compiled code says, when a code object was read.
struct CompiledFacts {
  int vgprs = 0, agprs = 0, sgprs = 0;
  long long lds_bytes = 0, scratch_bytes = 0;
  int max_workgroup_size = 0;
};

struct DesignReport {
  std::string kernel, arch;
  long long lds_bytes = 0, lds_capacity = 0;
  std::vector<AccessReport> accesses;
  long long conflict_cycles = 0;               // all accesses
  std::optional<CompiledFacts> compiled;
  std::optional<lds::Occupancy> occupancy;     // needs compiled registers
  std::string limited_by;                      // what limits occupancy, or why unknown
  std::vector<std::string> problems;           // empty: the design is clean
  std::vector<std::string> notes;              // assumed arch figures used
};

// Throws std::invalid_argument when the spec is not for this arch, or an
// access names an instruction the arch file does not describe.
DesignReport design_check(const KernelSpec& spec, const arch::Arch& a,
                          const std::optional<CompiledFacts>& compiled = std::nullopt);

}  // namespace tilelab::kernels
