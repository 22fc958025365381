// `tilelab arch show NAME|FILE`, `tilelab arch list`.
#include "sim/arch/arch.hpp"
#include "tools/cli/cli_util.hpp"

namespace tilelab::cli {

int run_arch(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab arch list\n"
      "       tilelab arch show NAME|FILE.toml\n\n"
      "Prints an architecture description: chip, registers, LDS figures and every LDS\n"
      "instruction's phases, each with how it is known (measured, official, inferred,\n"
      "or assumed where the figure is not known).  Built in: the sim/arch/*.toml files.\n";
  if (args.empty()) return usage_error("arch", "arch needs a subcommand: list or show");
  if (args[0] == "--help" || args[0] == "-h") {
    std::cout << help;
    return kOk;
  }
  if (args[0] == "list" && args.size() == 1) {
    for (const std::string& n : arch::builtin_arch_names()) std::cout << n << "\n";
    return kOk;
  }
  if (args[0] != "show" || args.size() != 2) return usage_error("arch", "expected 'list' or 'show NAME'");
  try {
    std::cout << arch::describe(arch::load_arch(args[1]));
  } catch (const arch::ArchError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kFailed;
  }
  return kOk;
}

}  // namespace tilelab::cli
