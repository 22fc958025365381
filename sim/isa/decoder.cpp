#include "sim/isa/decoder.hpp"

#include <array>
#include <mutex>
#include <sstream>

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/TargetParser.h"
#include "llvm/TargetParser/Triple.h"

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUDisassembler();

namespace tilelab::isa {

namespace {
void init_llvm_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
  });
}

// LLVM's register names: "VGPR5" -> {VGPR,5,1}; "SGPR4_SGPR5_SGPR6_SGPR7" ->
// {SGPR,4,4}; "VGPR7_LO16" -> {VGPR,7,1}; "VCC" -> {VCC,0,2}; ...
RegRange parse_register(std::string_view name, unsigned llvm_reg) {
  static constexpr std::pair<std::string_view, RegFile> kFiles[] = {
      {"VGPR", RegFile::VGPR}, {"SGPR", RegFile::SGPR}, {"AGPR", RegFile::AGPR}, {"TTMP", RegFile::TTMP}};
  for (const auto& [prefix, file] : kFiles) {
    if (name.substr(0, prefix.size()) != prefix || name.size() == prefix.size() || name[prefix.size()] < '0' ||
        name[prefix.size()] > '9')
      continue;
    unsigned first = 0, count = 0;
    std::size_t at = 0;
    while (at < name.size()) {
      std::size_t end = name.find('_', at);
      if (end == std::string_view::npos) end = name.size();
      const std::string_view token = name.substr(at, end - at);
      if (token.substr(0, prefix.size()) == prefix) {
        if (count == 0)
          for (char c : token.substr(prefix.size())) first = first * 10 + static_cast<unsigned>(c - '0');
        ++count;
      }
      at = end + 1;
    }
    return {file, static_cast<std::uint16_t>(first), static_cast<std::uint16_t>(count)};
  }
  if (name == "VCC") return {RegFile::VCC, 0, 2};
  if (name == "VCC_LO") return {RegFile::VCC, 0, 1};
  if (name == "VCC_HI") return {RegFile::VCC, 1, 1};
  if (name == "EXEC") return {RegFile::EXEC, 0, 2};
  if (name == "EXEC_LO") return {RegFile::EXEC, 0, 1};
  if (name == "EXEC_HI") return {RegFile::EXEC, 1, 1};
  if (name == "M0") return {RegFile::M0, 0, 1};
  if (name == "SCC") return {RegFile::SCC, 0, 1};
  return {RegFile::SPECIAL, static_cast<std::uint16_t>(llvm_reg), 1};
}

// Encodings LLVM 22's AMDGPU disassembler must not see: an SDWA operand
// select of 7 is reserved (selects are BYTE_0..3, WORD_0..1, DWORD = 0..6),
// and llvm-objdump / llvm-mc 22.1 crash on it (found by the cut-and-flip
// test: bytes f9 06 1a 00 0d 07 06 05).  Such bytes are reported as not
// decoding, as the hardware would treat them as illegal.
bool reserved_sdwa_select(std::span<const std::uint8_t> b) {
  if (b.size() < 8) return false;
  const std::uint32_t w0 = b[0] | b[1] << 8 | b[2] << 16 | static_cast<std::uint32_t>(b[3]) << 24;
  const std::uint32_t w1 = b[4] | b[5] << 8 | b[6] << 16 | static_cast<std::uint32_t>(b[7]) << 24;
  if ((w0 >> 31) != 0 || (w0 & 0x1ff) != 0xf9) return false;  // VOP1/VOP2/VOPC with the SDWA marker
  const std::uint32_t top = w0 >> 25;
  const bool vop1 = top == 0x3f, vopc = top == 0x3e;
  const bool dst_bad = !vopc && ((w1 >> 8) & 7) == 7;
  const bool src0_bad = ((w1 >> 16) & 7) == 7;
  const bool src1_bad = !vop1 && ((w1 >> 24) & 7) == 7;
  return dst_bad || src0_bad || src1_bad;
}
}  // namespace

