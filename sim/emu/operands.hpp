// An instruction's operands and modifiers as the emulator executes them,
// read from the text llvm-objdump prints (isa::Instruction::text).  The text
// is the one stable, explicit view of an instruction: every source,
// destination and modifier is spelled out, in the ISA's order, for every
// encoding (e32, e64, SDWA, VOP3P, DS, global, SMEM, SOPP).  The decoder's
// test already holds the text equal to llvm-objdump's.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tilelab::emu {

class EmuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The flat address space's apertures (AMDGPUUsage: on GFX9+ 2^32 bytes each,
// 2^32-aligned, their bases read through the src_shared_base and
// src_private_base operands).  The values are the driver's choice, not the
// chip's; these are tilelab's [I], above every buffer the emulator allocates
// and below the cycle model's synthetic scratch addresses.  A flat access
// in the shared aperture is an LDS access, in the private one a scratch
// access of the lane, anywhere else a global one.
inline constexpr std::uint64_t kSharedAperture = std::uint64_t{1} << 48;
inline constexpr std::uint64_t kPrivateAperture = std::uint64_t{2} << 48;
inline constexpr std::uint64_t kApertureBytes = std::uint64_t{1} << 32;

// Where an operand lives.
enum class Loc : std::uint8_t {
  SGPR, VGPR, AGPR,   // s5, v[4:7], a[0:3]
  VCC, EXEC,          // 64-bit: vcc, exec (index 0); vcc_lo/exec_lo index 0 count 1, _hi index 1 count 1
  M0, SCC,
  Const,              // an inline constant or a literal
  Off,                // `off`: no address register
  Label,              // a branch target (the instruction's resolved target)
};

struct Operand {
  Loc loc = Loc::Const;
  std::uint16_t index = 0;  // first register (or half, for vcc/exec)
  std::uint8_t count = 1;   // 32-bit registers
  bool neg = false, abs = false, sext = false;  // -x, |x|, sext(x)
  bool is_float = false;    // the constant was written as a float (1.0, 0.5, ...)
  std::int64_t value = 0;   // integer constants (sign-extended), or literal bits
  double fvalue = 0;        // float constants
  // src_shared_base/limit, src_private_base/limit: a 64-bit read gives the
  // aperture's address, a 32-bit read its high dword (see kSharedAperture).
  bool aperture = false;

  // The constant as the bits of a 32-bit / 64-bit operand of this type.
  std::uint32_t bits32() const;
  std::uint64_t bits64(bool fp64) const;
};

enum class Sel : std::uint8_t { BYTE_0, BYTE_1, BYTE_2, BYTE_3, WORD_0, WORD_1, DWORD };

// DPP (data-parallel primitives, GFX9 encoding): how source 0's lanes are permuted.
enum class Dpp : std::uint8_t {
  none, quad_perm, row_shl, row_shr, row_ror, wave_shl, wave_rol, wave_shr, wave_ror, row_mirror, row_half_mirror,
  row_bcast15, row_bcast31,
  row_newbcast  // gfx90a+: lane dpp_amount of each row to the whole row (LLVM's 0x150+N, row_share on gfx10+)
};

struct Modifiers {
  std::int32_t offset = 0, offset0 = 0, offset1 = 0;  // DS, global, SMEM offsets
  bool clamp = false;
  int omod = 1;                      // mul:2, mul:4 (1/2 as div:2 is 0.5: stored as -2)
  std::array<bool, 4> op_sel{}, op_sel_hi{true, true, true, true};
  std::array<bool, 4> neg_lo{}, neg_hi{};
  bool sdwa = false;
  Sel dst_sel = Sel::DWORD, src_sel[2] = {Sel::DWORD, Sel::DWORD};
  bool dst_preserve = false;         // dst_unused:UNUSED_PRESERVE
  int cbsz = 0, abid = 0, blgp = 0;  // MFMA operand formats / broadcast
  int bitop3 = 0;
  bool glc = false, slc = false, nt = false, sc0 = false, sc1 = false, lds = false;
  // DPP: the permutation, its argument (shift, or quad_perm selectors), the
  // rows and banks written, and bound_ctrl (an invalid source lane reads 0
  // instead of disabling the write).
  Dpp dpp = Dpp::none;
  int dpp_amount = 0;
  std::array<int, 4> quad_perm{0, 1, 2, 3};
  int row_mask = 0xf, bank_mask = 0xf;
  bool bound_ctrl = false;
  // MUBUF addressing: vaddr is an offset (offen) and/or an index (idxen).
  bool offen = false, idxen = false;
  bool offset_macro = false;  // ds_swizzle's offset:swizzle(...): the raw value comes from the decoder
};

struct ParsedText {
  std::string mnemonic;        // as printed: v_add_f32_e32
  std::string base;            // without the encoding suffix: v_add_f32
  std::vector<Operand> ops;    // in printed order
  Modifiers mods;
};

// Parses one instruction's text.  Throws EmuError naming the token it cannot read.
ParsedText parse_text(std::string_view text);

}  // namespace tilelab::emu
