// `tilelab occupancy`: waves per SIMD and workgroups per CU, and what limits them.
#include "sim/lds/occupancy.hpp"
#include "app/error_text.hpp"
#include "app/lds_json.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"

namespace tilelab::cli {

int run_occupancy(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab occupancy --wg-size N [--arch A] [--vgprs N] [--agprs N] [--sgprs N] [--lds BYTES] [--json]\n\n"
      "Workgroups per CU and waves per SIMD for a kernel's resources, each resource's\n"
      "own limit, and the one that binds.  AMD architectures (the arch file's\n"
      "[registers]).\n";
  bool want_help = false, json = false;
  std::optional<std::string> arch;
  std::optional<int> wg_size;
  lds::KernelResources k{};
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(want_help), "this text")(
      "vgprs", po::value(&k.vgprs)->value_name("N")->default_value(0), "architected VGPRs per lane")(
      "agprs", po::value(&k.agprs)->value_name("N")->default_value(0), "accumulation VGPRs per lane")(
      "sgprs", po::value(&k.sgprs)->value_name("N")->default_value(0), "SGPRs, counted as the code object does (VCC included)")(
      "lds", po::value(&k.lds_bytes)->value_name("BYTES")->default_value(0), "LDS per workgroup")(
      "wg-size", optional_value(wg_size, "N"), "work-items per workgroup (required)")(
      "json", flag(json), "one JSON object");
  add_arch_option(opts, arch, "gfx950");
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("occupancy", args, opts, vm, status)) return status;
  if (want_help) {
    print_help(std::cout, help, opts);
    return kOk;
  }
  if (!wg_size) return usage_error("occupancy", "--wg-size is required");
  try {
    arch::Arch a = arch::load_arch(arch.value_or("gfx950"));
    k.workgroup_size = *wg_size;
    lds::Occupancy o = lds::occupancy(a, k);
    if (json) {
      std::cout << app::occupancy_json(a, o).dump() << "\n";
      return kOk;
    }
    std::cout << a.name << ": " << o.workgroups_per_cu << " workgroup(s) of " << o.waves_per_workgroup
              << " wave(s) per CU = " << o.waves_per_cu << " waves, " << o.waves_per_simd
              << " per SIMD; limited by " << o.limited_by << "\n";
    for (const lds::Limit& l : o.limits)
      std::cout << "  " << l.resource << std::string(14 - l.resource.size(), ' ') << l.workgroups_per_cu
                << " workgroups/CU  (" << l.detail << ")\n";
    for (const std::string& n : o.notes) std::cout << "note: " << n << "\n";
  } catch (const std::invalid_argument& e) {
    return usage_error("occupancy", e.what());
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
  return kOk;
}

}  // namespace tilelab::cli
