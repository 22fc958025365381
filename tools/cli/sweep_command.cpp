// `tilelab sweep SWEEP.toml --out sweep.h5`: candidates (code objects with a
// launch template, e.g. AMD's four MXFP4 GEMM tiles) x problem shapes, each
// point timed by the cycle model and stored as a run; the predicted winner
// per shape.  Resumable: points already in the store are read back, not run.
// The sweep itself is app/sweep (Python's tilelab.sweep runs the same).
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "app/error_text.hpp"
#include "app/json.hpp"
#include "app/sweep.hpp"
#include "tools/cli/mpi_world.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/design_run.hpp"
#include "traces/text_table.hpp"
#include "traces/tuning_db.hpp"

namespace tilelab::cli {

namespace {

// The summary: per problem, candidates by predicted time; wins per candidate.
void print_sweep(const app::SweepResult& r) {
  const app::SweepSpec& s = r.spec;
  std::map<std::string, int> wins;
  std::size_t invalid = 0;
  std::printf("sweep %s: %zu candidates x %zu problems (cycle model, %s)\n", s.name.c_str(), s.candidates.size(),
              s.problems.size(), r.full ? "full" : "sampled");
  traces::TextTable table({{"problem", traces::TextTable::Align::left}, {"winner", traces::TextTable::Align::left},
                           {"us"}, {"others (x the winner's time)", traces::TextTable::Align::left}});
  for (std::size_t p = 0; p < s.problems.size(); ++p) {
    const std::vector<std::size_t> order = r.ranking(p);
    const std::vector<app::SweepPoint>& row = r.points[p];
    std::string others;
    for (std::size_t i = 1; i < order.size(); ++i) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s%s %.2f", others.empty() ? "" : ", ", s.candidates[order[i]].name.c_str(),
                    *row[order[i]].us / *row[order[0]].us);
      others += buf;
    }
    for (std::size_t c = 0; c < s.candidates.size(); ++c)
      if (!row[c].us) others += (others.empty() ? "" : ", ") + s.candidates[c].name + " invalid", ++invalid;
    if (order.empty()) {
      table.add_row({traces::shape_key(s.problems[p]), "-", "-", others});
      continue;
    }
    ++wins[s.candidates[order[0]].name];
    char us[32];
    std::snprintf(us, sizeof us, "%.1f", *row[order[0]].us);
    table.add_row({traces::shape_key(s.problems[p]), s.candidates[order[0]].name, us, others});
  }
  table.print(std::cout, "  ");
  std::printf("  wins:");
  for (const app::SweepCandidate& c : s.candidates) std::printf(" %s %d", c.name.c_str(), wins[c.name]);
  std::printf("; %zu invalid point(s)\n", invalid);
  for (std::size_t p = 0; p < s.problems.size(); ++p)
    for (std::size_t c = 0; c < s.candidates.size(); ++c)
      if (!r.points[p][c].us)
        std::printf("  invalid: %s at %s: %s\n", s.candidates[c].name.c_str(), traces::shape_key(s.problems[p]).c_str(),
                    r.points[p][c].why.c_str());
}

}  // namespace

