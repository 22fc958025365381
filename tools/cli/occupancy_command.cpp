// `tilelab occupancy`: waves per SIMD and workgroups per CU, and what limits them.
#include "sim/lds/occupancy.hpp"
#include "app/error_text.hpp"
#include "app/lds_json.hpp"
#include "tools/cli/cli_util.hpp"

namespace tilelab::cli {

int run_occupancy(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab occupancy --arch A --vgprs N --agprs N --sgprs N --lds BYTES --wg-size N [--json]\n\n"
      "Workgroups per CU and waves per SIMD for a kernel's resources, each resource's\n"
      "own limit, and the one that binds.  --sgprs counts as the code object does\n"
      "(VCC included).  AMD architectures (the arch file's [registers]).\n";
  po::options_description opts;
  opts.add_options()("help", "")("json", "")("arch", po::value<std::string>()->default_value("gfx950"), "")(
      "vgprs", po::value<int>()->default_value(0), "")("agprs", po::value<int>()->default_value(0), "")(
      "sgprs", po::value<int>()->default_value(0), "")("lds", po::value<long long>()->default_value(0), "")(
      "wg-size", po::value<int>(), "");
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("occupancy", args, opts, vm, status)) return status;
  if (vm.count("help")) {
    std::cout << help;
    return kOk;
  }
  if (!vm.count("wg-size")) return usage_error("occupancy", "--wg-size is required");
  try {
    arch::Arch a = arch::load_arch(vm["arch"].as<std::string>());
    lds::KernelResources k{vm["vgprs"].as<int>(), vm["agprs"].as<int>(), vm["sgprs"].as<int>(),
                           vm["lds"].as<long long>(), vm["wg-size"].as<int>()};
    lds::Occupancy o = lds::occupancy(a, k);
    if (vm.count("json")) {
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
