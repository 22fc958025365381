#include "app/emulator_coverage.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "sim/arch/arch.hpp"
#include "sim/emu/emulator.hpp"
#include "sim/emu/semantics.hpp"
#include "sim/isa/decoder.hpp"

namespace tilelab::app {

namespace {

// Why the functional emulator cannot run kernel k, or "" when it can. The
// emulator says it itself: the code object's arch, wave size and scratch (its
// constructor), every opcode and operand form, the initial register state.
// `program` receives the decoded kernel when the emulator got that far.
std::string why_it_cannot_run(const isa::CodeObject& co, const isa::Kernel& k, std::optional<isa::Program>& program) {
  try {
    const emu::Emulator e(co, k.name, arch::load_arch(co.arch));
    program = e.program();
    const std::vector<std::string> ops = e.unimplemented();
    if (ops.empty()) return e.launch_refusal();
    if (ops.size() == 1 && !emu::refusal(ops[0]).empty()) return ops[0] + " " + emu::refusal(ops[0]);
    std::string why = std::to_string(ops.size()) + (ops.size() == 1 ? " opcode" : " opcodes") +
                      " without semantics in the emulator: ";
    for (std::size_t i = 0; i < ops.size() && i < 4; ++i) why += (i ? ", " : "") + ops[i];
    return ops.size() > 4 ? why + ", ..." : why;
  } catch (const std::exception& e) {  // EmuError, ArchError: the reason in one line
    return e.what();
  }
}

// The gap an instruction falls in, or nullopt when the emulator runs it.
std::optional<std::pair<std::string, std::string>> gap_of(const isa::Instruction& in) {
  try {
    const emu::ParsedText t = emu::parse_text(in.text);
    if (emu::handlers().count(t.base)) return std::nullopt;
    return std::make_pair(t.base, std::string(emu::refusal(t.base).empty() ? "no semantics" : "refused"));
  } catch (const emu::EmuError&) {
    return std::make_pair(std::string(in.mnemonic()), std::string("operands not read"));
  }
}

}  // namespace

std::uint64_t EmulatorCoverage::uncovered() const {
  std::uint64_t n = 0;
  for (const OpcodeGap& g : gaps) n += g.instructions;
  return n;
}

EmulatorCoverage emulator_coverage(const std::vector<std::string>& files) {
  struct Use {
    std::uint64_t count = 0;
    std::set<std::string> kernels;
  };
  std::map<std::pair<std::string, std::string>, Use> missing;  // (opcode, kind)
  EmulatorCoverage c;
  for (const std::string& f : files) {
    const isa::CodeObject co = isa::read_code_object(f);
    const isa::Decoder decoder(co.arch);
    for (const isa::Kernel& k : co.kernels) {
      ++c.kernels;
      std::optional<isa::Program> program;
      const std::string why = why_it_cannot_run(co, k, program);
      c.runnable += why.empty();
      c.verdicts.push_back({k.name, f, why});
      if (!program) program = decoder.decode(co, k);  // the emulator refused it before decoding
      for (const isa::Instruction& in : program->instructions) {
        ++c.instructions;
        if (const auto gap = gap_of(in)) {
          Use& u = missing[*gap];
          ++u.count;
          u.kernels.insert(f + ":" + k.name);
        }
      }
    }
  }
  for (const auto& [key, use] : missing)
    c.gaps.push_back({key.first, key.second, key.second == "refused" ? emu::refusal(key.first) : "", use.count,
                      static_cast<std::uint64_t>(use.kernels.size())});
  std::stable_sort(c.gaps.begin(), c.gaps.end(),
                   [](const OpcodeGap& a, const OpcodeGap& b) { return a.instructions > b.instructions; });
  return c;
}

Json coverage_json(const EmulatorCoverage& c) {
  Json gaps = Json::array(), verdicts = Json::array();
  for (const OpcodeGap& g : c.gaps)
    gaps.push_back({{"opcode", g.opcode}, {"kind", g.kind}, {"refusal", g.refusal}, {"instructions", g.instructions},
                    {"kernels", g.kernels}});
  for (const KernelVerdict& v : c.verdicts)
    verdicts.push_back({{"kernel", v.kernel}, {"file", v.file}, {"can_run", v.why.empty()}, {"why", v.why}});
  return {{"kernels", c.kernels}, {"instructions", c.instructions}, {"runnable", c.runnable},
          {"uncovered", c.uncovered()}, {"gaps", gaps}, {"verdicts", verdicts}};
}

}  // namespace tilelab::app
