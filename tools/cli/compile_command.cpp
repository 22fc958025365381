// `tilelab compile`: build a kernel's code object offline with the same
// compiler and flags as the build (kernels/CMakeLists.txt), then read it back
// and print each kernel's resources.
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

#include "kernels/code_object_dir.hpp"
#include "generated/kernel_build.hpp"
#include "sim/isa/code_object.hpp"
#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/code_object_report.hpp"

extern char** environ;

namespace tilelab::cli {

namespace {
namespace fs = std::filesystem;
namespace build = kernels::build;

// Runs argv; returns the exit status (127 when it could not start).
int run_process(const std::vector<std::string>& argv) {
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, cargs[0], nullptr, nullptr, cargs.data(), environ) != 0) return 127;
  int st = 0;
  if (waitpid(pid, &st, 0) < 0) return 127;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

// Compiles one source for one arch into DIR/<arch>/<name>.hsaco.  The linker
// (lld) writes its output through a temporary file renamed into place, so a
// reader never sees half a code object; after a failed compile no stale file
// is left.  The output path is passed as is: lld's output depends on it (the
// .gnu.hash section differs between paths), so the same path gives the same
// bytes as the build.
bool compile(const std::string& source, const std::string& arch, const fs::path& out_dir, fs::path& out) {
  const std::string name = fs::path(source).stem().string();
  fs::create_directories(out_dir / arch);
  out = out_dir / arch / (name + ".hsaco");
  std::vector<std::string> argv{build::kCompiler};
  for (const char* f : build::kFlags) argv.push_back(f);
  argv.push_back("--offload-arch=" + arch);
  argv.push_back(std::string("-I") + build::kSourceDir);
  argv.push_back("-o");
  argv.push_back(out.string());
  argv.push_back((fs::path(build::kSourceDir) / "kernels" / source).string());
  const int rc = run_process(argv);
  if (rc != 0) {
    std::error_code ec;
    fs::remove(out, ec);
    std::cerr << "error: " << source << " failed to compile for " << arch << " ("
              << (rc == 127 ? std::string("cannot run ") + build::kCompiler : "exit status " + std::to_string(rc))
              << ")\n";
    return false;
  }
  return true;
}
// Sources built for gfx950 only: instructions or LDS only gfx950 has (kernels/CMakeLists.txt).
bool gfx950_only(const std::string& source) {
  for (const char* o : build::kGfx950Only)
    if (source == o) return true;
  return false;
}
}  // namespace

int run_compile(const std::vector<std::string>& args) {
  std::string names;
  for (const char* src : build::kSources) {
    const std::string n = fs::path(src).stem().string();
    names += (names.empty() ? "" : ", ") + n + (gfx950_only(src) ? " (gfx950 only)" : "");
  }
  const std::string help =
      "usage: tilelab compile KERNEL|all [--arch gfx950|gfx942|all] [--out-dir DIR]\n\n"
      "Compiles kernels/<...>/KERNEL.hip offline (no GPU, no ROCm needed) into\n"
      "DIR/<arch>/KERNEL.hsaco (default DIR: the build's kernels/ folder) with the\n"
      "compiler and flags of the build, then reads the code object back and prints\n"
      "each kernel's registers, LDS, scratch, arguments and occupancy.\n"
      "KERNEL is a source name: " + names + ".\n"
      "--arch defaults to gfx950; with --arch all, gfx950-only kernels are skipped for\n"
      "the other arches.\n"
      "Exit status: 0 ok, 1 a compile failed, 2 bad command line.\n";
  po::options_description opts;
  opts.add_options()("help", "")("kernel", po::value<std::string>(), "")(
      "arch", po::value<std::string>()->default_value("gfx950"), "")(
      "out-dir", po::value<std::string>()->default_value(kernels::code_object_dir()), "");
  po::positional_options_description pos;
  pos.add("kernel", 1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("compile", args, opts, vm, status, &pos)) return status;
  if (vm.count("help")) {
    std::cout << help;
    return kOk;
  }
  if (!vm.count("kernel")) return usage_error("compile", "a kernel name (or all) is required");
  const std::string want = vm["kernel"].as<std::string>();
  const std::string arch = vm["arch"].as<std::string>();
  std::vector<std::string> archs;
  if (arch == "all") {
    archs = {"gfx950", "gfx942"};
  } else if (arch == "gfx950" || arch == "gfx942") {
    archs = {arch};
  } else {
    return usage_error("compile", "--arch: '" + arch + "' is not gfx950, gfx942 or all");
  }
  std::vector<std::string> sources;
  std::string known;
  for (const char* s : build::kSources) {
    const std::string name = fs::path(s).stem().string();
    known += (known.empty() ? "" : ", ") + name;
    if (want == "all" || want == name) sources.push_back(s);
  }
  if (sources.empty()) return usage_error("compile", "no kernel named '" + want + "' (there are: " + known + ")");
  try {
    for (const auto& a : archs)
      for (const auto& s : sources) {
        if (a != "gfx950" && gfx950_only(s)) {
          if (arch == "all") continue;
          return usage_error("compile", fs::path(s).stem().string() + " is built for gfx950 only (instructions or LDS only gfx950 has)");
        }
        fs::path out;
        if (!compile(s, a, vm["out-dir"].as<std::string>(), out)) return kFailed;
        const isa::CodeObject co = isa::read_code_object(out.string());
        std::cout << out.string() << "\n";
        for (const auto& k : co.kernels) print_resources(std::cout, co, k);
      }
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
  return kOk;
}

}  // namespace tilelab::cli
