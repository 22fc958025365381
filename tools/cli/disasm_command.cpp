// `tilelab disasm`: a code object's kernels, decoded through LLVM MC and
// annotated for a GPU engineer.
#include <unistd.h>

#include "sim/isa/decoder.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/code_object_report.hpp"

namespace tilelab::cli {

int run_disasm(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab disasm FILE.hsaco [--kernel NAME] [--summary] [--no-colour]\n\n"
      "Decodes an AMDGPU code object (gfx950, gfx942, ... as its ELF header says) with\n"
      "LLVM's MC disassembler and prints, for each kernel (or only NAME):\n"
      "  a header: registers, LDS and scratch bytes, arguments, occupancy (from the\n"
      "  arch file's occupancy calculator), instruction-class counts for the whole\n"
      "  kernel and for each loop body;\n"
      "  the listing: pc (hex), class (SALU SMEM VALU TRANS MFMA LDS LDS-DMA\n"
      "  VMEM-load VMEM-store BRANCH WAITCNT BARRIER OTHER), one '|' per enclosing\n"
      "  loop, M for MFMA and L for LDS instructions (coloured on a terminal), the\n"
      "  instruction exactly as llvm-objdump prints it, and '-> pc' for branches.\n"
      "--summary prints the header only.\n"
      "Exit status: 0 ok, 1 the file is not a readable code object, 2 bad command line.\n";
  po::options_description opts;
  opts.add_options()("help", "")("summary", "")("no-colour", "")("file", po::value<std::string>(), "")(
      "kernel", po::value<std::string>(), "");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("disasm", args, opts, vm, status, &pos)) return status;
  if (vm.count("help")) {
    std::cout << help;
    return kOk;
  }
  if (!vm.count("file")) return usage_error("disasm", "a code object file is required");
  try {
    const isa::CodeObject co = isa::read_code_object(vm["file"].as<std::string>());
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
    std::cerr << "error: " << e.what() << "\n";
    return kFailed;
  }
  return kOk;
}

}  // namespace tilelab::cli
