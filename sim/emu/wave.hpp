// One wave's architectural state and the operand accessors every
// instruction's semantics use.  Registers are 32-bit; a VGPR holds one value
// per lane.  The unified vector file of gfx90a and later is kept as 256 VGPRs
// followed by 256 AGPRs, as instructions name them (v0-v255, a0-a255).
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#include "sim/emu/operands.hpp"

namespace tilelab::emu {

inline constexpr int kLanes = 64;
inline constexpr int kSgprs = 128;
inline constexpr int kVectorRegisters = 512;  // v0-v255 then a0-a255

// One LDS-DMA load's data on its way to LDS (global_load_lds_*, buffer_load
// ... lds): it lands when the issuing wave's s_waitcnt vmcnt says the load
// has returned (or when the wave ends), not when it issues.
struct LdsDmaWrite {
  std::uint32_t op_index = 0;  // the instruction (for the LDS race check)
  int bytes = 0;               // per lane
  std::uint64_t active = 0;    // lanes that write
  std::vector<std::uint32_t> address;  // per lane
  std::vector<std::uint8_t> data;      // per lane, `bytes` each
};

// A wave's vector register file (v0-v255 then a0-a255, kLanes values
// each), all zero when made.  Its 128 KiB are a finished wave's file of this
// process, cleared, or else mapped from the OS, which zeroes a page only
// where it is first written: a kernel with 163 VGPRs touches 11 of the 32
// pages.  A vector cleared every page of every wave started, which was a
// fifth of a short full-chip run's time (a first-touched page costs
// microseconds on a virtual machine).
class VectorFile {
 public:
  static constexpr std::size_t kBytes = static_cast<std::size_t>(kVectorRegisters) * kLanes * sizeof(std::uint32_t);
  // Finished waves' files the process keeps for its next waves (wave.cpp).
  static constexpr std::size_t kSpares = 2048;
  VectorFile();
  VectorFile(const VectorFile& o);
  VectorFile& operator=(const VectorFile& o);
  VectorFile(VectorFile&&) noexcept = default;
  VectorFile& operator=(VectorFile&&) noexcept = default;
  std::uint32_t* reg(int r) { return words_.get() + static_cast<std::size_t>(r) * kLanes; }
  const std::uint32_t* reg(int r) const { return words_.get() + static_cast<std::size_t>(r) * kLanes; }

 private:
  struct Unmap {
    void operator()(std::uint32_t* p) const;
  };
  std::unique_ptr<std::uint32_t[], Unmap> words_;
};

struct Wave {
  std::array<std::uint32_t, kSgprs> s{};
  std::uint64_t vcc = 0, exec = 0;
  std::uint32_t m0 = 0;
  bool scc = false;
  VectorFile v;
  std::uint32_t pc = 0;  // index of the next instruction in the program
  bool done = false;
  bool at_barrier = false;
  std::uint32_t barriers = 0;  // s_barrier executed: the LDS race check's epoch
  int id = 0;            // wave number within its workgroup
  std::array<std::uint32_t, 3> workgroup{};  // its workgroup's id (for messages)
  int priority = 0;      // s_setprio (kept for the cycle model)
  // MODE.gpr_idx_en (s_set_gpr_idx_on/off): while set, the VGPR operands that
  // M0[15:12] selects (src0, src1, src2, dst) of vector ALU instructions are
  // offset by M0[7:0].
  bool gpr_index_mode = false;
  // VSKIP (s_setvskip): while set, vector instructions (VALU, VMEM, LDS) are skipped.
  bool vskip = false;
  std::uint64_t executed = 0;
  // The private segment (scratch): private_bytes per lane, lane after lane.
  // scratch_base is where the hardware's swizzled view of it would lie (a
  // dword of one private address for the 64 lanes side by side), reported to
  // the cycle model as the addresses scratch instructions touch.
  // Vector-memory instructions in flight, oldest first, once an LDS-DMA load
  // is among them (the others as empty entries, so that vmcnt counts them).
  std::deque<std::optional<LdsDmaWrite>> vmem_in_flight;
  // Set when s_waitcnt (or s_endpgm) must wait for an LDS-DMA load and the
  // run lets memory be the slowest part: the wave stays at that instruction.
  bool waiting_memory = false;
  std::size_t waiting_keep = 0;  // what the wait allows to stay in flight
  std::uint32_t private_bytes = 0;
  std::vector<std::uint8_t> scratch;
  std::uint64_t scratch_base = 0;

