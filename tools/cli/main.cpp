// tilelab — the command line.  `tilelab <command> ...`; `tilelab <command> --help`.
#include <iostream>
#include <string>
#include <vector>

#include "app/provenance.hpp"
#include "kernels/code_object_dir.hpp"
#include "tools/cli/command.hpp"
#include "app/error_text.hpp"

namespace {

using tilelab::cli::Command;

const Command kCommands[] = {
    {"layout", "layout algebra calculator: evaluate CuTe expressions, draw layouts", &tilelab::cli::run_layout},
    {"arch", "show an architecture description (gfx950, gfx942, sm90)", &tilelab::cli::run_arch},
    {"lds", "bank conflicts of LDS instructions, from addresses or layouts", &tilelab::cli::run_lds},
    {"occupancy", "waves per SIMD and workgroups per CU, and the limiting resource", &tilelab::cli::run_occupancy},
    {"swizzle", "find the LDS swizzle that makes a tile's writes and reads conflict-free", &tilelab::cli::run_swizzle},
    {"compile", "compile a kernel for gfx950/gfx942 and print its resources", &tilelab::cli::run_compile},
    {"disasm", "decode a code object: annotated listing, registers, occupancy, loops", &tilelab::cli::run_disasm},
    {"check", "design check of the kernels' layout specs: LDS, conflicts, occupancy", &tilelab::cli::run_check},
    {"sim", "run a kernel's code object in the functional emulator against its reference", &tilelab::cli::run_sim},
    {"run", "run a kernel on a GPU (HIP, CUDA) or the emulator: check, time, stamp waves", &tilelab::cli::run_run},
    {"sweep", "time candidates (code objects with launch templates) at problem shapes: the winner per shape", &tilelab::cli::run_sweep},
    {"tune", "a sweep's points as an offline tuning database; the winner for one shape", &tilelab::cli::run_tune},
    {"import", "import what AMD's profiler (rocprofv3) measured into a trace store", &tilelab::cli::run_import},
    {"runs", "list and show the runs of an HDF5 trace store", &tilelab::cli::run_runs},
    {"compare", "compare two runs (simulation vs hardware) side by side", &tilelab::cli::run_compare},
    {"export", "export a run's timeline for Perfetto", &tilelab::cli::run_export},
};

void usage(std::ostream& out) {
  out << "usage: tilelab <command> [options]\n\n"
         "tilelab checks, simulates, runs and compares layout-algebra GPU kernels (gfx950 first).\n\ncommands:\n";
  for (const Command& c : kCommands) out << "  " << c.name << std::string(12 - std::string(c.name).size(), ' ') << c.summary << "\n";
  out << "\n`tilelab <command> --help` describes a command; `tilelab --version` says which build this is.\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return tilelab::cli::kUsage;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return tilelab::cli::kOk;
  }
  if (name == "--version") {
    std::cout << tilelab::app::version_line() << "\n"
              << "kernels: " << tilelab::kernels::code_object_dir() << "\n";
    return tilelab::cli::kOk;
  }
  for (const Command& c : kCommands)
    if (name == c.name) {
      // The last line of defence: whatever a command did not anticipate ends
      // in one line and exit 1, never in std::terminate.
      try {
        return c.run(std::vector<std::string>(argv + 2, argv + argc));
      } catch (const std::exception& e) {
        std::cerr << "error: tilelab " << name << ": " << tilelab::cli::error_text(e) << "\n";
      } catch (...) {
        std::cerr << "error: tilelab " << name << ": internal error (an unknown exception): please report it\n";
      }
      return tilelab::cli::kFailed;
    }
  std::cerr << "error: unknown command '" << name << "'\n";
  usage(std::cerr);
  return tilelab::cli::kUsage;
}
