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

    "A malformed file (truncated, wrong columns, a database of another schema\n"
    "version) is one line naming the file and the line; the store is untouched.\n"
    "The import is all or nothing: every run is published at once, and any\n"
    "failure (a run id the store already has, a full disk) leaves the store as it was.\n"
    "Exit status: 0 imported, 1 the store could not be written, 2 bad command line\n"
    "or a file that is not what rocprofv3 writes.\n";
}  // namespace

int run_import(const std::vector<std::string>& args) {
  bool want_help = false;
  std::optional<std::string> what, path;
  traces::rocprof::ImportOptions o;
  o.id_prefix = "rocprof";
  StoreOptions store;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(want_help), "this text")(
      "kernel", po::value(&o.kernel)->value_name("NAME"), "keep only the dispatches of this kernel")(
      "arch", po::value(&o.arch)->value_name("GFX"), "the GPU's gfx (the kernel trace does not say it; a workload's sysinfo.csv does)")(
      "shape", po::value(&o.shape)->value_name("TEXT"),
      "the problem shape in tilelab's words (M=4096,N=4096,K=4096), so the run compares with a simulated run of "
      "that shape without --force (default: grid=X,Y,Z block=X,Y,Z)")(
      "cus", po::value(&o.cus)->value_name("N"), "the GPU's CUs (MI355X: 256), recorded as the counter CU_NUM")(
      "xccs", po::value(&o.xccs)->value_name("N"),
      "the GPU's XCCs (MI355X: 8), recorded as XCC_NUM, so compare derives MFMA utilisation and occupancy from "
      "GRBM_GUI_ACTIVE (counted once per XCC)")(
      "run-id-prefix", po::value(&o.id_prefix)->value_name("P")->default_value("rocprof"), "run ids are <P>-<dispatch id>");
  opts.add(store_options(store, false, false));
  po::options_description all(opts);
  all.add_options()("what", optional_value(what), "")("path", optional_value(path), "");
  po::positional_options_description pos;
  pos.add("what", 1).add("path", 1);
  int status = kOk;
  if (!parse_with_store("import", args, all, store, status, &pos)) return status;
  if (want_help) {
    print_help(std::cout, kHelp, opts);
    return kOk;
  }
  if (what.value_or("") != "rocprof")
    return usage_error("import", "expected `import rocprof DIR|FILE` (rocprofv3's output is what tilelab imports)");
  if (!path) return usage_error("import", "expected the rocprofv3 output folder or file");
  if (!store.out) return usage_error("import", "--out FILE.h5 is required");
  o.writer = writer_options(store);
  traces::rocprof::Profile profile;
  try {
    profile = traces::rocprof::read_profile(*path);  // all of it, before the store is touched
  } catch (const traces::rocprof::FormatError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kUsage;
  }
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
