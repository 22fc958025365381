// `tilelab sweep SWEEP.toml --out sweep.h5`: candidates (code objects with a
// launch template, e.g. AMD's four MXFP4 GEMM tiles) x problem shapes, each
// point timed by the cycle model and stored as a run; the predicted winner
// per shape.  Resumable: points already in the store are read back, not run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "app/json.hpp"
#include "app/launch_run.hpp"
#include "app/record.hpp"
#include "app/target.hpp"
#include "kernels/launch_file.hpp"
#include "sim/arch/toml_text.hpp"
#include "sim/isa/code_object.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/design_run.hpp"
#include "tools/cli/error_text.hpp"
#include "traces/store.hpp"
#include "traces/text_table.hpp"
#include "traces/tuning_db.hpp"

namespace tilelab::cli {

namespace {

namespace fs = std::filesystem;
using Shape = std::map<std::string, std::int64_t>;

struct Candidate {
  std::string name, code_object, launch;
  Shape shape;  // the names it fixes (its tile)
};

struct Sweep {
  std::string name;
  std::vector<Candidate> candidates;
  std::vector<Shape> problems;
};

[[noreturn]] void fail(const std::string& file, const toml::node* at, const std::string& what) {
  std::string where = file;
  if (at && at->source().begin.line) where += ":" + std::to_string(at->source().begin.line);
  throw std::invalid_argument(where + ": " + what);
}

std::string text_of(const std::string& file, const toml::table& t, const char* key) {
  const toml::node* n = t.get(key);
  if (!n || !n->is_string() || n->as_string()->get().empty()) fail(file, &t, std::string(key) + " must be a non-empty string");
  return **n->as_string();
}

Shape shape_of(const std::string& file, const toml::table& t, const std::string& what) {
  Shape s;
  for (const auto& [k, v] : t) {
    if (!v.is_integer()) fail(file, &v, what + "." + std::string(k.str()) + " must be an integer");
    s[std::string(k.str())] = **v.as_integer();
  }
  return s;
}

Sweep read_sweep(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read sweep file '" + file + "'");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (const auto problem = arch::toml_text_problem(text, file)) throw std::invalid_argument(*problem);
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw std::invalid_argument(file + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  for (const auto& [k, v] : root)
    if (k.str() != "name" && k.str() != "candidate" && k.str() != "problem")
      fail(file, &v, "unknown key '" + std::string(k.str()) + "' (name, candidate, problem)");
  Sweep s;
  s.name = text_of(file, root, "name");
  const fs::path dir = fs::path(file).parent_path();
  const toml::array* cs = root.get("candidate") ? root.get("candidate")->as_array() : nullptr;
  if (!cs || cs->empty()) fail(file, nullptr, "no [[candidate]]");
  for (const toml::node& n : *cs) {
    const toml::table* t = n.as_table();
    if (!t) fail(file, &n, "[[candidate]] must be a table");
    Candidate c;
    c.name = text_of(file, *t, "name");
    c.code_object = (dir / text_of(file, *t, "code_object")).lexically_normal().string();
    c.launch = (dir / text_of(file, *t, "launch")).lexically_normal().string();
    if (const toml::node* sh = t->get("shape")) {
      if (!sh->is_table()) fail(file, sh, "candidate shape must be { NAME = integer, ... }");
      c.shape = shape_of(file, *sh->as_table(), "shape");
    }
    for (const auto& [k, v] : *t)
      if (k.str() != "name" && k.str() != "code_object" && k.str() != "launch" && k.str() != "shape")
        fail(file, &v, "unknown key '" + std::string(k.str()) + "' in a candidate (name, code_object, launch, shape)");
    for (const Candidate& o : s.candidates)
      if (o.name == c.name) fail(file, &n, "two candidates are named '" + c.name + "'");
    s.candidates.push_back(c);
  }
  const toml::array* ps = root.get("problem") ? root.get("problem")->as_array() : nullptr;
  if (!ps || ps->empty()) fail(file, nullptr, "no [[problem]]");
  for (const toml::node& n : *ps) {
    if (!n.is_table()) fail(file, &n, "[[problem]] must be a table of NAME = integer");
    s.problems.push_back(shape_of(file, *n.as_table(), "problem"));
  }
  return s;
}

// "K8192_M128_N8192": a problem in a run id.
std::string problem_id(const Shape& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : "_") + k + std::to_string(v);
  return s;
}

struct Point {
  std::optional<double> us;  // predicted time; empty: invalid
  std::string why;           // the reason, when invalid
  bool resumed = false;
};

// A candidate's code object (read, or assembled and linked, once for all its
// points) and its arch, or why it cannot be read.
struct Loaded {
  std::optional<isa::CodeObject> co;
  std::optional<arch::Arch> arch;
  std::string error;
};

Loaded load(const Candidate& c) {
  Loaded l;
  try {
    l.co = isa::read_code_object(c.code_object);
    l.arch = arch::load_arch(l.co->arch);
  } catch (const std::exception& e) {
    l.error = error_text(e);
  }
  return l;
}

// One point: the candidate's code object and template at the problem's
// shape (the candidate's own names win), timed; stored as run `id`.
Point evaluate(const std::string& sweep, const Candidate& c, const Loaded& loaded, const Shape& problem,
               const std::string& out, const std::string& id, const app::TimedOptions& options) {
  if (!loaded.error.empty()) return {std::nullopt, loaded.error, false};
  Shape shape = problem;
  for (const auto& [k, v] : c.shape) shape[k] = v;
  try {
    const isa::CodeObject& co = *loaded.co;
    const arch::Arch& a = *loaded.arch;
    const kernels::LaunchFile l = kernels::read_launch_file(c.launch, co, 0, shape);
    // A grid of at most one workgroup per CU is simulated in full: sampling
    // one XCD of it was measured 2.4x fast (AMD's 32x128 MXFP4 tile at
    // M=128, N=K=8192: 9.4 us sampled, 22.9 us full), and a full run of one
    // round costs little.
    app::TimedOptions o = options;
    const std::uint64_t workgroups = std::uint64_t{l.grid[0]} * l.grid[1] * l.grid[2];
    if (workgroups <= static_cast<std::uint64_t>(arch::chip_cus(a))) o.coverage = app::Coverage::full;
    const std::unique_ptr<app::LaunchFileRun> run = app::run_launch_file(co, l, a, o, true);
    // What `tilelab tune export` reads back: the family, the point and the candidate's parameters.
    run->view.extra_config_json =
        Json{{"sweep", {{"name", sweep}, {"candidate", c.name}, {"problem", traces::shape_key(problem)}, {"params", c.shape}}}}.dump();
    if (!out.empty()) app::record_timing(out, id, run->view, store_writer_options());
    return {run->model->result().seconds() * 1e6, "", false};
  } catch (const std::exception& e) {
    return {std::nullopt, error_text(e), false};
  }
}

}  // namespace

int run_sweep(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab sweep SWEEP.toml [--out sweep.h5] [--full] [--threads N] [--wait SECONDS]\n\n"
      "Times every candidate at every problem shape in the cycle model and names\n"
      "the predicted winner per shape.  SWEEP.toml:\n"
      "  name = \"mxfp4_tiles\"\n"
      "  [[candidate]]                  # a code object (or assembly) with a launch template\n"
      "  name = \"256x256\"\n"
      "  code_object = \"f4gemm_..._256x256.co\"     # paths relative to SWEEP.toml\n"
      "  launch = \"f4gemm_....launch.toml\"\n"
      "  shape = { TILE_M = 256, TILE_N = 256 }     # names the candidate fixes\n"
      "  [[problem]]                    # the template's names for one problem\n"
      "  M = 128\n  N = 8192\n  K = 8192\n"
      "Each point is the launch template at the problem's shape with the\n"
      "candidate's names over it, timed as `tilelab sim CO --launch L --timing`\n"
      "(sampled; a grid of at most one workgroup per CU, and every grid with --full,\n"
      "is simulated in full).  With --out every point is a\n"
      "run in the store, id sweep-<name>-<candidate>-<problem> (M128_N8192_K8192);\n"
      "a point already there is read back, not run again, so a killed sweep\n"
      "resumes where it stopped.  A point that cannot run (the template or the\n"
      "kernel refuses the shape) is listed as invalid with its reason.  Progress\n"
      "goes to stderr; the summary (each problem's candidates by time, the\n"
      "winner, how often each candidate wins) to stdout.\n";
  po::options_description opts;
  opts.add_options()("help", "")("sweep", po::value<std::string>(), "")("out", po::value<std::string>(), "")(
      "full", "")("threads", po::value<int>()->default_value(0), "")("wait", po::value<double>()->default_value(60), "");
  po::positional_options_description pos;
  pos.add("sweep", 1);
  po::variables_map vm;
  int status = 0;
  if (!parse_options("sweep", args, opts, vm, status, &pos)) return status;
  if (vm.count("help")) {
    std::cout << help;
    return kOk;
  }
  if (!vm.count("sweep")) return usage_error("sweep", "give the sweep file: tilelab sweep SWEEP.toml");
  set_store_wait(vm["wait"].as<double>());
  Sweep sweep;
  try {
    sweep = read_sweep(vm["sweep"].as<std::string>());
  } catch (const std::exception& e) {
    return usage_error("sweep", error_text(e));
  }
  app::TimedOptions options;
  options.coverage = vm.count("full") ? app::Coverage::full : app::Coverage::sampled;
  options.threads = vm["threads"].as<int>();
  const std::string out = vm.count("out") ? vm["out"].as<std::string>() : "";

  // Points already stored (a resumed sweep): their predicted time.
  std::map<std::string, double> stored;
  if (!out.empty() && fs::exists(out)) {
    try {
      const traces::Reader r(out);
      for (const std::string& id : r.run_ids()) {
        const traces::RunView v = r.run(id);
        if (v.summary) stored[id] = v.summary->median_ns / 1000;
      }
    } catch (const std::exception& e) {
      std::cerr << "error: " << error_text(e) << "\n";
      return kFailed;
    }
  }
  const std::size_t total = sweep.candidates.size() * sweep.problems.size();
  std::vector<std::vector<Point>> points(sweep.problems.size(), std::vector<Point>(sweep.candidates.size()));
  std::size_t done = 0;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::optional<Loaded>> loaded(sweep.candidates.size());  // read on a candidate's first unstored point
  for (std::size_t p = 0; p < sweep.problems.size(); ++p) {
    for (std::size_t c = 0; c < sweep.candidates.size(); ++c) {
      const std::string id = "sweep-" + sweep.name + "-" + sweep.candidates[c].name + "-" + problem_id(sweep.problems[p]);
      Point& pt = points[p][c];
      if (const auto it = stored.find(id); it != stored.end()) pt = {it->second, "", true};
      else {
        if (!loaded[c]) loaded[c] = load(sweep.candidates[c]);
        pt = evaluate(sweep.name, sweep.candidates[c], *loaded[c], sweep.problems[p], out, id, options);
      }
      ++done;
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      char result[64];
      if (pt.us) std::snprintf(result, sizeof result, "%.1f us%s", *pt.us, pt.resumed ? ", stored" : "");
      std::fprintf(stderr, "[%zu/%zu] %s %s: %s (%.1f s, about %.0f s left)\n", done, total,
                   sweep.candidates[c].name.c_str(), traces::shape_key(sweep.problems[p]).c_str(),
                   pt.us ? result : ("invalid: " + pt.why).c_str(), elapsed,
                   elapsed / static_cast<double>(done) * static_cast<double>(total - done));
    }
  }

  // The summary: per problem, candidates by predicted time; wins per candidate.
  std::map<std::string, int> wins;
  std::size_t invalid = 0;
  std::printf("sweep %s: %zu candidates x %zu problems (cycle model, %s)\n", sweep.name.c_str(), sweep.candidates.size(),
              sweep.problems.size(), vm.count("full") ? "full" : "sampled");
  traces::TextTable table({{"problem", traces::TextTable::Align::left}, {"winner", traces::TextTable::Align::left},
                           {"us"}, {"others (x the winner's time)", traces::TextTable::Align::left}});
  for (std::size_t p = 0; p < sweep.problems.size(); ++p) {
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < sweep.candidates.size(); ++c) {
      if (points[p][c].us) order.push_back(c);
      else ++invalid;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *points[p][a].us < *points[p][b].us; });
    std::string others;
    for (std::size_t i = 1; i < order.size(); ++i) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s%s %.2f", others.empty() ? "" : ", ", sweep.candidates[order[i]].name.c_str(),
                    *points[p][order[i]].us / *points[p][order[0]].us);
      others += buf;
    }
    for (std::size_t c = 0; c < sweep.candidates.size(); ++c)
      if (!points[p][c].us) others += (others.empty() ? "" : ", ") + sweep.candidates[c].name + " invalid";
    if (order.empty()) {
      table.add_row({traces::shape_key(sweep.problems[p]), "-", "-", others});
      continue;
    }
    ++wins[sweep.candidates[order[0]].name];
    char us[32];
    std::snprintf(us, sizeof us, "%.1f", *points[p][order[0]].us);
    table.add_row({traces::shape_key(sweep.problems[p]), sweep.candidates[order[0]].name, us, others});
  }
  table.print(std::cout, "  ");
  std::printf("  wins:");
  for (const Candidate& c : sweep.candidates) std::printf(" %s %d", c.name.c_str(), wins[c.name]);
  std::printf("; %zu invalid point(s)\n", invalid);
  for (std::size_t p = 0; p < sweep.problems.size(); ++p)
    for (std::size_t c = 0; c < sweep.candidates.size(); ++c)
      if (!points[p][c].us)
        std::printf("  invalid: %s at %s: %s\n", sweep.candidates[c].name.c_str(), traces::shape_key(sweep.problems[p]).c_str(),
                    points[p][c].why.c_str());
  return kOk;
}

}  // namespace tilelab::cli
