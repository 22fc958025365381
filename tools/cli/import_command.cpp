// `tilelab import rocprof`: what AMD's profiler measured, into the trace store
// (traces/rocprof), one run per dispatch, beside tilelab's own runs.
#include <cstdio>
#include <iostream>

#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/design_run.hpp"
#include "traces/rocprof/profile.hpp"

namespace tilelab::cli {

namespace {
const char* kHelp =
    "usage: tilelab import rocprof DIR|FILE --out FILE.h5 [--kernel NAME] [--arch A] [--shape TEXT]\n"
    "                      [--cus N --xccs N] [--run-id-prefix P] [--wait S]\n\n"
    "Reads what rocprofv3 wrote — the kernel trace (a CSV with Kind, Kernel_Name,\n"
    "Grid_Size_X...: kernel_trace.csv, kernel_trace_truncated.csv), the counter\n"
    "collection (Counter_Name, Counter_Value: counter_collection.csv, --pmc) or, when\n"
    "a folder has neither, its rocpd SQLite database (schema version 3); files are\n"
    "recognised by their first line or bytes, not their names — or a rocprof-compute\n"
    "(Omniperf) workload folder: its pmc_perf.csv, every counter pass merged, one row per\n"
    "dispatch (TCC_HIT_sum recorded as TCC_HIT; per-channel columns NAME[i] only summed\n"
    "when no NAME_sum exists), and its sysinfo.csv, whose gpu_arch, cu_per_gpu and num_xcd\n"
    "become the runs' arch and CU_NUM / XCC_NUM unless --arch/--cus/--xccs say otherwise;\n"
    "the per-pass files beside pmc_perf.csv are not read; one such per-pass table, or\n"
    "rocprofv2's, is read when given by its path (backend rocprofv2) — and adds one run per kernel\n"
    "dispatch to the HDF5 trace store FILE.h5 (kind hw, backend rocprofv3 or\n"
    "rocprof-compute; run id\n"
    "<P>-<dispatch id>, P default rocprof; when the files come from several\n"
    "processes, e.g. the ranks of an MPI job, each in its own %pid%_kernel_trace.csv,\n"
    "dispatch ids repeat and the run id names the process: <P>-<pid>-<dispatch id>;\n"
    "counters join the dispatch of their own process): the dispatch's duration in ns as its\n"
    "one repetition and its median, every counter under rocprofv3's name with its\n"
    "value summed over all hardware instances (XCCs, SEs, CUs, channels) as\n"
    "rocprofv3 reports it — quad-cycles for SQ_WAVE_CYCLES and the other counters\n"
    "AMD defines in quad-cycles — which is how the cycle model reports the same\n"
    "counters, so `tilelab compare` lines them up name by name.\n"
    "--kernel keeps only the dispatches of that kernel; --arch records the GPU's\n"
    "gfx (the kernel trace does not say it); --shape records the problem shape in\n"
    "tilelab's words (M=4096,N=4096,K=4096), so the run compares with a simulated\n"
    "run of that shape without --force (default: grid=X,Y,Z block=X,Y,Z).\n"
    "--cus N --xccs N record the GPU's CUs and XCCs (MI355X: 256 and 8) as the\n"
    "counters CU_NUM and XCC_NUM, so that compare derives MFMA utilisation and\n"
    "occupancy from GRBM_GUI_ACTIVE (counted once per XCC).\n"
    "A malformed file (truncated, wrong columns, a database of another schema\n"
    "version) is one line naming the file and the line; the store is untouched.\n"
    "The import is all or nothing: every run is published at once, and any\n"
    "failure (a run id the store already has, a full disk) leaves the store as it was.\n"
    "Exit status: 0 imported, 1 the store could not be written, 2 bad command line\n"
    "or a file that is not what rocprofv3 writes.\n";
}  // namespace

int run_import(const std::vector<std::string>& args) {
  po::options_description opts;
  opts.add_options()("help", "")("what", po::value<std::string>(), "")("path", po::value<std::string>(), "")(
      "kernel", po::value<std::string>()->default_value(""), "")(
      "arch", po::value<std::string>()->default_value(""), "")("shape", po::value<std::string>()->default_value(""), "")(
      "run-id-prefix", po::value<std::string>()->default_value("rocprof"), "")("cus", po::value<int>()->default_value(0), "")(
      "xccs", po::value<int>()->default_value(0), "");
  StoreOptions store;
  opts.add(store_options(store, false, false));
  po::positional_options_description pos;
  pos.add("what", 1).add("path", 1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("import", args, opts, vm, status, &pos)) return status;
  if (vm.count("help")) {
    std::cout << kHelp;
    return kOk;
  }
  if (!vm.count("what") || vm["what"].as<std::string>() != "rocprof")
    return usage_error("import", "expected `import rocprof DIR|FILE` (rocprofv3's output is what tilelab imports)");
  if (!vm.count("path")) return usage_error("import", "expected the rocprofv3 output folder or file");
  if (!store.out) return usage_error("import", "--out FILE.h5 is required");
  try {
    writer_options(store);
  } catch (const std::invalid_argument& e) {
    return usage_error("import", e.what());
  }
  traces::rocprof::Profile profile;
  try {
    profile = traces::rocprof::read_profile(vm["path"].as<std::string>());  // all of it, before the store is touched
  } catch (const traces::rocprof::FormatError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kUsage;
  }
  traces::rocprof::ImportOptions o;
  o.id_prefix = vm["run-id-prefix"].as<std::string>();
  o.kernel = vm["kernel"].as<std::string>();
  o.arch = vm["arch"].as<std::string>();
  o.shape = vm["shape"].as<std::string>();
  o.cus = vm["cus"].as<int>();
  o.xccs = vm["xccs"].as<int>();
  o.writer = writer_options(store);
  if (o.cus < 0 || o.xccs < 0) return usage_error("import", "--cus and --xccs take positive counts");
  try {
    const std::vector<std::string> ids = traces::rocprof::import_profile(profile, *store.out, o);
    std::printf("imported %zu dispatch(es) from %zu file(s) into %s\n", ids.size(), profile.files.size(),
                store.out->c_str());
    for (const std::string& id : ids) std::printf("  %s\n", id.c_str());
    return kOk;
  } catch (const traces::rocprof::FormatError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kUsage;
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace tilelab::cli
