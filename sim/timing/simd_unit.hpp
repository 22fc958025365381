// One SIMD's execution units as the sequencer sees them: the VALU (plain,
// transcendental and packed-FP32 ops) and the matrix core (MFMA), with the
// co-issue rules between them (cu-facts 1): an MFMA holds the SIMD's VALU
// issue for its own slot and lets plain VALU ops in again from the slot
// instruction_timing worked out (packed FP32 and dot ops later), while the
// matrix core stays busy for the MFMA's cycles.
//
// The unit keeps only "free from" cycles; which wave issues is the
// sequencer's choice (compute_unit.cpp).
#pragma once
#include <cstdint>
#include <utility>

#include "sim/arch/arch.hpp"
#include "sim/timing/instruction_timing.hpp"
#include "sim/timing/stall.hpp"

namespace tilelab::timing {

class SimdUnit {
 public:
  explicit SimdUnit(const arch::Timing& t) : t_(&t) {}

  // Whether a VALU, transcendental or MFMA instruction finds its unit free at
  // cycle c: {Reason::none, c}, or the unit it waits for and the cycle it is
  // free (busy_mfma before busy_valu for an MFMA).  Other kinds: always free.
  std::pair<Reason, std::uint64_t> busy(const InstructionTiming& it, std::uint64_t c) const;

  // A VALU or transcendental op issued at c.
  struct ValuIssue {
    int held;             // clocks it holds the VALU (valu_cycles, trans_cycles)
    std::uint64_t ready;  // its result reaches a dependent op of the wave
  };
  ValuIssue issue_valu(const InstructionTiming& it, std::uint64_t c);
  // An MFMA issued at c: the cycle the matrix core is done with it (its D ready).
  std::uint64_t issue_mfma(const InstructionTiming& it, std::uint64_t c);

  std::uint64_t valu_free() const { return valu_free_; }
  std::uint64_t matrix_core_free() const { return xdl_free_; }

 private:
  const arch::Timing* t_;
  // valu_free_: the next cycle the VALU takes a plain op (an MFMA included);
  // pk_valu_free_: a packed-FP32 or dot op, held longer under an MFMA.
  std::uint64_t valu_free_ = 0, pk_valu_free_ = 0, xdl_free_ = 0;
};

}  // namespace tilelab::timing
