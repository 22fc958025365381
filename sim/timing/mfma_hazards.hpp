// The MFMA dependency rules the hardware does not enforce: after an XDL MFMA
// writes D, a later instruction of the same wave may read (or overwrite) those
// registers only after the wait states the ISA requires; code that leaves
// fewer reads garbage on the hardware.  The other way round, an MFMA may read
// a VGPR a VALU op wrote only 2 wait states later, and run 4 after a VALU op
// wrote EXEC (timing-facts: HAZ checkMAIVALUHazards / checkMAIHazards90A).  The compiler counts wait states in
// instructions (s_nop N counting N + 1); here they are counted in the wave's
// issue slots that really passed, (consumer - producer) / issue_period - 1,
// which is never fewer than the instructions in between, so code that is
// correct by the compiler's rule is never reported.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"

namespace tilelab::timing {

// Vector registers first .. first + count - 1 of one file.
struct VRegs {
  bool agpr = false;
  std::uint16_t first = 0, count = 0;
  bool overlaps(const VRegs& o) const {
    return agpr == o.agpr && first < o.first + o.count && o.first < first + count;
  }
  bool operator==(const VRegs&) const = default;
};

// What an instruction does with vector registers, as the hazard rules see it.
struct VectorUse {
  bool mfma = false;
  bool valu = false;          // a VALU op (not an MFMA)
  bool writes_exec = false;   // a VALU op that writes EXEC (v_cmpx)
  int passes = 0;             // MFMA passes (4 clocks each)
  std::vector<VRegs> reads;   // MFMA: SrcA, SrcB and scales (SrcC apart)
  std::vector<VRegs> writes;
  bool has_srcc = false;
  VRegs srcc;
};

struct Hazard {
  std::uint64_t pc = 0, producer_pc = 0;
  std::uint32_t wave = 0;
  std::uint64_t cycle = 0;
  int required = 0, got = 0;  // wait states
  std::string rule;           // "MFMA D -> VALU/memory read", ...
};

// One wave's MFMAs in flight.
class MfmaHazards {
 public:
  explicit MfmaHazards(const arch::Timing& t) : t_(&t) {}
  // Checks `use` issuing at `cycle` against the MFMAs in flight; appends what it breaks.
  void check(const VectorUse& use, std::uint64_t pc, std::uint64_t cycle, std::uint32_t wave, std::vector<Hazard>& out);
  // Records an MFMA or VALU op issued at `cycle` (after check()); `use` must
  // outlive this object (it is the instruction's, in the CU's timing table).
  void issued(const VectorUse& use, std::uint64_t pc, std::uint64_t cycle);

  static constexpr int kValuWriteToMfmaRead = 2;  // [O] HAZ: LegacyVALUWritesVGPRWaitStates
  static constexpr int kValuExecToMfma = 4;       // [O] HAZ: VALUWritesExecWaitStates
  // An XDL MFMA's D overwritten by a VALU or memory instruction: passes + 3
  // wait states (2 passes: 5, 4: 7, 8: 11, 16: 19).  [O] HAZ:
  // GFX940_XDL_N_PassWriteVgprVALUWawWaitStates.  LLVM asks passes + 2
  // after an SMFMAC; the model applies the XDL rule to both (one wait state
  // stricter for SMFMAC: a report, never a timing change).
  static constexpr int kXdlDOverwriteExtra = 3;

 private:
  struct ValuWrite {
    const std::vector<VRegs>* regs;  // the instruction's own (its VectorUse outlives the run's waves)
    bool exec;
    std::uint64_t pc, cycle;
  };
  std::vector<ValuWrite> valu_writes_;  // the last few VALU ops that wrote VGPRs or EXEC
  struct InFlight {
    VRegs d;
    int passes;
    std::uint64_t pc, cycle;
  };
  const arch::Timing* t_;
  std::vector<InFlight> in_flight_;
};

}  // namespace tilelab::timing
