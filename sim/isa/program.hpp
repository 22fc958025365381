// The decoded form of one kernel's machine code: what the functional emulator
// executes and what the cycle model schedules, decoded once
// (docs/ARCHITECTURE.md: sim/isa).  Each instruction carries its LLVM MC opcode, a class a GPU
// engineer thinks in, its register operands as (file, first, count), its
// immediates, its resolved branch target and the exact text llvm-objdump
// prints; the program carries basic blocks and loops.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilelab::isa {

enum class InstClass : std::uint8_t {
  SALU, SMEM, VALU, TRANS, MFMA, LDS, LDS_DMA, VMEM_LOAD, VMEM_STORE, BRANCH, WAITCNT, BARRIER, OTHER
};
inline constexpr int kInstClassCount = 13;
// "SALU", "SMEM", ..., "LDS-DMA", "VMEM-load", "VMEM-store", ...
const char* class_name(InstClass c);
// The class of a mnemonic as llvm-objdump prints it (the rules: program.cpp).
InstClass classify(std::string_view mnemonic);

enum class RegFile : std::uint8_t { SGPR, VGPR, AGPR, VCC, EXEC, M0, SCC, TTMP, SPECIAL };
const char* file_name(RegFile f);

// Registers first .. first+count-1 of one file (32-bit units).  VCC and EXEC
// are two halves: vcc is {VCC, 0, 2}, vcc_hi is {VCC, 1, 1}.  SPECIAL holds
// the other hardware registers (flat_scratch, src_shared_base, ...), `first`
// being LLVM's register number.
struct RegRange {
  RegFile file = RegFile::SPECIAL;
  std::uint16_t first = 0;
  std::uint16_t count = 0;
  bool operator==(const RegRange&) const = default;
};

struct Operand {
  enum class Kind : std::uint8_t { Reg, Imm, Expr };  // Expr: a symbolic value (relocation)
  Kind kind = Kind::Imm;
  bool is_def = false;  // the instruction writes it
  RegRange reg;         // Kind::Reg
  std::int64_t imm = 0; // Kind::Imm: the value as decoded (inline constants and literals alike)
};

struct Instruction {
  std::uint64_t pc = 0;      // byte address in the code object
  std::uint8_t size = 0;     // bytes, a literal included
  bool has_literal = false;  // a 32-bit literal follows the encoding
  bool conditional = false;  // a conditional branch
  InstClass cls = InstClass::OTHER;
  unsigned opcode = 0;       // LLVM MC opcode
  std::string_view opcode_name;  // LLVM's name of it, e.g. V_MFMA_F32_16X16X32_BF16_vgprcd_e64 (static storage in libLLVM)
  std::int64_t target = -1;  // branch target pc; -1 when not a branch
  int block = -1;            // index into Program::blocks
  std::vector<Operand> operands;        // explicit operands, in MC order (defs first; an absent optional
                                        // register such as `off` left out)
  std::vector<RegRange> implicit_defs;  // e.g. SCC, VCC, EXEC
  std::vector<RegRange> implicit_uses;
  std::string text;          // as llvm-objdump prints it, without the address and encoding
  std::uint8_t mnemonic_size = 0;

  std::string_view mnemonic() const { return std::string_view(text).substr(0, mnemonic_size); }
};

struct BasicBlock {
  std::size_t first = 0, last = 0;  // instruction indices, inclusive
  std::vector<int> successors;      // block indices
};

// A natural loop (its head block dominates the blocks branching back to it):
// its blocks span the instructions head .. latch (indices, inclusive; the
// compiler lays a loop out contiguously); depth 1 is outermost.
struct Loop {
  std::size_t head = 0, latch = 0;
  int depth = 1;
};

struct Program {
  std::string arch;    // gfx950, gfx942
  std::string kernel;
  std::uint64_t entry = 0;
  std::vector<Instruction> instructions;
  std::vector<BasicBlock> blocks;
  std::vector<Loop> loops;  // ordered by head

  // Index of the instruction starting at pc, or -1.
  long index_of(std::uint64_t pc) const;
  // The innermost loop holding instruction i, or -1.
  int loop_of(std::size_t i) const;
};

// Fills blocks, loops and each instruction's block from the instructions'
// branch targets.  Guarantees: blocks partition the instructions in order;
// every branch target starts a block.
void build_control_flow(Program& p);

}  // namespace tilelab::isa