struct Decoder::Impl {
  std::string cpu;
  llvm::Triple triple{"amdgcn-amd-amdhsa"};
  const llvm::Target* target = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCContext> ctx;
  std::unique_ptr<llvm::MCDisassembler> disasm;
  std::unique_ptr<llvm::MCInstPrinter> printer;
  std::unique_ptr<llvm::MCInstrAnalysis> mia;
  std::vector<RegRange> registers;  // by LLVM register number, parsed once

  RegRange reg(unsigned r) const { return r < registers.size() ? registers[r] : RegRange{RegFile::SPECIAL, 0, 0}; }
};

Decoder::Decoder(const std::string& cpu) : impl_(std::make_unique<Impl>()) {
  init_llvm_once();
  Impl& d = *impl_;
  d.cpu = cpu;
  std::string err;
  d.target = llvm::TargetRegistry::lookupTarget(d.triple, err);
  if (!d.target) throw IsaError("LLVM has no AMDGPU target: " + err);
  d.mri.reset(d.target->createMCRegInfo(d.triple));
  llvm::MCTargetOptions options;
  d.mai.reset(d.target->createMCAsmInfo(*d.mri, d.triple, options));
  if (llvm::AMDGPU::parseArchAMDGCN(cpu) == llvm::AMDGPU::GK_NONE)
    throw IsaError("LLVM does not know the AMDGPU processor '" + cpu + "'");
  d.sti.reset(d.target->createMCSubtargetInfo(d.triple, cpu, ""));
  if (!d.sti || !d.sti->isCPUStringValid(cpu)) throw IsaError("LLVM does not know the AMDGPU processor '" + cpu + "'");
  d.mii.reset(d.target->createMCInstrInfo());
  d.ctx = std::make_unique<llvm::MCContext>(d.triple, d.mai.get(), d.mri.get(), d.sti.get());
  d.disasm.reset(d.target->createMCDisassembler(*d.sti, *d.ctx));
  d.printer.reset(d.target->createMCInstPrinter(d.triple, d.mai->getAssemblerDialect(), *d.mai, *d.mii, *d.mri));
  d.mia.reset(d.target->createMCInstrAnalysis(d.mii.get()));
  if (!d.disasm || !d.printer || !d.mia) throw IsaError("LLVM's AMDGPU disassembler is not available");
  d.registers.resize(d.mri->getNumRegs());
  for (unsigned r = 1; r < d.mri->getNumRegs(); ++r) d.registers[r] = parse_register(d.mri->getName(r), r);
}

Decoder::~Decoder() = default;

const std::string& Decoder::cpu() const { return impl_->cpu; }