int run_sweep(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab sweep SWEEP.toml [--out sweep.h5] [--full] [--threads N] [--json] [--wait SECONDS]\n\n"
      "Times every candidate at every problem shape in the cycle model and names\n"
      "the predicted winner per shape.  SWEEP.toml:\n"
      "  name = \"mxfp4_tiles\"\n"
      "  [[candidate]]                  # a code object (or assembly) with a launch template\n"
      "  name = \"256x256\"\n"
      "  code_object = \"f4gemm_..._256x256.co\"     # paths relative to SWEEP.toml\n"
      "  launch = \"f4gemm_....launch.toml\"\n"
      "  shape = { TILE_M = 256, TILE_N = 256 }     # names the candidate fixes\n"
      "  [[candidate]]                  # or a suite kernel's template, compiled here\n"
      "  name = \"256x128_w8\"\n"
      "  template = \"gemm_bf16\"         # kernels/gemm_bf16: launched by gemm_bf16.launch.toml\n"
      "  params = { TILE_M = 256, TILE_N = 128, WAVES_M = 2, WAVES_N = 4 }  # -DTL_TILE_M=256 ...\n"
      "  shape = { GROUP_M = 8 }        # launch-time names (gemm_bf16's group_m argument)\n"
      "  [[problem]]                    # the template's names for one problem\n"
      "  M = 128\n  N = 8192\n  K = 8192\n"
      "Each point is the launch template at the problem's shape with the\n"
      "candidate's names over it, timed as `tilelab sim CO --launch L --timing`\n"
      "(sampled; a grid of at most one workgroup per CU, and every grid with --full,\n"
      "is simulated in full).  With --out every point is a\n"
      "run in the store, id sweep-<name>-<candidate>-<problem> (M128_N8192_K8192);\n"
      "a point already there is read back, not run again, so a killed sweep\n"
      "resumes where it stopped.  A template candidate is compiled once (arch =\n"
      "\"gfx950\" unless it says), by the build's compiler with its flags and each\n"
      "param as -DTL_NAME=V, and cached under the SHA-256 of the compiler's version,\n"
      "the flags, the params and the kernel's sources ($TILELAB_KERNEL_CACHE, else\n"
      "~/.cache/tilelab/kernels); its params go to the launch template too and are\n"
      "stored with each point (what `tune export` keeps).  A point that cannot run\n"
      "(the variant does not compile: the compiler's error line; the template or the\n"
      "kernel refuses the shape) is listed as invalid with its reason.  Progress\n"
      "goes to stderr; the summary (each problem's candidates by time, the\n"
      "winner, how often each candidate wins) to stdout; with --json the same as\n"
      "one JSON object (what Python's tilelab.sweep returns).\n\n"
      "On many machines: `mpirun -n N tilelab sweep SWEEP.toml --out sweep.h5` (or\n"
      "srun).  Rank r runs the points (problem p, candidate c) with (p + c) mod N == r,\n"
      "a fixed split that gives every rank each candidate on some problems, into its\n"
      "shard sweep.h5.shard-<r>.h5 beside OUT; rank 0 then merges the shards into\n"
      "OUT in the sweep's order and prints the summary: the same file, point for\n"
      "point, and the same output as one process.  A killed sweep's shards count as\n"
      "stored when it is run again (with any N, or none) and are merged then.\n";
  bool want_help = false, json = false;
  std::optional<std::string> sweep_file;
  app::SweepOptions options;
  StoreOptions store;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(want_help), "this text")(
      "full", flag(options.full), "simulate every workgroup of every point (no sampling or fast-forward)")(
      "json", flag(json), "the summary as one JSON object")(
      "threads", po::value(&options.threads)->value_name("N")->default_value(0, "one per core"), "threads per process");
  opts.add(store_options(store, false, false));
  po::options_description all(opts);
  all.add_options()("sweep", optional_value(sweep_file), "");
  po::positional_options_description pos;
  pos.add("sweep", 1);
  int status = kOk;
  if (!parse_with_store("sweep", args, all, store, status, &pos)) return status;
  if (want_help) {
    print_help(std::cout, help, opts);
    return kOk;
  }
  if (!sweep_file) return usage_error("sweep", "give the sweep file: tilelab sweep SWEEP.toml");
  app::SweepSpec spec;
  try {
    spec = app::read_sweep(*sweep_file);
  } catch (const std::exception& e) {
    return usage_error("sweep", error_text(e));
  }
  options.out = store.out.value_or("");
  options.store = writer_options(store);
  // Under mpirun/srun each rank runs its share into its shard; rank 0
  // gathers the others' points (a barrier), merges the shards into OUT in
  // the sweep's order and prints the summary a single process would.
  const MpiWorld world;
  options.rank = world.rank();
  options.ranks = world.size();
  const std::string who = world.size() > 1 ? "rank " + std::to_string(world.rank()) + ": " : "";
  app::SweepResult result;
  std::string failure;
  try {
    result = app::run_sweep(spec, options, [&](const std::string& line) { std::fprintf(stderr, "%s%s\n", who.c_str(), line.c_str()); });
  } catch (const std::exception& e) {
    failure = error_text(e);
  }
  const std::vector<std::string> sent = world.gather(failure.empty() ? app::own_points_json(result).dump() : "!" + failure);
  if (world.rank() == 0) {
    for (const std::string& s : sent) {
      if (s.starts_with("!")) failure = s.substr(1);
      else if (failure.empty()) app::absorb_points(result, Json::parse(s));
    }
    if (failure.empty() && !options.out.empty()) {
      try {
        app::merge_shards(spec, options);
      } catch (const std::exception& e) {
        failure = error_text(e);
      }
    }
  }
  if (world.broadcast(failure.empty() ? kOk : kFailed) != kOk) {
    if (!failure.empty()) std::cerr << "error: " << who << failure << "\n";
    return kFailed;
  }
  if (world.rank() != 0) return kOk;
  if (json) std::cout << app::sweep_json(result).dump(2) << "\n";
  else print_sweep(result);
  return kOk;
}

}  // namespace tilelab::cli
