// Instruction semantics: one handler per opcode, found by the mnemonic
// without its encoding suffix (v_add_f32 for v_add_f32_e32/_e64/_sdwa).
// Handlers are grouped by unit in ops_*.cpp; each file registers its own.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/emu/lds_races.hpp"
#include "sim/emu/memory.hpp"
#include "sim/emu/operands.hpp"
#include "sim/emu/wave.hpp"

namespace tilelab::isa {
struct Instruction;
struct Program;
}

namespace tilelab::emu {

struct Op;
struct Env;
using Handler = void (*)(Wave&, const Op&, Env&);

// One decoded instruction, ready to execute.
struct Op {
  Handler fn = nullptr;  // nullptr: not implemented (the run stops here)
  ParsedText t;
  std::uint32_t index = 0;       // in the program
  std::int32_t target = -1;      // branch target's index, -1 if none
  const isa::Instruction* inst = nullptr;
  std::string error;             // why the text could not be read (reported if executed)
};

// Per-lane LDS byte addresses of one executed LDS instruction.
struct LdsTrace {
  virtual ~LdsTrace() = default;
  virtual void access(const Op& op, std::string_view instruction, const std::uint32_t* addresses,
                      std::uint64_t active) = 0;
};

// What the cycle model (sim/timing) sees of an executing instruction besides
// its registers: the lanes' global addresses, the bank-model cost of its LDS
// accesses, a scalar load's address, and the clock that s_memtime reads.  Absent in functional runs.
struct AccessObserver {
  virtual ~AccessObserver() = default;
  // One wave-level global access: each active lane's byte address, `bytes` per
  // lane.  An instruction may report several (scratch: one per dword); they add up.
  virtual void global_access(const std::uint64_t* addresses, std::uint64_t active, int bytes, bool store) = 0;
  // One wave-level LDS access: bank-model cycles (conflicts included); modelled
  // is false when the arch file has no phase table for the instruction.
  virtual void lds_access(int cycles, int conflict_cycles, bool modelled) = 0;
  // One scalar load (s_load_dword*): its byte address and size.
  virtual void scalar_access(std::uint64_t address, int bytes) = 0;
  virtual std::uint64_t clock() const = 0;
};

// What an instruction may touch besides its wave.
struct Env {
  GlobalMemory* memory = nullptr;
  std::vector<std::uint8_t>* lds = nullptr;
  LdsTrace* lds_trace = nullptr;
  AccessObserver* observer = nullptr;  // the cycle model, when one drives the run
  LdsRaceCheck* races = nullptr;       // the workgroup's LDS race check (functional runs)
  int denorm_mode_32 = 3;              // FLOAT_DENORM_MODE_32: bit 0 keep input denorms, bit 1 keep outputs
  bool ocp_fp8 = true;                 // FP8 of gfx950 (OCP E4M3/E5M2); gfx942's are the FNUZ variants
  // Functional runs: an s_waitcnt that must wait for an LDS-DMA load blocks
  // its wave until no other wave can move (memory as slow as it may be: an
  // order the hardware can produce).  Under the cycle model the wait is
  // already over when the instruction executes, so the data just lands.
  bool memory_last = false;
  // Where the code object lies in global memory (0: not mapped) and the
  // kernel's instructions: s_getpc_b64 reads code_base + pc, s_setpc_b64 and
  // s_swappc_b64 find their target among the program's instructions.
  std::uint64_t code_base = 0;
  const isa::Program* program = nullptr;
  // The launch's instruction count of the stepping thread (cycle-model threads); null: the emulator's own.
  std::uint64_t* executed = nullptr;
};

// Lands the oldest in-flight vector-memory entries of `w` until at most
// `keep` remain (LDS-DMA data into LDS, with the race check's record).
void retire_vmem(Wave& w, Env& e, std::size_t keep);

using HandlerTable = std::unordered_map<std::string, Handler>;
const HandlerTable& handlers();

// Why the emulator refuses an opcode on purpose ("" when it does not): the
// forms whose semantics or operand layout no public source settles.  The run
// and `disasm --coverage` say so instead of "not implemented".
std::string refusal(std::string_view opcode);

void add_scalar_ops(HandlerTable& t);
void add_vector_ops(HandlerTable& t);
void add_memory_ops(HandlerTable& t);
void add_mfma_ops(HandlerTable& t);

}  // namespace tilelab::emu
