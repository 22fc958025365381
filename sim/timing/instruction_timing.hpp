// What the cycle model needs to know about each instruction of a kernel,
// worked out once from the decoded program and the arch file: its issue
// class, how long it holds its unit, the s_waitcnt thresholds, s_nop and
// s_sleep counts, and its vector registers for the MFMA hazard rules.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/emu/emulator.hpp"
#include "sim/isa/program.hpp"
#include "sim/timing/mfma_hazards.hpp"
#include "sim/timing/stall.hpp"

namespace tilelab::timing {

enum class Kind : std::uint8_t {
  plain, valu, trans, mfma, salu, smem, lds, vmem_load, vmem_store, lds_dma, branch,
  waitcnt, nop, sleep, barrier, endpgm, setprio
};

struct InstructionTiming {
  Kind kind = Kind::plain;
  Unit unit = Unit::none;
  isa::InstClass cls = isa::InstClass::OTHER;
  std::string why_untimed;       // not empty: the model cannot time it (said when executed)
  int mfma_cycles = 0, passes = 0;
  // MFMA: the issue slots after it (slot 0 its own) from which the SIMD's
  // VALU may issue a plain VALU op, and a packed-FP32 or dot op (cu-facts 1).
  int valu_slot = 0, pk_valu_slot = 0;
  bool pk_f32 = false;           // VALU: v_pk_{fma,mul,add}_f32, v_pk_mov_b32, v_dot*
  double flops = 0;              // MFMA: 2 m n k
  int vmcnt = -1, lgkmcnt = -1, expcnt = -1;  // s_waitcnt thresholds (-1: not waited on)
  int count = 0;                 // s_nop N, s_sleep N: N
  // VMEM: carries cache-policy bits (nt, sc0, sc1; glc, slc): timed as a
  // plain access (the model does not apply them; the run says so).
  bool cache_policy = false;
  VectorUse vregs;
};

// One entry per instruction of the emulator's program.  Instructions the
// model cannot time (no class, an MFMA the arch file does not describe) get
// `why_untimed`; the run stops with that line if one is executed.
std::vector<InstructionTiming> instruction_timing(const emu::Emulator& e, const arch::Arch& a);

// gfx9 s_waitcnt simm16: vmcnt [3:0] and [15:14], expcnt [6:4], lgkmcnt [11:8].
struct WaitcntFields {
  int vmcnt, expcnt, lgkmcnt;
};
WaitcntFields decode_waitcnt(std::uint32_t simm16);

}  // namespace tilelab::timing
