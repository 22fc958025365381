#include "sim/timing/instruction_timing.hpp"

#include <algorithm>
#include <string_view>

namespace tilelab::timing {

WaitcntFields decode_waitcnt(std::uint32_t s) {
  return {static_cast<int>((s & 0xf) | ((s >> 14) & 0x3) << 4), static_cast<int>((s >> 4) & 0x7),
          static_cast<int>((s >> 8) & 0xf)};
}

namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

int first_imm(const isa::Instruction& in) {
  for (const isa::Operand& o : in.operands)
    if (o.kind == isa::Operand::Kind::Imm) return static_cast<int>(o.imm);
  return 0;
}

// The vector registers an instruction reads and writes, in MC operand order
// (defs first).  For an MFMA the uses are SrcA, SrcB, SrcC, then the scales.
VectorUse vector_use(const isa::Instruction& in, bool mfma, int passes) {
  VectorUse u;
  u.mfma = mfma;
  u.passes = passes;
  int use = 0;
  for (const isa::Operand& o : in.operands) {
    if (o.kind != isa::Operand::Kind::Reg) continue;
    if (o.reg.file != isa::RegFile::VGPR && o.reg.file != isa::RegFile::AGPR) continue;
    VRegs r{o.reg.file == isa::RegFile::AGPR, o.reg.first, o.reg.count};
    if (o.is_def) {
      u.writes.push_back(r);
    } else if (mfma && use++ == 2) {
      u.has_srcc = true;
      u.srcc = r;
    } else {
      u.reads.push_back(r);
    }
  }
  return u;
}

// When the SIMD's VALU may take another op after an MFMA (VIC, CXF in
// docs/facts/cu-facts.md).  An XDL op lets plain VALU issue from slot
// 1 + widest SrcA/B bytes per lane / mfma_valu_bytes_per_slot, packed FP32 and
// dot from passes + mfma_pk_valu_extra_slots (+1 for 16 B sources); an SMFMAC
// from smfmac_valu_slot; SGEMM/DGEMM (FP32/FP64 sources) hold both until
// passes + mfma_pk_valu_extra_slots.
void mfma_co_issue(InstructionTiming& t, std::string_view base, const arch::Timing& g) {
  int widest = 0;
  for (std::size_t k = 0; k < t.vregs.reads.size() && k < 2; ++k) widest = std::max(widest, 4 * t.vregs.reads[k].count);
  const bool full_precision = base.ends_with("_f32") || base.ends_with("_f64") || base.ends_with("xf32");
  if (full_precision) {
    t.valu_slot = t.pk_valu_slot = t.passes + g.mfma_pk_valu_extra_slots;
  } else if (base.starts_with("v_smfmac")) {
    t.valu_slot = g.smfmac_valu_slot;  // packed FP32 after an SMFMAC is not published: the XDL rule
    t.pk_valu_slot = t.passes + g.mfma_pk_valu_extra_slots + (widest >= 16 ? 1 : 0);
  } else {
    t.valu_slot = 1 + widest / g.mfma_valu_bytes_per_slot;
    t.pk_valu_slot = t.passes + g.mfma_pk_valu_extra_slots + (widest >= 16 ? 1 : 0);
  }
}

bool packed_fp32(std::string_view m) {
  return m.starts_with("v_pk_fma_f32") || m.starts_with("v_pk_mul_f32") || m.starts_with("v_pk_add_f32") ||
         m.starts_with("v_pk_mov_b32") || m.starts_with("v_dot");
}


}  // namespace

