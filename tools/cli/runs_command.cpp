// `tilelab runs list|show`, `tilelab compare`, `tilelab export`: reading the HDF5 trace store.
#include <algorithm>
#include <fstream>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "app/perfetto_file.hpp"
#include "app/run_json.hpp"
#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"
#include "traces/analysis.hpp"
#include "traces/rocprof/profile.hpp"

namespace tilelab::cli {

namespace {

int store_error(const std::exception& e) {
  std::cerr << "error: " << error_text(e) << "\n";
  return kFailed;
}

std::string summary_of(const traces::RunView& v) {
  std::ostringstream s;
  if (v.summary) s << "median " << v.summary->median_ns << " ns" << (!v.summary->checked ? ", not checked" : v.summary->correct ? ", correct" : ", NOT correct");
  else s << v.events << " events, " << v.lds_sites << " LDS sites";
  if (!v.complete) s << " [incomplete]";
  return s.str();
}

}  // namespace

int run_runs(const std::vector<std::string>& all_args) {
  const char* help =
      "usage: tilelab runs list FILE [--json]\n"
      "       tilelab runs show FILE RUN [--json] [--listing]\n\n"
      "list: one line per run: id, kind, kernel, arch/device, UTC time, summary;\n"
      "      a run that cannot be read (its file missing or damaged) gets a line saying\n"
      "      why, the others are listed all the same, and the exit status is 1.\n"
      "show: a run's provenance, summary, table sizes, counters and LDS sites.\n"
      "      --listing adds the whole program in order with the thread trace's per-pc\n"
      "      columns (hits, latency, mean, stall, idle) and what its waves waited on\n"
      "      most there: a simulated run or an imported thread trace alike (the\n"
      "      trace gives no reasons: \"stall\"); `sim --timing --listing` adds the loop\n"
      "      bars and MFMA/LDS marks a code object gives.\n"
      "--json: the same as JSON (list: an array, an unreadable run as {\"id\", \"error\"};\n"
      "      show: one object), keys as traces/SCHEMA.md names the fields.\n"
      "The file is opened read-only (traces/SCHEMA.md describes it).\n";
  std::vector<std::string> args;
  bool json = false, listing = false;
  for (const std::string& a : all_args)
    (a == "--json" ? json = true : a == "--listing" ? listing = true : (args.push_back(a), false));
  const bool help_asked = std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
  if (args.empty()) return usage_error("runs", "runs needs list or show");
  if (help_asked) {  // `runs list --help` as well as `runs --help`
    std::cout << help;
    return kOk;
  }
  try {
    if (args[0] == "list" && args.size() == 2) {
      traces::Reader r(args[1]);
      int unreadable = 0;
      Json list = Json::array();
      for (const std::string& id : r.run_ids()) {
        try {
          if (json) {
            list.push_back(app::stored_run_json(r, id, false));
            continue;
          }
          traces::RunView v = r.run(id);
          std::cout << id << "  " << v.info.kind << "  " << v.info.kernel << "  " << v.info.arch << "/" << v.info.device
                    << "  " << v.info.utc_time << "  " << summary_of(v) << "\n";
        } catch (const traces::StoreError& e) {  // one bad run hides none of the others
          if (json) list.push_back(Json{{"id", id}, {"error", e.what()}});
          else std::cout << id << "  unreadable: " << e.what() << "\n";
          ++unreadable;
        }
      }
      if (json) std::cout << list.dump(2) << "\n";
      if (unreadable) std::cerr << "error: " << unreadable << " run(s) of '" << args[1] << "' could not be read\n";
      return unreadable ? kFailed : kOk;
    }
    if (args[0] == "show" && args.size() == 3) {
      traces::Reader r(args[1]);
      if (json) {
        std::cout << app::stored_run_json(r, args[2], true).dump(2) << "\n";
        return kOk;
      }
      traces::RunView v = r.run(args[2]);
      const traces::RunInfo& i = v.info;
      std::cout << "run " << i.id << (v.complete ? "" : " [incomplete]") << "\n"
                << "  kind " << i.kind << ", kernel " << i.kernel << ", shape " << i.problem_shape << "\n"
                << "  arch " << i.arch << ", device " << i.device << ", backend " << i.backend << "\n"
                << "  config " << i.config_json << "\n"
                << "  seed " << i.seed << ", git " << i.git_revision << ", compiler " << i.compiler << "\n"
                << "  code object sha256 " << i.code_object_sha256 << "\n  arch file sha256 " << i.arch_file_sha256
                << "\n  host " << i.host << ", " << i.utc_time << ", times in " << i.time_unit << "\n";
      if (v.summary)
        std::cout << "  median " << v.summary->median_ns << " ns (p10 " << v.summary->p10_ns << ", p90 "
                  << v.summary->p90_ns << ", min " << v.summary->min_ns << ", IQR " << v.summary->iqr_ns << "), "
                  << v.summary->tflops << " TFLOP/s, " << v.summary->gbps << " GB/s, max rel error "
                  << v.summary->max_rel_error << (!v.summary->checked ? ", not checked" : v.summary->correct ? ", correct" : ", NOT correct") << "\n";
      std::cout << "  " << v.repetitions << " repetitions, " << v.waves << " waves, " << v.events << " events, "
                << v.lds_sites << " LDS sites, " << v.counters << " counters\n";
      for (const auto& [k, val] : r.counters(i.id)) std::cout << "  counter " << k << " = " << val << "\n";
      for (const traces::LdsRecord& l : r.lds(i.id))
        std::cout << "  lds " << l.site << "  " << l.instruction << "  phases " << l.phases << "  worst "
                  << l.worst_ways << "-way  conflict cycles " << l.conflict_cycles << "  x" << l.count << "\n";
      if (listing) {
        const std::vector<traces::ListingRow> rows = traces::stored_listing(r, i.id);
        if (rows.empty()) std::cout << "  no listing: the run has no per-pc statistics (pc_stats)\n";
        else traces::print_listing(v, rows, std::cout);
      }
      return kOk;
    }
  } catch (const traces::StoreError& e) {
    return store_error(e);
  }
  return usage_error("runs", "expected 'list FILE' or 'show FILE RUN'");
}

int run_compare(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab compare FILE RUN_A RUN_B [--by class|pc|wave] [--in-order] [--json] [--force]\n\n"
      "Side by side: median time ratio (B/A), per instruction class (or pc, or wave)\n"
      "instructions, busy cycles and stall cycles, LDS conflict cycles, and the counters\n"
      "both runs have.  --by pc lists the pcs that differ most first.  Runs of\n"
      "different kernels or problem shapes are refused unless --force (or unless one\n"
      "was simulated `sim --like` the other).\n";
  bool want_help = false, json = false, force = false, in_order = false;
  std::string by_s = "class";
  std::vector<std::string> p;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(want_help), "this text")(
      "by", po::value(&by_s)->value_name("class|pc|wave")->default_value("class"), "what the rows are")(
      "in-order", flag(in_order),
      "with --by pc: program order, the two runs' listings side by side (with the source line where it changes)")(
      "force", flag(force), "compare runs of different kernels or problem shapes")(
      "json", flag(json), "one JSON object");
  po::options_description all(opts);
  all.add_options()("pos", po::value(&p), "");
  po::positional_options_description pos;
  pos.add("pos", -1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("compare", args, all, vm, status, &pos)) return status;
  if (want_help) {
    print_help(std::cout, help, opts);
    return kOk;
  }
  if (p.size() != 3) return usage_error("compare", "expected FILE RUN_A RUN_B");
  traces::CompareBy by = by_s == "class" ? traces::CompareBy::kClass
                         : by_s == "pc"  ? traces::CompareBy::kPc
                         : by_s == "wave" ? traces::CompareBy::kWave
                                          : static_cast<traces::CompareBy>(-1);
  if (static_cast<int>(by) == -1) return usage_error("compare", "--by takes class, pc or wave");
  try {
    traces::Reader r(p[0]);
    if (in_order && by != traces::CompareBy::kPc) return usage_error("compare", "--in-order goes with --by pc");
    traces::Comparison c = traces::compare(r, p[1], p[2], by, force);
    if (in_order) traces::set_program_order(c);
    if (json) traces::print_json(c, std::cout);
    else traces::print_table(c, by, std::cout);
  } catch (const traces::StoreError& e) {
    return store_error(e);
  }
  return kOk;
}