  std::uint32_t* vgpr(int r) { return v.reg(r); }
  const std::uint32_t* vgpr(int r) const { return v.reg(r); }
  std::uint32_t* agpr(int r) { return vgpr(256 + r); }
};

// The 32-bit register (dword `dw` of the operand) of a vector operand.
inline std::uint32_t* vector_reg(Wave& w, const Operand& o, int dw = 0) {
  if (o.loc == Loc::VGPR) return w.vgpr(o.index + dw);
  if (o.loc == Loc::AGPR) return w.agpr(o.index + dw);
  throw EmuError("expected a vector register");
}

// Asks for the lines of `dwords` registers of a vector operand, all at once:
// a wave's registers are usually cold when it issues (in a timed run every
// other CU ran since), and a lane loop touching them in order waits on each.
inline void prefetch_registers(Wave& w, const Operand& o, int dwords) {
  for (int i = 0; i < dwords; ++i)
    for (int line = 0; line < kLanes * 4; line += 64)
      __builtin_prefetch(reinterpret_cast<const char*>(vector_reg(w, o, i)) + line, 1);
}

// Dword `dw` of a scalar operand (SGPR, vcc, exec, m0, scc or a constant).
inline std::uint32_t scalar_u32(const Wave& w, const Operand& o, int dw = 0) {
  switch (o.loc) {
    case Loc::SGPR: return w.s[static_cast<std::size_t>(o.index + dw)];
    case Loc::VCC: return static_cast<std::uint32_t>(w.vcc >> (32 * (o.index + dw)));
    case Loc::EXEC: return static_cast<std::uint32_t>(w.exec >> (32 * (o.index + dw)));
    case Loc::M0: return w.m0;
    case Loc::SCC: return w.scc;
    case Loc::Const: return dw == 0 ? o.bits32() : static_cast<std::uint32_t>(o.bits64(false) >> 32);
    default: throw EmuError("expected a scalar operand");
  }
}

inline std::uint64_t scalar_u64(const Wave& w, const Operand& o, bool fp64 = false) {
  if (o.loc == Loc::Const) return o.bits64(fp64);
  if (o.loc == Loc::VCC && o.count == 2) return w.vcc;
  if (o.loc == Loc::EXEC && o.count == 2) return w.exec;
  return scalar_u32(w, o, 0) | static_cast<std::uint64_t>(scalar_u32(w, o, 1)) << 32;
}

inline void write_scalar_u32(Wave& w, const Operand& o, std::uint32_t value, int dw = 0) {
  switch (o.loc) {
    case Loc::SGPR: w.s[static_cast<std::size_t>(o.index + dw)] = value; return;
    case Loc::VCC: {
      int half = o.index + dw;
      w.vcc = (w.vcc & ~(0xffffffffull << (32 * half))) | static_cast<std::uint64_t>(value) << (32 * half);
      return;
    }
    case Loc::EXEC: {
      int half = o.index + dw;
      w.exec = (w.exec & ~(0xffffffffull << (32 * half))) | static_cast<std::uint64_t>(value) << (32 * half);
      return;
    }
    case Loc::M0: w.m0 = value; return;
    default: throw EmuError("cannot write this scalar destination");
  }
}

inline void write_scalar_u64(Wave& w, const Operand& o, std::uint64_t value) {
  if (o.loc == Loc::VCC && o.count == 2) w.vcc = value;
  else if (o.loc == Loc::EXEC && o.count == 2) w.exec = value;
  else {
    write_scalar_u32(w, o, static_cast<std::uint32_t>(value), 0);
    write_scalar_u32(w, o, static_cast<std::uint32_t>(value >> 32), 1);
  }
}

// Dword `dw` of a source, per lane: vector registers in place, scalars
// broadcast into `tmp`.
inline const std::uint32_t* lanes_u32(Wave& w, const Operand& o, std::uint32_t* tmp, int dw = 0) {
  if (o.loc == Loc::VGPR || o.loc == Loc::AGPR) return vector_reg(w, o, dw);
  std::uint32_t x = scalar_u32(w, o, dw);
  for (int l = 0; l < kLanes; ++l) tmp[l] = x;
  return tmp;
}

}  // namespace tilelab::emu
