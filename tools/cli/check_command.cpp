// `tilelab check`: the design check of every kernel spec (or one), on an
// architecture: LDS use, exact bank conflicts of each designed access,
// occupancy from the compiled code object, and spec/code-object agreement.
#include <filesystem>

#include "generated/kernel_build.hpp"
#include "kernels/design_check.hpp"
#include "sim/isa/code_object.hpp"
#include "tools/cli/cli_util.hpp"

namespace tilelab::cli {

namespace {
namespace fs = std::filesystem;

std::optional<kernels::CompiledFacts> compiled_facts(const kernels::KernelSpec& spec, const std::string& arch,
                                                     const std::string& dir) {
  const fs::path file = fs::path(dir) / arch / (fs::path(spec.source).stem().string() + ".hsaco");
  if (!fs::exists(file)) return std::nullopt;
  const isa::CodeObject co = isa::read_code_object(file.string());
  const isa::Kernel& k = co.kernel(spec.name);
  return kernels::CompiledFacts{k.vgpr_count, k.agpr_count, k.sgpr_count, k.group_segment_fixed_size,
                                k.private_segment_fixed_size, k.max_flat_workgroup_size};
}

void print_report(const kernels::KernelSpec& spec, const kernels::DesignReport& r) {
  std::cout << spec.name << " on " << r.arch << ": " << (r.problems.empty() ? "clean" : "PROBLEMS") << "\n"
            << "  " << spec.summary << "\n"
            << "  block tile: " << spec.block_tile << "\n  waves: " << spec.wave_layout
            << "\n  threads/values: " << spec.thread_values << "\n  copy: " << spec.copy_atom
            << "; MFMA: " << spec.mfma_atom << "; pipeline depth " << spec.pipeline_depth << "\n"
            << "  LDS: " << r.lds_bytes << " of " << r.lds_capacity << " bytes\n";
  for (const auto& b : spec.lds)
    std::cout << "    " << b.name << ": " << b.layout() << " x" << b.stages << " stage(s), " << b.elem_bytes
              << "-byte elements, " << b.bytes() << " bytes\n";
  for (const auto& a : r.accesses)
    std::cout << "    " << a.what << " [" << a.instruction << "]: " << a.instructions << " instruction(s), "
              << a.cycles << " cycles, " << a.conflict_cycles << " conflict cycles, worst " << a.worst_ways
              << "-way\n";
  if (r.compiled)
    std::cout << "  compiled: " << r.compiled->vgprs << " VGPRs, " << r.compiled->agprs << " AGPRs, "
              << r.compiled->sgprs << " SGPRs, " << r.compiled->lds_bytes << " LDS bytes, "
              << r.compiled->scratch_bytes << " scratch bytes/lane\n";
  if (r.occupancy)
    std::cout << "  occupancy: " << r.occupancy->workgroups_per_cu << " workgroup(s)/CU, "
              << r.occupancy->waves_per_simd << " waves/SIMD; limited by " << r.limited_by << "\n";
  else
    std::cout << "  occupancy: " << r.limited_by << "\n";
  for (const auto& p : r.problems) std::cout << "  problem: " << p << "\n";
  for (const auto& n : r.notes) std::cout << "  note: " << n << "\n";
}
}  // namespace

int run_check(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab check [KERNEL] [--arch gfx950|gfx942] [--code-objects DIR]\n\n"
      "The design check of each kernel's layout spec (kernels/<name>/spec.cpp), or of\n"
      "KERNEL only: the block tile and its split over waves, threads and values; every\n"
      "LDS buffer (layout, swizzle, stages) against the LDS the arch has; the exact\n"
      "bank-conflict cycles of every designed LDS access (sim/lds's model, in\n"
      "SQ_LDS_BANK_CONFLICT units); occupancy and what limits it, from the compiled\n"
      "code object's registers (DIR/<arch>/<source>.hsaco, default: the build's); and\n"
      "whether the code object's LDS bytes and workgroup size agree with the spec.\n"
      "A report is 'clean' when none of these finds a problem.\n"
      "Exit status: 0 all clean, 1 some report has problems, 2 bad command line.\n";
  po::options_description opts;
  opts.add_options()("help", "")("kernel", po::value<std::string>(), "")(
      "arch", po::value<std::string>()->default_value("gfx950"), "")(
      "code-objects", po::value<std::string>()->default_value(kernels::build::kCodeObjectDir), "");
  po::positional_options_description pos;
  pos.add("kernel", 1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("check", args, opts, vm, status, &pos)) return status;
  if (vm.count("help")) {
    std::cout << help;
    return kOk;
  }
  try {
    const arch::Arch a = arch::load_arch(vm["arch"].as<std::string>());
    std::vector<const kernels::KernelSpec*> specs;
    if (vm.count("kernel")) {
      specs.push_back(&kernels::find_spec(vm["kernel"].as<std::string>()));
    } else {
      for (const auto& s : kernels::all_specs())
        if (std::find(s.archs.begin(), s.archs.end(), a.name) != s.archs.end()) specs.push_back(&s);
    }
    int with_problems = 0;
    for (const auto* s : specs) {
      if (std::find(s->archs.begin(), s->archs.end(), a.name) == s->archs.end())
        return usage_error("check", s->name + " is not built for " + a.name);
      const auto r = kernels::design_check(*s, a, compiled_facts(*s, a.name, vm["code-objects"].as<std::string>()));
      print_report(*s, r);
      with_problems += !r.problems.empty();
    }
    std::cout << specs.size() << " kernel(s) checked on " << a.name << ", " << with_problems << " with problems\n";
    return with_problems ? kFailed : kOk;
  } catch (const std::invalid_argument& e) {
    return usage_error("check", e.what());
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kFailed;
  }
}

}  // namespace tilelab::cli
