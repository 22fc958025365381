// `tilelab disasm`: a code object's kernels, decoded through LLVM MC and
// annotated for a GPU engineer.
#include <unistd.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "sim/arch/arch.hpp"
#include "sim/emu/emulator.hpp"
#include "sim/emu/semantics.hpp"
#include "sim/isa/decoder.hpp"
#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/code_object_report.hpp"
#include "traces/text_table.hpp"

namespace tilelab::cli {

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

// The opcodes these code objects use that the functional emulator cannot run
// (no semantics, or operands it cannot read), with how often they occur and
// in how many kernels: what stands between them and a run.
int coverage(const std::vector<std::string>& files) {
  struct Use {
    std::uint64_t count = 0;
    std::set<std::string> kernels;
  };
  std::map<std::string, Use> missing;
  std::uint64_t total = 0, kernels = 0, runnable = 0;
  std::vector<std::string> verdicts;  // one line per kernel
  for (const std::string& f : files) {
    const isa::CodeObject co = isa::read_code_object(f);
    const isa::Decoder decoder(co.arch);
    for (const isa::Kernel& k : co.kernels) {
      ++kernels;
      std::optional<isa::Program> program;
      const std::string why = why_it_cannot_run(co, k, program);
      runnable += why.empty();
      verdicts.push_back("  " + k.name + " (" + f + "): " + (why.empty() ? std::string("can run") : "cannot run: " + why));
      if (!program) program = decoder.decode(co, k);  // the emulator refused it before decoding
      for (const isa::Instruction& in : program->instructions) {
        ++total;
        std::string key;
        try {
          const emu::ParsedText t = emu::parse_text(in.text);
          if (!emu::handlers().count(t.base)) key = emu::refusal(t.base).empty() ? t.base : t.base + " (refused)";
        } catch (const emu::EmuError&) {
          key = std::string(in.mnemonic()) + " (operands not read)";
        }
        if (key.empty()) continue;
        missing[key].count++;
        missing[key].kernels.insert(f + ":" + k.name);
      }
    }
  }
  std::vector<std::pair<std::string, Use>> rows(missing.begin(), missing.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  std::uint64_t uncovered = 0;
  for (const auto& [op, use] : rows) uncovered += use.count;
  std::printf("%llu kernels, %llu instructions; %zu opcodes the emulator cannot run (%llu instructions, %.1f%%)\n",
              static_cast<unsigned long long>(kernels), static_cast<unsigned long long>(total), rows.size(),
              static_cast<unsigned long long>(uncovered), total ? 100.0 * static_cast<double>(uncovered) / static_cast<double>(total) : 0.0);
  if (!rows.empty()) {
    traces::TextTable t({{"opcode", traces::TextTable::Align::left}, {"instructions"}, {"kernels"}});
    for (const auto& [op, use] : rows) t.add_row({op, std::to_string(use.count), std::to_string(use.kernels.size())});
    std::ostringstream table;
    t.print(table, "  ");
    std::fputs(table.str().c_str(), stdout);
    for (const auto& [op, use] : rows)  // the refusals: why each is left out on purpose
      if (op.ends_with(" (refused)")) {
        const std::string base = op.substr(0, op.size() - 10);
        std::printf("  %s %s\n", base.c_str(), emu::refusal(base).c_str());
      }
  }
  std::printf("%llu of %llu kernels can run (%.0f%%):\n", static_cast<unsigned long long>(runnable),
              static_cast<unsigned long long>(kernels),
              kernels ? 100.0 * static_cast<double>(runnable) / static_cast<double>(kernels) : 0.0);
  for (const std::string& v : verdicts) std::printf("%s\n", v.c_str());
  return kOk;
}

}  // namespace

int run_disasm(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab disasm FILE.hsaco [--kernel NAME] [--summary] [--no-colour]\n"
      "       tilelab disasm --coverage FILE.co...\n\n"
      "Decodes an AMDGPU code object (gfx950, gfx942, ... as its ELF header says; or\n"
      "AMDGPU assembly FILE.s / .amdgcn, assembled by LLVM MC and linked by ld.lld on\n"
      "reading, for the processor its .amdgcn_target names) with\n"
      "LLVM's MC disassembler and prints, for each kernel (or only NAME):\n"
      "  a header: registers, LDS and scratch bytes, arguments, occupancy (from the\n"
      "  arch file's occupancy calculator), instruction-class counts for the whole\n"
      "  kernel and for each loop body;\n"
      "  the listing: pc (hex), class (SALU SMEM VALU TRANS MFMA LDS LDS-DMA\n"
      "  VMEM-load VMEM-store BRANCH WAITCNT BARRIER OTHER), one '|' per enclosing\n"
      "  loop, M for MFMA and L for LDS instructions (coloured on a terminal), the\n"
      "  instruction exactly as llvm-objdump prints it, and '-> pc' for branches.\n"
      "--summary prints the header only.\n"
      "--coverage lists, over every kernel of the files, the opcodes the functional\n"
      "emulator cannot run yet, with their instruction and kernel counts (marked\n"
      "\"(refused)\" where no public source settles the semantics, with why), then how\n"
      "many kernels can run and, per kernel, \"can run\" or why not (the opcodes,\n"
      "the arch, the wave size, the scratch or the initial register state).\n"
      "Exit status: 0 ok, 1 the file is not a readable code object, 2 bad command line.\n";
  po::options_description opts;
  opts.add_options()("help", "")("summary", "")("no-colour", "")("coverage", "")(
      "file", po::value<std::vector<std::string>>(), "")(
      "kernel", po::value<std::string>(), "");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("disasm", args, opts, vm, status, &pos)) return status;
  if (vm.count("help")) {
    std::cout << help;
    return kOk;
  }
  if (!vm.count("file")) return usage_error("disasm", "a code object file is required");
  const std::vector<std::string> files = vm["file"].as<std::vector<std::string>>();
  if (!vm.count("coverage") && files.size() != 1) return usage_error("disasm", "one code object at a time (or --coverage FILES...)");
  try {
    if (vm.count("coverage")) return coverage(files);
    const isa::CodeObject co = isa::read_code_object(files[0]);
    const isa::Decoder decoder(co.arch);
    const bool colour = !vm.count("no-colour") && isatty(STDOUT_FILENO);
    std::vector<const isa::Kernel*> kernels;
    if (vm.count("kernel")) {
      kernels.push_back(&co.kernel(vm["kernel"].as<std::string>()));
    } else {
      for (const auto& k : co.kernels) kernels.push_back(&k);
    }
    for (const isa::Kernel* k : kernels) {
      const isa::Program p = decoder.decode(co, *k);
      print_resources(std::cout, co, *k);
      print_class_counts(std::cout, p);
      if (!vm.count("summary")) {
        std::cout << "\n";
        print_listing(std::cout, p, colour);
      }
      std::cout << "\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
  return kOk;
}

}  // namespace tilelab::cli
