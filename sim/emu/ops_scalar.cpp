// Scalar ALU, compares, exec-mask manipulation, branches and program control.
// Semantics follow the CDNA3/CDNA4 ISA guides' pseudo-code; SCC rules noted
// per family.
#include <bit>

#include "sim/emu/semantics.hpp"
#include "sim/isa/program.hpp"

namespace tilelab::emu {
namespace {

const Operand& D(const Op& op) { return op.t.ops.at(0); }
std::uint32_t S(const Wave& w, const Op& op, int i) { return scalar_u32(w, op.t.ops.at(static_cast<std::size_t>(i))); }
// The instruction index of code address `address` (a pointer from
// s_getpc_b64 arithmetic) for s_setpc_b64 and s_swappc_b64.
std::uint32_t jump_target(const Op& op, const Env& e, std::uint64_t address) {
  const long index = address >= e.code_base && e.program ? e.program->index_of(address - e.code_base) : -1;
  if (index < 0)
    throw EmuError(std::string(op.inst ? op.inst->mnemonic() : "jump") + " to " + hex(address) +
                   ": not an instruction of this kernel (calls into other functions are not followed)");
  return static_cast<std::uint32_t>(index);
}

std::uint64_t S64(const Wave& w, const Op& op, int i) { return scalar_u64(w, op.t.ops.at(static_cast<std::size_t>(i))); }

// D = f(S0, S1); SCC = (D != 0) when `scc_nonzero`.
template <auto F, bool scc_nonzero>
void sop2_32(Wave& w, const Op& op, Env&) {
  std::uint32_t d = F(S(w, op, 1), S(w, op, 2));
  write_scalar_u32(w, D(op), d);
  if (scc_nonzero) w.scc = d != 0;
}
template <auto F>
void sop2_64(Wave& w, const Op& op, Env&) {  // bitwise and shift ops: SCC = (D != 0)
  std::uint64_t a = S64(w, op, 1);
  const Operand& b = op.t.ops.at(2);
  std::uint64_t d = F(a, b.count == 2 || b.loc == Loc::Const ? scalar_u64(w, b) : scalar_u32(w, b));
  write_scalar_u64(w, D(op), d);
  w.scc = d != 0;
}

template <auto F>
void sopc(Wave& w, const Op& op, Env&) { w.scc = F(S(w, op, 0), S(w, op, 1)); }

std::int32_t i32(std::uint32_t x) { return static_cast<std::int32_t>(x); }

template <int N>
void lshl_add(Wave& w, const Op& op, Env&) {
  const std::uint64_t sum = (static_cast<std::uint64_t>(S(w, op, 1)) << N) + S(w, op, 2);
  write_scalar_u32(w, D(op), static_cast<std::uint32_t>(sum));
  w.scc = (sum >> 32) != 0;
}

// EXEC-saving ops: D = EXEC; EXEC = F(S0, EXEC); SCC = EXEC != 0.
template <auto F>
void saveexec(Wave& w, const Op& op, Env&) {
  std::uint64_t old = w.exec;
  w.exec = F(S64(w, op, 1), old);
  write_scalar_u64(w, D(op), old);
  w.scc = w.exec != 0;
}

template <auto Taken>
void cbranch(Wave& w, const Op& op, Env&) {
  if (Taken(w)) w.pc = static_cast<std::uint32_t>(op.target);
}

// s_bfe: offset S1[4:0], width S1[22:16].
std::uint32_t bfe_u32(std::uint32_t x, std::uint32_t ctl) {
  std::uint32_t off = ctl & 31, width = (ctl >> 16) & 0x7f;
  if (width == 0) return 0;
  std::uint64_t v = static_cast<std::uint64_t>(x) >> off;
  return width >= 32 ? static_cast<std::uint32_t>(v) : static_cast<std::uint32_t>(v & ((1ull << width) - 1));
}
std::uint32_t bfe_i32(std::uint32_t x, std::uint32_t ctl) {
  std::uint32_t width = (ctl >> 16) & 0x7f;
  std::uint32_t u = bfe_u32(x, ctl);
  if (width == 0 || width >= 32) return u;
  std::uint32_t sign = 1u << (width - 1);
  return (u ^ sign) - sign;
}

}  // namespace

void add_scalar_ops(HandlerTable& t) {
  // Bitwise: SCC = result != 0.
  t["s_and_b32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return a & b; }), true>;
  t["s_or_b32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return a | b; }), true>;
  t["s_xor_b32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return a ^ b; }), true>;
  t["s_andn2_b32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return a & ~b; }), true>;
  t["s_orn2_b32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return a | ~b; }), true>;
  t["s_and_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return a & b; })>;
  t["s_or_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return a | b; })>;
  t["s_xor_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return a ^ b; })>;
  t["s_andn2_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return a & ~b; })>;
  t["s_orn2_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return a | ~b; })>;
  t["s_nand_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return ~(a & b); })>;
  t["s_nor_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return ~(a | b); })>;
  t["s_xnor_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return ~(a ^ b); })>;
  // Shifts (amount S1[4:0] / S1[5:0]): SCC = result != 0.
  t["s_lshl_b32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return a << (b & 31); }), true>;
  // s_bitset0/1_b32: bit S0[4:0] of the destination cleared / set, the rest kept; SCC unchanged.
  t["s_bitset1_b32"] = [](Wave& w, const Op& op, Env&) {
    write_scalar_u32(w, D(op), scalar_u32(w, D(op)) | 1u << (S(w, op, 1) & 31));
  };
  t["s_bitset0_b32"] = [](Wave& w, const Op& op, Env&) {
    write_scalar_u32(w, D(op), scalar_u32(w, D(op)) & ~(1u << (S(w, op, 1) & 31)));
  };
  t["s_lshr_b32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return a >> (b & 31); }), true>;
  t["s_ashr_i32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return static_cast<std::uint32_t>(i32(a) >> (b & 31)); }), true>;
  t["s_lshl_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return a << (b & 63); })>;
  t["s_lshr_b64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) { return a >> (b & 63); })>;
  t["s_ashr_i64"] = sop2_64<([](std::uint64_t a, std::uint64_t b) {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(a) >> (b & 63));
  })>;
  t["s_bfe_u32"] = sop2_32<bfe_u32, true>;
  // s_bfm_b64: a mask of S0[5:0] ones shifted left by S1[5:0]; SCC unchanged.
  t["s_bfm_b64"] = [](Wave& w, const Op& op, Env&) {
    const std::uint32_t width = S(w, op, 1) & 63, shift = S(w, op, 2) & 63;
    const std::uint64_t ones = width == 0 ? 0 : (~std::uint64_t{0} >> (64 - width));
    write_scalar_u64(w, D(op), ones << shift);
  };
  // s_lshlN_add_u32 (N = 1..4): D = (S0 << N) + S1; SCC = the sum's carry out of 32 bits.
  t["s_lshl1_add_u32"] = lshl_add<1>;
  t["s_lshl2_add_u32"] = lshl_add<2>;
  t["s_lshl3_add_u32"] = lshl_add<3>;
  t["s_lshl4_add_u32"] = lshl_add<4>;
  t["s_bfe_i32"] = sop2_32<bfe_i32, true>;
  // Multiplies: SCC unchanged.
  t["s_mul_i32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return a * b; }), false>;
  t["s_mul_hi_u32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) {
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
  }), false>;
  t["s_mul_hi_i32"] = sop2_32<([](std::uint32_t a, std::uint32_t b) {
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(static_cast<std::int64_t>(i32(a)) * i32(b)) >> 32);
  }), false>;
  t["s_pack_ll_b32_b16"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return (a & 0xffff) | b << 16; }), false>;
  t["s_pack_lh_b32_b16"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return (a & 0xffff) | (b & 0xffff0000); }), false>;
  t["s_pack_hh_b32_b16"] = sop2_32<([](std::uint32_t a, std::uint32_t b) { return a >> 16 | (b & 0xffff0000); }), false>;
  // Add/subtract: unsigned forms set SCC to the carry/borrow, signed ones to the overflow.
  t["s_add_u32"] = [](Wave& w, const Op& op, Env&) {
    std::uint64_t r = static_cast<std::uint64_t>(S(w, op, 1)) + S(w, op, 2);
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(r));
    w.scc = r >> 32;
  };
  t["s_addc_u32"] = [](Wave& w, const Op& op, Env&) {
    std::uint64_t r = static_cast<std::uint64_t>(S(w, op, 1)) + S(w, op, 2) + w.scc;
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(r));
    w.scc = r >> 32;
  };
  t["s_sub_u32"] = [](Wave& w, const Op& op, Env&) {
    std::uint32_t a = S(w, op, 1), b = S(w, op, 2);
    write_scalar_u32(w, D(op), a - b);
    w.scc = b > a;
  };
  t["s_subb_u32"] = [](Wave& w, const Op& op, Env&) {
    std::uint64_t a = S(w, op, 1), b = static_cast<std::uint64_t>(S(w, op, 2)) + w.scc;
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(a - b));
    w.scc = b > a;
  };
  t["s_add_i32"] = [](Wave& w, const Op& op, Env&) {
    std::int64_t r = static_cast<std::int64_t>(i32(S(w, op, 1))) + i32(S(w, op, 2));
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(r));
    w.scc = r != static_cast<std::int32_t>(r);
  };
  t["s_sub_i32"] = [](Wave& w, const Op& op, Env&) {
    std::int64_t r = static_cast<std::int64_t>(i32(S(w, op, 1))) - i32(S(w, op, 2));
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(r));
    w.scc = r != static_cast<std::int32_t>(r);
  };
  t["s_addk_i32"] = [](Wave& w, const Op& op, Env&) {  // D = D + simm16
    std::int64_t r = static_cast<std::int64_t>(i32(S(w, op, 0))) + static_cast<std::int16_t>(S(w, op, 1));
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(r));
    w.scc = r != static_cast<std::int32_t>(r);
  };
  t["s_mulk_i32"] = [](Wave& w, const Op& op, Env&) {
    write_scalar_u32(w, D(op), S(w, op, 0) * static_cast<std::uint32_t>(static_cast<std::int16_t>(S(w, op, 1))));
  };
  // min/max: SCC = 1 when S0 is chosen.
  t["s_max_i32"] = [](Wave& w, const Op& op, Env&) {
    std::int32_t a = i32(S(w, op, 1)), b = i32(S(w, op, 2));
    w.scc = a > b;
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(a > b ? a : b));
  };
  t["s_min_i32"] = [](Wave& w, const Op& op, Env&) {
    std::int32_t a = i32(S(w, op, 1)), b = i32(S(w, op, 2));
    w.scc = a < b;
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(a < b ? a : b));
  };
  t["s_max_u32"] = [](Wave& w, const Op& op, Env&) {
    std::uint32_t a = S(w, op, 1), b = S(w, op, 2);
    w.scc = a > b;
    write_scalar_u32(w, D(op), a > b ? a : b);
  };
  t["s_min_u32"] = [](Wave& w, const Op& op, Env&) {
    std::uint32_t a = S(w, op, 1), b = S(w, op, 2);
    w.scc = a < b;
    write_scalar_u32(w, D(op), a < b ? a : b);
  };
  t["s_cselect_b32"] = [](Wave& w, const Op& op, Env&) { write_scalar_u32(w, D(op), w.scc ? S(w, op, 1) : S(w, op, 2)); };
  t["s_cselect_b64"] = [](Wave& w, const Op& op, Env&) { write_scalar_u64(w, D(op), w.scc ? S64(w, op, 1) : S64(w, op, 2)); };
  // Moves.
  t["s_mov_b32"] = [](Wave& w, const Op& op, Env&) { write_scalar_u32(w, D(op), S(w, op, 1)); };
  t["s_mov_b64"] = [](Wave& w, const Op& op, Env&) { write_scalar_u64(w, D(op), S64(w, op, 1)); };
  t["s_movk_i32"] = [](Wave& w, const Op& op, Env&) {
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(static_cast<std::int16_t>(S(w, op, 1))));
  };
  t["s_not_b32"] = [](Wave& w, const Op& op, Env&) {
    std::uint32_t d = ~S(w, op, 1);
    write_scalar_u32(w, D(op), d);
    w.scc = d != 0;
  };
  t["s_not_b64"] = [](Wave& w, const Op& op, Env&) {
    std::uint64_t d = ~S64(w, op, 1);
    write_scalar_u64(w, D(op), d);
    w.scc = d != 0;
  };
  // |S0| (0x80000000 stays itself), SCC = result != 0; sign extensions leave SCC.
  t["s_abs_i32"] = [](Wave& w, const Op& op, Env&) {
    const std::uint32_t x = S(w, op, 1);
    const std::uint32_t d = static_cast<std::int32_t>(x) < 0 ? 0u - x : x;
    write_scalar_u32(w, D(op), d);
    w.scc = d != 0;
  };
  t["s_sext_i32_i8"] = [](Wave& w, const Op& op, Env&) {
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int8_t>(S(w, op, 1)))));
  };
  t["s_sext_i32_i16"] = [](Wave& w, const Op& op, Env&) {
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(S(w, op, 1)))));
  };
  t["s_ff1_i32_b32"] = [](Wave& w, const Op& op, Env&) {
    std::uint32_t x = S(w, op, 1);
    write_scalar_u32(w, D(op), x ? static_cast<std::uint32_t>(std::countr_zero(x)) : 0xffffffffu);
  };
  t["s_ff1_i32_b64"] = [](Wave& w, const Op& op, Env&) {
    std::uint64_t x = S64(w, op, 1);
    write_scalar_u32(w, D(op), x ? static_cast<std::uint32_t>(std::countr_zero(x)) : 0xffffffffu);
  };
  t["s_bcnt1_i32_b64"] = [](Wave& w, const Op& op, Env&) {
    std::uint32_t d = static_cast<std::uint32_t>(std::popcount(S64(w, op, 1)));
    write_scalar_u32(w, D(op), d);
    w.scc = d != 0;
  };
  t["s_and_saveexec_b64"] = saveexec<([](std::uint64_t s, std::uint64_t e) { return s & e; })>;
  t["s_or_saveexec_b64"] = saveexec<([](std::uint64_t s, std::uint64_t e) { return s | e; })>;
  t["s_andn2_saveexec_b64"] = saveexec<([](std::uint64_t s, std::uint64_t e) { return s & ~e; })>;
  t["s_xor_saveexec_b64"] = saveexec<([](std::uint64_t s, std::uint64_t e) { return s ^ e; })>;
  // Compares: SCC = result.
  t["s_cmp_eq_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a == b; })>;
  t["s_cmp_lg_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a != b; })>;
  t["s_cmp_gt_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a > b; })>;
  t["s_cmp_ge_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a >= b; })>;
  t["s_cmp_lt_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a < b; })>;
  t["s_cmp_le_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a <= b; })>;
  t["s_cmp_eq_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a == b; })>;
  t["s_cmp_lg_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a != b; })>;
  t["s_cmp_gt_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) > i32(b); })>;
  t["s_cmp_ge_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) >= i32(b); })>;
  t["s_cmp_lt_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) < i32(b); })>;
  t["s_cmp_le_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) <= i32(b); })>;
  t["s_cmp_eq_u64"] = [](Wave& w, const Op& op, Env&) { w.scc = S64(w, op, 0) == S64(w, op, 1); };
  t["s_cmp_lg_u64"] = [](Wave& w, const Op& op, Env&) { w.scc = S64(w, op, 0) != S64(w, op, 1); };
  // SOPK compares: the 16-bit immediate sign-extended (_i32) or zero-extended (_u32).
  t["s_cmpk_eq_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) == static_cast<std::int16_t>(b); })>;
  t["s_cmpk_lg_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) != static_cast<std::int16_t>(b); })>;
  t["s_cmpk_gt_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) > static_cast<std::int16_t>(b); })>;
  t["s_cmpk_ge_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) >= static_cast<std::int16_t>(b); })>;
  t["s_cmpk_lt_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) < static_cast<std::int16_t>(b); })>;
  t["s_cmpk_le_i32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return i32(a) <= static_cast<std::int16_t>(b); })>;
  t["s_cmpk_eq_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a == (b & 0xffff); })>;
  t["s_cmpk_lg_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a != (b & 0xffff); })>;
  t["s_cmpk_gt_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a > (b & 0xffff); })>;
  t["s_cmpk_lt_u32"] = sopc<([](std::uint32_t a, std::uint32_t b) { return a < (b & 0xffff); })>;
  // Branches: the target is resolved at load.
  t["s_branch"] = [](Wave& w, const Op& op, Env&) { w.pc = static_cast<std::uint32_t>(op.target); };
  t["s_cbranch_scc0"] = cbranch<([](const Wave& w) { return !w.scc; })>;
  t["s_cbranch_scc1"] = cbranch<([](const Wave& w) { return w.scc; })>;
  t["s_cbranch_vccz"] = cbranch<([](const Wave& w) { return w.vcc == 0; })>;
  t["s_cbranch_vccnz"] = cbranch<([](const Wave& w) { return w.vcc != 0; })>;
  t["s_cbranch_execz"] = cbranch<([](const Wave& w) { return w.exec == 0; })>;
  t["s_cbranch_execnz"] = cbranch<([](const Wave& w) { return w.exec != 0; })>;
  // Program control.  Memory operations complete when issued in the
  // functional model, so waits have nothing to wait for.
  // s_endpgm: a wave's LDS-DMA loads still in flight land before it is gone.
  t["s_endpgm"] = [](Wave& w, const Op&, Env& e) {
    if (!w.vmem_in_flight.empty() && e.memory_last) {
      w.waiting_memory = true;
      w.waiting_keep = 0;
      return;
    }
    retire_vmem(w, e, 0);
    w.done = true;
  };
  t["s_barrier"] = [](Wave& w, const Op&, Env&) {
    w.at_barrier = true;
    ++w.barriers;
  };
  // s_waitcnt: only LDS-DMA loads have an effect another wave can see; they
  // land once vmcnt (simm16 bits 3:0 and 15:14) allows at most that many in flight.
  t["s_waitcnt"] = [](Wave& w, const Op& op, Env& e) {
    if (w.vmem_in_flight.empty()) return;
    std::uint32_t simm = 0;
    for (const isa::Operand& o : op.inst->operands)
      if (o.kind == isa::Operand::Kind::Imm) {
        simm = static_cast<std::uint32_t>(o.imm);
        break;
      }
    const std::size_t vmcnt = (simm & 0xf) | ((simm >> 14) & 0x3) << 4;
    if (w.vmem_in_flight.size() <= vmcnt) return;
    if (e.memory_last) {
      w.waiting_memory = true;
      w.waiting_keep = vmcnt;
      return;
    }
    retire_vmem(w, e, vmcnt);
  };
  t["s_nop"] = [](Wave&, const Op&, Env&) {};
  t["s_sleep"] = [](Wave&, const Op&, Env&) {};
  // GPR indexing (GCN3+; the mode bits as LLVM's imask operand documents
  // them: bit 0 src0, 1 src1, 2 src2, 3 dst): s_set_gpr_idx_on sets
  // M0[7:0] = S0[7:0] and M0[15:12] = the mask and turns the mode on; the
  // indexing itself is applied by the emulator (emulator.cpp, gpr_indexed).
  t["s_set_gpr_idx_on"] = [](Wave& w, const Op& op, Env&) {
    const auto mask = static_cast<std::uint32_t>(op.inst->operands.back().imm) & 15;
    w.m0 = (w.m0 & ~0xf0ffu) | (S(w, op, 0) & 0xff) | mask << 12;
    w.gpr_index_mode = true;
  };
  t["s_set_gpr_idx_off"] = [](Wave& w, const Op&, Env&) { w.gpr_index_mode = false; };
  t["s_set_gpr_idx_idx"] = [](Wave& w, const Op& op, Env&) { w.m0 = (w.m0 & ~0xffu) | (S(w, op, 0) & 0xff); };
  t["s_set_gpr_idx_mode"] = [](Wave& w, const Op& op, Env&) {
    w.m0 = (w.m0 & ~0xf000u) | (static_cast<std::uint32_t>(op.inst->operands.back().imm) & 15) << 12;
  };
  // s_setvskip S0, S1: VSKIP = bit S1[4:0] of S0.
  t["s_setvskip"] = [](Wave& w, const Op& op, Env&) { w.vskip = (S(w, op, 0) >> (S(w, op, 1) & 31)) & 1; };
  t["s_setprio"] = [](Wave& w, const Op& op, Env&) { w.priority = static_cast<int>(S(w, op, 0) & 3); };
  // A deterministic clock: the wave's executed instruction count.
  // s_memtime: the cycle model's clock when one drives the run, else the wave's instruction count.
  t["s_memtime"] = [](Wave& w, const Op& op, Env& e) {
    write_scalar_u64(w, D(op), e.observer ? e.observer->clock() : w.executed);
  };
  // Program-counter forms.  The code object is mapped into global memory as
  // the loader lays it out (Emulator::prepare, when the kernel has
  // s_getpc_b64), so pc-relative data (rel32 relocations to .rodata, jump
  // tables) reads what it would on the device.  [O] ISA: s_getpc_b64 D = the
  // address of the next instruction; s_setpc_b64 jumps to S0; s_swappc_b64
  // D = the next instruction's address, then jumps to S0.  A target outside
  // the kernel's own code (a call into another function) stops the run.
  t["s_getpc_b64"] = [](Wave& w, const Op& op, Env& e) {
    write_scalar_u64(w, D(op), e.code_base + op.inst->pc + op.inst->size);
  };
  t["s_setpc_b64"] = [](Wave& w, const Op& op, Env& e) { w.pc = jump_target(op, e, S64(w, op, 0)); };
  t["s_swappc_b64"] = [](Wave& w, const Op& op, Env& e) {
    const std::uint32_t target = jump_target(op, e, S64(w, op, 1));
    write_scalar_u64(w, D(op), e.code_base + op.inst->pc + op.inst->size);
    w.pc = target;
  };
  // s_sendmsg: of the messages a compute wave sends ([O] ISA message table),
  // MSG_INTERRUPT (1: raise the host's interrupt, device printf's hostcall)
  // has no effect here, there being no host; the others (the geometry
  // shader's, SAVEWAVE, HALT_WAVES, ...) stop the run naming the message.
  t["s_sendmsg"] = [](Wave&, const Op& op, Env&) {
    if (op.inst->operands.empty()) throw EmuError("s_sendmsg without its message operand");
    const auto id = static_cast<std::uint32_t>(op.inst->operands.back().imm) & 15;
    if (id != 1) throw EmuError("s_sendmsg with message " + std::to_string(id) + ": only MSG_INTERRUPT (1) is modelled");
  };
  // s_memrealtime (the chip's constant-rate counter): the same clock here;
  // the emulated device reports one rate for both (hw/emu).
  t["s_memrealtime"] = t["s_memtime"];
  // s_getreg_b32 sD, hwreg(id, offset, size): simm16 = (size-1)<<11 | offset<<6 | id.
  // Modelled: HW_ID (4) of a wave placed as a single CU places them, wave
  // w of a workgroup on SIMD w % 4 in slot w / 4 (CU, SH, SE, queue 0), and
  // XCC_ID (20) = 0.  Other registers stop the run with their id.
  t["s_getreg_b32"] = [](Wave& w, const Op& op, Env&) {
    const auto imm = static_cast<std::uint32_t>(op.inst->operands.back().imm);
    const std::uint32_t id = imm & 63, offset = (imm >> 6) & 31, size = ((imm >> 11) & 31) + 1;
    std::uint32_t reg = 0;
    if (id == 4) reg = static_cast<std::uint32_t>(w.id / 4) | static_cast<std::uint32_t>(w.id % 4) << 4;
    else if (id != 20) throw EmuError("s_getreg_b32 of hardware register " + std::to_string(id) + " is not modelled");
    const std::uint64_t field = (std::uint64_t{reg} >> offset) & ((std::uint64_t{1} << size) - 1);
    write_scalar_u32(w, D(op), static_cast<std::uint32_t>(field));
  };
}

}  // namespace tilelab::emu