std::vector<InstructionTiming> instruction_timing(const emu::Emulator& e, const arch::Arch& a) {
  const isa::Program& p = e.program();
  std::vector<InstructionTiming> out(p.instructions.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const isa::Instruction& in = p.instructions[i];
    const emu::Op& op = e.op(i);
    const std::string_view m = in.mnemonic();
    InstructionTiming& t = out[i];
    t.cls = in.cls;
    switch (in.cls) {
      case isa::InstClass::SALU: t.kind = Kind::salu, t.unit = Unit::salu; break;
      case isa::InstClass::SMEM: t.kind = Kind::smem, t.unit = Unit::salu; break;
      case isa::InstClass::VALU: t.kind = Kind::valu, t.unit = Unit::valu; break;
      case isa::InstClass::TRANS: t.kind = Kind::trans, t.unit = Unit::valu; break;
      case isa::InstClass::LDS: t.kind = Kind::lds, t.unit = Unit::lds; break;
      case isa::InstClass::LDS_DMA: t.kind = Kind::lds_dma, t.unit = Unit::vmem; break;
      case isa::InstClass::VMEM_LOAD: t.kind = Kind::vmem_load, t.unit = Unit::vmem; break;
      case isa::InstClass::VMEM_STORE: t.kind = Kind::vmem_store, t.unit = Unit::vmem; break;
      case isa::InstClass::BARRIER: t.kind = Kind::barrier; break;
      case isa::InstClass::WAITCNT: {
        if (m != "s_waitcnt") {
          t.why_untimed = "no timing class for '" + std::string(m) + "'";
          break;
        }
        t.kind = Kind::waitcnt;
        const WaitcntFields f = decode_waitcnt(static_cast<std::uint32_t>(first_imm(in)));
        const arch::Timing& g = a.timing;
        t.vmcnt = f.vmcnt >= g.vmcnt_max ? -1 : f.vmcnt;  // the field's maximum waits for nothing
        t.lgkmcnt = f.lgkmcnt >= g.lgkmcnt_max ? -1 : f.lgkmcnt;
        t.expcnt = f.expcnt >= g.expcnt_max ? -1 : f.expcnt;
        break;
      }
      case isa::InstClass::BRANCH:
        if (m == "s_endpgm") t.kind = Kind::endpgm;
        else t.kind = Kind::branch, t.unit = Unit::branch;
        break;
      case isa::InstClass::MFMA: {
        const arch::MfmaInstruction* mf = a.find_mfma(op.t.base);
        if (!mf) {
          t.why_untimed = "the " + a.name + " arch file has no [mfma." + op.t.base + "] entry (its passes are unknown)";
          break;
        }
        t.kind = Kind::mfma, t.unit = Unit::valu;
        t.mfma_cycles = arch::mfma_issue_cycles(*mf, op.t.mods.cbsz, op.t.mods.blgp);
        t.passes = t.mfma_cycles / 4;
        t.flops = 2.0 * mf->m * mf->n * mf->k;
        break;
      }
      case isa::InstClass::OTHER:
        if (starts(m, "s_nop")) t.kind = Kind::nop, t.count = first_imm(in);
        else if (starts(m, "s_sleep")) t.kind = Kind::sleep, t.count = first_imm(in);
        else if (starts(m, "s_setprio")) t.kind = Kind::setprio;
        else t.why_untimed = "no timing class for '" + std::string(m) + "'";
        break;
    }
    if (t.kind == Kind::vmem_load || t.kind == Kind::vmem_store || t.kind == Kind::lds_dma) {
      const auto& x = op.t.mods;
      // On an atomic, sc0 (glc) asks for the old value back: not a cache policy.
      const bool atomic = m.find("atomic") != std::string_view::npos;
      t.cache_policy = x.nt || x.sc1 || x.slc || (!atomic && (x.sc0 || x.glc));
    }
    t.vregs = vector_use(in, t.kind == Kind::mfma, t.passes);
    if (t.kind == Kind::mfma) mfma_co_issue(t, op.t.base, a.timing);
    if (t.kind == Kind::valu) t.pk_f32 = packed_fp32(m);
    if (t.kind == Kind::valu || t.kind == Kind::trans) {
      t.vregs.valu = true;
      t.vregs.writes_exec = m.starts_with("v_cmpx");
      for (const isa::Operand& o : in.operands)
        if (o.kind == isa::Operand::Kind::Reg && o.is_def && o.reg.file == isa::RegFile::EXEC) t.vregs.writes_exec = true;
    }
  }
  return out;
}

}  // namespace tilelab::timing
