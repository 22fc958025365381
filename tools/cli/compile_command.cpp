// `tilelab compile`: build a kernel's code object offline with the same
// compiler and flags as the build (kernels/CMakeLists.txt, app/compile_kernel),
// then read it back and print each kernel's resources.
#include <cstdio>
#include <stdexcept>

#include "app/compile_kernel.hpp"
#include "app/error_text.hpp"
#include "app/target.hpp"
#include "kernels/code_object_dir.hpp"
#include "sim/isa/code_object.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/code_object_report.hpp"

namespace tilelab::cli {

namespace {
// The command line of `tilelab compile`.
struct CompileOptions {
  bool help = false;
  std::optional<std::string> kernel, params;
  std::string arch = "gfx950", out_dir, cache;
};

// compile KERNEL --params NAME=V,...: one variant into the kernel cache.
int compile_variant(const CompileOptions& o) {
  std::map<std::string, std::int64_t> params;
  try {
    params = app::parse_named_shape(*o.params);
  } catch (const std::invalid_argument& e) {
    return usage_error("compile", std::string("--params: ") + e.what());
  }
  try {
    const app::CompiledVariant v =
        app::compile_variant(*o.kernel, o.arch, params, o.cache);
    const isa::CodeObject co = isa::read_code_object(v.code_object);
    std::cout << v.code_object << (v.cached ? " (cached)" : "") << "\n";
    for (const auto& k : co.kernels) print_resources(std::cout, co, k);
    return kOk;
  } catch (const std::invalid_argument& e) {
    return usage_error("compile", e.what());
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}
}  // namespace

int run_compile(const std::vector<std::string>& args) {
  std::string names;
  for (const std::string& n : app::suite_source_names())
    names += (names.empty() ? "" : ", ") + n + (app::gfx950_only(n) ? " (gfx950 only)" : "");
  const std::string help =
      "usage: tilelab compile KERNEL|all [--arch gfx950|gfx942|all] [--out-dir DIR]\n"
      "       tilelab compile KERNEL --params NAME=V,... [--arch gfx950|gfx942] [--cache DIR]\n\n"
      "Compiles kernels/<...>/KERNEL.hip offline (no GPU, no ROCm needed) into\n"
      "DIR/<arch>/KERNEL.hsaco (default DIR: the build's kernels/ folder) with the\n"
      "compiler and flags of the build, then reads the code object back and prints\n"
      "each kernel's registers, LDS, scratch, arguments and occupancy.\n"
      "KERNEL is a source name: " + names + ".\n"
      "With --arch all, gfx950-only kernels are skipped for the other arches.\n"
      "--params compiles a variant of KERNEL's template: each NAME=V as -DTL_NAME=V\n"
      "(gemm_bf16: TILE_M, TILE_N, WAVES_M, WAVES_N, SWIZZLE; kernels/gemm_bf16/\n"
      "gemm_tile.hpp; gemm_mxfp4, gemm_mxfp8: TILE_M, TILE_N, WAVES_M, WAVES_N;\n"
      "attention_fwd: TILE_Q, TILE_KV, PINGPONG, SETPRIO), into the kernel cache under\n"
      "the SHA-256 of the compiler's version, the\n"
      "flags, the params and the kernel's sources: the variant a sweep's `template`\n"
      "candidate runs; it prints the cached path (compiled, or found) and the resources.\n"
      "`tilelab check KERNEL --params ...` checks the variant's design against it.\n"
      "Exit status: 0 ok, 1 a compile failed, 2 bad command line.\n";
  CompileOptions o;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(o.help), "this text")(
      "arch", po::value(&o.arch)->value_name("gfx950|gfx942|all")->default_value("gfx950"),
      "the processor; all: every arch each source is built for")(
      "out-dir", po::value(&o.out_dir)->value_name("DIR")->default_value(kernels::code_object_dir(), "the build's kernels/"),
      "where the code objects go (DIR/<arch>/KERNEL.hsaco)")(
      "params", optional_value(o.params, "NAME=V,..."), "compile a variant of KERNEL's template into the kernel cache")(
      "cache", po::value(&o.cache)->value_name("DIR")->default_value("", "$TILELAB_KERNEL_CACHE, else ~/.cache/tilelab/kernels"),
      "the kernel cache");
  po::options_description all(opts);
  all.add_options()("kernel", optional_value(o.kernel), "");
  po::positional_options_description pos;
  pos.add("kernel", 1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("compile", args, all, vm, status, &pos)) return status;
  if (o.help) {
    print_help(std::cout, help.c_str(), opts);
    return kOk;
  }
  if (!o.kernel) return usage_error("compile", "a kernel name (or all) is required");
  if (o.params) return compile_variant(o);
  std::vector<app::CompileJob> jobs;
  try {
    jobs = app::compile_jobs(*o.kernel, o.arch);
  } catch (const std::invalid_argument& e) {
    return usage_error("compile", e.what());
  }
  for (const app::CompileJob& job : jobs) {
    try {
      const std::string out = app::compile_suite_kernel(job, o.out_dir);
      const isa::CodeObject co = isa::read_code_object(out);
      std::cout << out << "\n";
      for (const auto& k : co.kernels) print_resources(std::cout, co, k);
    } catch (const std::exception& e) {
      std::cerr << "error: " << error_text(e) << "\n";
      return kFailed;
    }
  }
  return kOk;
}

}  // namespace tilelab::cli
