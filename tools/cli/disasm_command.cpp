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
#include "sim/isa/source_lines.hpp"
#include "app/emulator_coverage.hpp"
#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/code_object_report.hpp"
#include "traces/text_table.hpp"

namespace tilelab::cli {

namespace {

// `--coverage`: app/emulator_coverage's answer as a table (or --json).
int coverage(const std::vector<std::string>& files, bool json) {
  const app::EmulatorCoverage c = app::emulator_coverage(files);
  if (json) {
    std::printf("%s\n", app::coverage_json(c).dump(2).c_str());
    return kOk;
  }
  const std::uint64_t uncovered = c.uncovered();
  std::printf("%llu kernels, %llu instructions; %zu opcodes the emulator cannot run (%llu instructions, %.1f%%)\n",
              static_cast<unsigned long long>(c.kernels), static_cast<unsigned long long>(c.instructions), c.gaps.size(),
              static_cast<unsigned long long>(uncovered),
              c.instructions ? 100.0 * static_cast<double>(uncovered) / static_cast<double>(c.instructions) : 0.0);
  if (!c.gaps.empty()) {
    traces::TextTable t({{"opcode", traces::TextTable::Align::left}, {"instructions"}, {"kernels"}});
    for (const app::OpcodeGap& g : c.gaps)
      t.add_row({g.kind == "no semantics" ? g.opcode : g.opcode + " (" + g.kind + ")", std::to_string(g.instructions),
                 std::to_string(g.kernels)});
    std::ostringstream table;
    t.print(table, "  ");
    std::fputs(table.str().c_str(), stdout);
    for (const app::OpcodeGap& g : c.gaps)  // the refusals: why each is left out on purpose
      if (g.kind == "refused") std::printf("  %s %s\n", g.opcode.c_str(), g.refusal.c_str());
  }
  std::printf("%llu of %llu kernels can run (%.0f%%):\n", static_cast<unsigned long long>(c.runnable),
              static_cast<unsigned long long>(c.kernels),
              c.kernels ? 100.0 * static_cast<double>(c.runnable) / static_cast<double>(c.kernels) : 0.0);
  for (const app::KernelVerdict& v : c.verdicts)
    std::printf("  %s (%s): %s\n", v.kernel.c_str(), v.file.c_str(), v.why.empty() ? "can run" : ("cannot run: " + v.why).c_str());
  return kOk;
}

}  // namespace

int run_disasm(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab disasm FILE.hsaco [--kernel NAME] [--summary] [--source] [--no-colour]\n"
      "       tilelab disasm --coverage FILE.co... [--json]\n\n"
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
      "The suite's kernels are built with a DWARF line table (for --source); a code\n"
      "object without one gets no source lines.\n"
      "--coverage lists, over every kernel of the files, the opcodes the functional\n"
      "emulator cannot run yet, with their instruction and kernel counts (marked\n"
      "\"(refused)\" where no public source settles the semantics, with why), then how\n"
      "many kernels can run and, per kernel, \"can run\" or why not (the opcodes,\n"
      "the arch, the wave size, the scratch or the initial register state); --json\n"
      "gives it as one JSON object (what Python's tilelab.coverage returns).\n"
      "Exit status: 0 ok, 1 the file is not a readable code object, 2 bad command line.\n";
  bool want_help = false, summary = false, with_source = false, no_colour = false, coverage_only = false, json = false;
  std::vector<std::string> files;
  std::optional<std::string> kernel;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(want_help), "this text")(
      "kernel", optional_value(kernel, "NAME"), "only this kernel of the code object")(
      "summary", flag(summary), "the header only")(
      "source", flag(with_source), "'; file:line' where the source line changes (DWARF line table)")(
      "no-colour", flag(no_colour), "no colour even on a terminal")(
      "coverage", flag(coverage_only), "what the emulator can run, over every kernel of the FILES")(
      "json", flag(json), "with --coverage: one JSON object");
  po::options_description all(opts);
  all.add_options()("file", po::value(&files), "");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("disasm", args, all, vm, status, &pos)) return status;
  if (want_help) {
    print_help(std::cout, help, opts);
    return kOk;
  }
  if (files.empty()) return usage_error("disasm", "a code object file is required");
  if (!coverage_only && files.size() != 1) return usage_error("disasm", "one code object at a time (or --coverage FILES...)");
  try {
    if (coverage_only) return coverage(files, json);
    const isa::CodeObject co = isa::read_code_object(files[0]);
    const isa::Decoder decoder(co.arch);
    const bool colour = !no_colour && isatty(STDOUT_FILENO);
    std::vector<const isa::Kernel*> kernels;
    if (kernel) {
      kernels.push_back(&co.kernel(*kernel));
    } else {
      for (const auto& k : co.kernels) kernels.push_back(&k);
    }
    for (const isa::Kernel* k : kernels) {
      const isa::Program p = decoder.decode(co, *k);
      print_resources(std::cout, co, *k);
      print_class_counts(std::cout, p);
      if (!summary) {
        std::cout << "\n";
        std::vector<std::string> source;
        if (with_source) {
          std::vector<std::uint64_t> pcs;
          for (const isa::Instruction& in : p.instructions) pcs.push_back(in.pc);
          source = isa::source_lines(co, pcs);
        }
        print_listing(std::cout, p, colour, source);
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
