// The static bound of a code object's loops, for kernels without a spec
// (`tilelab check FILE.co`): what one iteration of one wave asks of each unit
// when a wave of the kernel runs on every SIMD, and the unit that limits it.
// The counterpart for code objects of the spec-based design check
// (kernels/design_check.hpp); the MFMA rate rule is the cycle model's
// (arch::mfma_issue_cycles), the LDS port clocks its pass rule.
#pragma once
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/isa/program.hpp"

namespace tilelab::timing {

struct LoopBound {
  std::size_t head = 0, latch = 0;  // instruction indices of the loop's first and last instruction
  double mfma_cycles = 0;           // the MFMAs' matrix-core cycles (one SIMD)
  double lds_cycles = 0;            // LDS port cycles, conflict-free: the phase table's passes, 2 clocks each
                                    // on a SIMD pair's port (ds_read2/write2: two accesses)
  double global_bytes = 0;          // bytes per wave (64 lanes x each VMEM / LDS-DMA access's lane bytes)
  double global_cycles = 0;         // those bytes of every SIMD's wave at this CU's share of HBM, every CU busy
  const char* limiter = "nothing";  // "MFMA", "LDS", "global memory", or "nothing"
  double cycles = 0;                // the largest of the three
  int unknown_mfma = 0;             // MFMAs the arch file does not describe (not counted)
  int unknown_lds = 0;              // LDS instructions without a phase table (counted as one pass)
};

// One entry per loop of `p` (p.loops order).
std::vector<LoopBound> loop_bounds(const isa::Program& p, const arch::Arch& a);

// The global memory share the bound assumes (bytes per clock per CU, every CU busy).
double loop_bound_memory_share(const arch::Arch& a);

}  // namespace tilelab::timing