Program Decoder::decode_bytes(std::span<const std::uint8_t> bytes, std::uint64_t pc, const std::string& where,
                              std::uint64_t file_offset) const {
  const Impl& d = *impl_;
  Program p;
  p.arch = d.cpu;
  p.entry = pc;
  p.instructions.reserve(bytes.size() / 6);
  std::string text;
  llvm::raw_string_ostream os(text);
  // The disassembler's comment stream: a real one, as llvm-objdump passes.
  // (With llvm::nulls() LLVM 22 crashes printing a comment for some corrupt
  // encodings; found by the cut-and-flip test.)
  std::string comments;
  llvm::raw_string_ostream comment_stream(comments);
  std::size_t at = 0;
  while (at < bytes.size()) {
    comments.clear();
    llvm::MCInst mc;
    std::uint64_t size = 0;
    // The last bytes go through a zero-padded copy: LLVM 22 reads a literal
    // past the end of the buffer it is given (a crash, found by the
    // cut-and-flip test); an instruction that needs the padding is refused.
    auto rest = bytes.subspan(at);
    std::array<std::uint8_t, 16> tail{};
    if (rest.size() < tail.size()) {
      std::copy(rest.begin(), rest.end(), tail.begin());
      rest = std::span<const std::uint8_t>(tail.data(), tail.size());
    }
    const bool reserved = reserved_sdwa_select(rest);
    const auto status = reserved ? llvm::MCDisassembler::Fail
                                 : d.disasm->getInstruction(mc, size, llvm::ArrayRef<std::uint8_t>(rest.data(), rest.size()),
                                                            pc + at, comment_stream);
    if (status != llvm::MCDisassembler::Success || size == 0 || size > bytes.size() - at) {
      std::ostringstream msg;
      msg << where << ": offset 0x" << std::hex << file_offset + at << ": bytes";
      for (std::size_t i = at; i < std::min(bytes.size(), at + 4); ++i)
        msg << ' ' << std::hex << (bytes[i] < 16 ? "0" : "") << static_cast<int>(bytes[i]);
      msg << " do not decode as a " << d.cpu << " instruction";
      throw IsaError(msg.str());
    }
    Instruction inst;
    inst.pc = pc + at;
    inst.size = static_cast<std::uint8_t>(size);
    inst.opcode = mc.getOpcode();
    const llvm::StringRef opname = d.mii->getName(mc.getOpcode());
    inst.opcode_name = std::string_view(opname.data(), opname.size());
    const llvm::MCInstrDesc& desc = d.mii->get(mc.getOpcode());
    inst.has_literal = size > desc.getSize() && desc.getSize() > 0;

    text.clear();
    d.printer->printInst(&mc, inst.pc, "", *d.sti, os);
    os.flush();
    std::size_t b = text.find_first_not_of(" \t");
    inst.text = b == std::string::npos ? std::string() : text.substr(b);
    for (char& c : inst.text)
      if (c == '\t') c = ' ';
    inst.mnemonic_size = static_cast<std::uint8_t>(std::min<std::size_t>(inst.text.find(' '), inst.text.size()));
    inst.cls = classify(inst.text);

    inst.operands.reserve(mc.getNumOperands());
    for (unsigned i = 0; i < mc.getNumOperands(); ++i) {
      const llvm::MCOperand& op = mc.getOperand(i);
      Operand o;
      o.is_def = i < desc.getNumDefs();
      if (op.isReg()) {
        if (op.getReg() == 0) continue;  // an absent optional register ("off")
        o.kind = Operand::Kind::Reg;
        o.reg = d.reg(op.getReg().id());
      } else if (op.isImm()) {
        o.kind = Operand::Kind::Imm;
        o.imm = op.getImm();
      } else if (op.isSFPImm() || op.isDFPImm()) {
        o.kind = Operand::Kind::Imm;
        o.imm = op.isSFPImm() ? op.getSFPImm() : static_cast<std::int64_t>(op.getDFPImm());
      } else {
        o.kind = Operand::Kind::Expr;
      }
      inst.operands.push_back(o);
    }
    for (llvm::MCPhysReg r : desc.implicit_defs()) inst.implicit_defs.push_back(d.reg(r));
    for (llvm::MCPhysReg r : desc.implicit_uses()) inst.implicit_uses.push_back(d.reg(r));

    if (d.mia->isBranch(mc) || d.mia->isCall(mc)) {
      std::uint64_t t = 0;
      if (d.mia->evaluateBranch(mc, inst.pc, size, t)) inst.target = static_cast<std::int64_t>(t);
      inst.conditional = d.mia->isConditionalBranch(mc);
    }
    p.instructions.push_back(std::move(inst));
    at += size;
  }
  build_control_flow(p);
  return p;
}

Program Decoder::decode(const CodeObject& co, const Kernel& k) const {
  Program p = decode_bytes(co.code(k), k.code_address, co.path, co.text_offset + (k.code_address - co.text_address));
  p.kernel = k.name;
  // A branch whose target has a label prints the label, as llvm-objdump does.
  if (!co.labels.empty())
    for (Instruction& in : p.instructions) {
      if (in.target < 0) continue;
      for (const auto& [address, name] : co.labels)
        if (address == static_cast<std::uint64_t>(in.target)) {
          const std::size_t last = in.text.rfind(' ');
          if (last != std::string::npos) in.text = in.text.substr(0, last + 1) + name;
          break;
        }
    }
  return p;
}

Program decode_kernel(const CodeObject& co, const std::string& kernel) {
  const Decoder d(co.arch);
  return d.decode(co, co.kernel(kernel));
}

}  // namespace tilelab::isa