int run_export(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab export FILE RUN [RUN ...] --perfetto OUT.pftrace|OUT.json [--max-slices N]\n"
      "       tilelab export FILE RUN [RUN ...] --rocprof DIR\n\n"
      "The runs' timelines for the Perfetto UI (ui.perfetto.dev): a process per CU,\n"
      "a track per wave (named by SIMD and slot), a slice per instruction and one per\n"
      "stall, an operation still in flight when its wave moves on on tracks of its own;\n"
      "for a cycle-model run on the chip, a process per XCD with two counter tracks\n"
      "over the run's windows (L2 hit %, HBM bytes per clock).  OUT's name says the\n"
      "format: .pftrace (or .perfetto-trace) is Perfetto's own protobuf trace, as\n"
      "rocprofv3 writes it (names interned, each wave's slices a sequence of their\n"
      "own: about a quarter of the JSON's size), in real time: a cycle-model run's\n"
      "cycles at its clock (rounded to the ns; each instruction's issue cycle kept as\n"
      "its \"cycle\" argument), a run in cycles of an unrecorded clock (a thread\n"
      "trace) one cycle per ns; .json is Chrome trace-event JSON, any viewer\n"
      "reads it, its timestamps are the run's own unit (cycles or ns, in otherData)\n"
      "written where the format expects microseconds.  --max-slices keeps the trace\n"
      "loadable.\n"
      "Several runs (an imported rocprofv3 thread trace beside a cycle-model run of the\n"
      "same kernel) go into one file as parallel groups of tracks, each CU named\n"
      "\"<run>: CU n\"; the slice budget is shared between them.\n"
      "The file is written whole or not at all.\n\n"
      "--rocprof DIR writes runs imported with `tilelab import rocprof` back as\n"
      "rocprofv3 writes them (DIR/kernel_trace.csv, DIR/counter_collection.csv, or\n"
      "DIR/<pid>_kernel_trace.csv ... for each process the runs came from, and,\n"
      "for runs with a thread trace, DIR/ui_output_agent_<A>_dispatch_<D>/ as the\n"
      "trace decoder writes it); importing DIR gives the same runs.\n"
      "What the store does not keep is written as 0 (queue, stream, thread and kernel\n"
      "ids; timestamps: each dispatch starts at 0 and lasts its duration).\n";
  bool want_help = false;
  std::optional<std::string> perfetto, rocprof;
  unsigned long long max_slices = 2000000;
  std::vector<std::string> p;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(want_help), "this text")(
      "perfetto", optional_value(perfetto, "OUT.pftrace|OUT.json"), "the timelines for the Perfetto UI")(
      "max-slices", po::value(&max_slices)->value_name("N")->default_value(2000000),
      "above this many events, consecutive instructions of a wave are grouped into one slice")(
      "rocprof", optional_value(rocprof, "DIR"), "imported runs back as rocprofv3 writes them");
  po::options_description all(opts);
  all.add_options()("pos", po::value(&p), "");
  po::positional_options_description pos;
  pos.add("pos", -1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("export", args, all, vm, status, &pos)) return status;
  if (want_help) {
    print_help(std::cout, help, opts);
    return kOk;
  }
  if (p.size() < 2 || perfetto.has_value() == rocprof.has_value())
    return usage_error("export", "expected FILE RUN [RUN ...] and one of --perfetto OUT.json, --rocprof DIR");
  if (rocprof) {
    try {
      const traces::Reader r(p[0]);
      for (const std::string& f :
           traces::rocprof::export_runs(r, std::vector<std::string>(p.begin() + 1, p.end()), *rocprof))
        std::cout << "wrote " << f << "\n";
      return kOk;
    } catch (const std::exception& e) {
      return store_error(e);
    }
  }
  const std::string out = *perfetto;
  try {
    const traces::PerfettoStats st = app::write_perfetto(p[0], std::vector<std::string>(p.begin() + 1, p.end()), out,
                                                         max_slices);
    std::cout << "wrote " << out << ": " << st.slices << " slices for " << st.events << " events"
              << (st.group > 1 ? " (" + std::to_string(st.group) + " instructions per slice)" : "")
              << (st.counter_samples ? ", " + std::to_string(st.counter_samples) + " samples on the XCDs' counter tracks" : "")
              << "\n";
  } catch (const std::invalid_argument& e) {  // OUT's name gives no format
    return usage_error("export", e.what());
  } catch (const std::exception& e) {
    return store_error(e);
  }
  return kOk;
}

}  // namespace tilelab::cli
