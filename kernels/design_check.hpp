// The design check of a kernel spec on one architecture: does each designed
// LDS access conflict (exactly, from sim/lds's bank model), does the LDS fit,
// how many waves fit on a CU (with the compiled code object's registers when
// there is one), and does the code object agree with the spec (LDS bytes,
// workgroup size).  This is what `tilelab check` prints.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/chip_bound.hpp"
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

// The per-workgroup bound for a shape: how long each resource would take if
// it alone limited the workgroup.  MFMA: its instructions' cycles spread over
// the SIMDs the workgroup's waves occupy; LDS: the designed accesses' cycles
// (one pass per clock per CU) times their repeats; global: bytes at this CU's
// share of HBM bandwidth (the CUs running workgroups share it equally, each at
// most its L1 bandwidth: arch::memory_bytes_per_clock_per_cu), twice — the workgroup's own traffic with no cache
// reuse (an upper bound on that time), and its share of the problem's bytes
// each moved once (perfect L2/MALL reuse, the lower bound).  The limiter is
// the largest of MFMA, LDS and the lower global bound: a design limited by
// global memory even then is memory-bound on any cache.
struct TileBound {
  std::vector<long long> shape;
  TileWork work;
  double mfma_cycles = 0, lds_cycles = 0, global_cycles = 0, global_cycles_reused = 0;
  double hbm_bytes_per_clock_per_cu = 0;
  std::string limiter;  // "MFMA", "LDS", "global memory"
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
  std::optional<TileBound> bound;              // when the spec describes its work
  // The whole-chip bound, when the arch has a chip ([timing] and [memory])
  // and the spec says which tiles its workgroups read.
  std::optional<ChipBound> chip;
};

// Throws std::invalid_argument when the spec is not for this arch, the shape
// breaks the spec's rules (the message names them), or an access names an
// instruction the arch file does not describe.  No shape: the spec's first
// example shape.
DesignReport design_check(const KernelSpec& spec, const arch::Arch& a,
                          const std::optional<CompiledFacts>& compiled = std::nullopt,
                          const std::optional<std::vector<long long>>& shape = std::nullopt);

}  // namespace tilelab::kernels
