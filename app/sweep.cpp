#include "app/sweep.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <stdexcept>

#include <toml++/toml.h>

#include "app/error_text.hpp"
#include "app/compile_kernel.hpp"
#include "app/design_check_run.hpp"
#include "app/launch_run.hpp"
#include "app/provenance.hpp"
#include "app/record.hpp"
#include "kernels/launch_file.hpp"
#include "sim/arch/toml_text.hpp"
#include "sim/isa/code_object.hpp"
#include "traces/text_table.hpp"
#include "traces/tuning_db.hpp"

namespace tilelab::app {

namespace {

namespace fs = std::filesystem;

std::string name_problem(const std::string& name) {
  if (name.size() > kMaxSweepNameBytes)
    return "is " + std::to_string(name.size()) + " bytes, over the cap of " + std::to_string(kMaxSweepNameBytes);
  if (std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return "'" + traces::printable(name, 40) + "' has a control character";
  return "";
}

std::string points_over_cap(const SweepSpec& s) {
  return std::to_string(s.problems.size()) + " problems x " + std::to_string(s.candidates.size()) +
         " candidates is over the cap of " + std::to_string(kMaxSweepPoints) + " points a sweep may have";
}

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

// A sweep's or a candidate's name: it goes into run ids, tables and the
// tuning database, so it is short and printable.
std::string name_of(const std::string& file, const toml::table& t, const char* key) {
  const std::string name = text_of(file, t, key);
  if (const std::string why = name_problem(name); !why.empty()) fail(file, t.get(key), std::string(key) + " " + why);
  return name;
}

// A shape's or a parameter's name: an identifier, as launch templates name them.
bool identifier(std::string_view k) {
  if (k.empty() || k.size() > kMaxSweepNameBytes || std::isdigit(static_cast<unsigned char>(k[0]))) return false;
  return std::all_of(k.begin(), k.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

ProblemShape shape_of(const std::string& file, const toml::table& t, const std::string& what) {
  ProblemShape s;
  for (const auto& [k, v] : t) {
    if (!identifier(k.str()))
      fail(file, &v, what + ": '" + traces::printable(k.str(), 40) + "' is not a name (letters, digits and _, at most " +
                         std::to_string(kMaxSweepNameBytes) + " bytes)");
    if (!v.is_integer()) fail(file, &v, what + "." + std::string(k.str()) + " must be an integer");
    s[std::string(k.str())] = **v.as_integer();
  }
  return s;
}

SweepCandidate candidate_of(const std::string& file, const toml::node& n) {
  const toml::table* t = n.as_table();
  if (!t) fail(file, &n, "[[candidate]] must be a table");
  const fs::path dir = fs::path(file).parent_path();
  SweepCandidate c;
  c.name = name_of(file, *t, "name");
  for (const auto& [k, v] : *t)
    if (k.str() != "name" && k.str() != "code_object" && k.str() != "launch" && k.str() != "shape" &&
        k.str() != "template" && k.str() != "params" && k.str() != "arch")
      fail(file, &v, "unknown key '" + std::string(k.str()) +
                         "' in a candidate (name, code_object or template, launch, shape, params, arch)");
  if (t->get("template") && t->get("code_object"))
    fail(file, t, "a candidate is a code_object or a template, not both");
  if (t->get("template")) {
    c.kernel_template = text_of(file, *t, "template");
    if (t->get("arch")) c.arch = text_of(file, *t, "arch");
    if (const toml::node* p = t->get("params")) {
      if (!p->is_table()) fail(file, p, "candidate params must be { NAME = integer, ... }");
      c.params = shape_of(file, *p->as_table(), "params");
    }
    c.launch = t->get("launch") ? (dir / text_of(file, *t, "launch")).lexically_normal().string()
                                : suite_launch_template(c.kernel_template);
    if (c.launch.empty()) fail(file, t, "template '" + c.kernel_template + "' has no launch template beside its source; give launch");
  } else {
    if (t->get("params") || t->get("arch")) fail(file, t, "params and arch go with a template (a code object is compiled already)");
    c.code_object = (dir / text_of(file, *t, "code_object")).lexically_normal().string();
    c.launch = (dir / text_of(file, *t, "launch")).lexically_normal().string();
  }
  if (const toml::node* sh = t->get("shape")) {
    if (!sh->is_table()) fail(file, sh, "candidate shape must be { NAME = integer, ... }");
    c.shape = shape_of(file, *sh->as_table(), "shape");
  }
  return c;
}

// A candidate's code object (read, or assembled and linked, once for all its
// points) and its arch, or why it cannot be read.
struct Loaded {
  std::optional<isa::CodeObject> co;
  std::optional<arch::Arch> arch;
  std::string error;
  Json fingerprint;  // what the point's time depends on besides the problem (point_fingerprint)
};

std::string file_sha256(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return isa::sha256_hex(text);
}

// What a stored point must have been timed with to be returned as this
// point's: the code object, launch template and arch file (SHA-256, "" when
// they cannot be read: then the point is invalid with that reason), the
// names the candidate fixes, the coverage asked for.
Json point_fingerprint(const SweepCandidate& c, const Loaded& l, bool full) {
  return {{"code_object_sha256", l.co ? isa::sha256_hex(std::span<const std::uint8_t>(l.co->bytes)) : ""},
          {"launch_sha256", file_sha256(c.launch)},
          {"arch_file_sha256", l.arch ? isa::sha256_hex(l.arch->text) : ""},
          {"fixed", c.fixed()},
          {"coverage", full ? "full" : "sampled"}};
}

Loaded load(const SweepCandidate& c, bool full) {
  Loaded l;
  try {
    const std::string path =
        c.kernel_template.empty() ? c.code_object : compile_variant(c.kernel_template, c.arch, c.params).code_object;
    l.co = isa::read_code_object(path);
    l.arch = arch::load_arch(l.co->arch);
  } catch (const std::exception& e) {
    l.error = error_text(e);
  }
  l.fingerprint = point_fingerprint(c, l, full);
  return l;
}

// The design check of a template variant at a point (its spec for the
// candidate's params, kernels::variant_spec; the shape's dimensions by the
// spec's names, case aside): what the store keeps of it, or nullopt for a
// kernel without a spec per variant.  Throws std::invalid_argument for a
// variant that spills (any template), a shape the spec refuses, or a
// variant its design check says is no candidate (variant_refusal).
std::optional<Json> point_design(const SweepCandidate& c, const Loaded& loaded, const std::string& kernel,
                                 const ProblemShape& shape) {
  if (c.kernel_template.empty()) return std::nullopt;
  // A variant that spills is no candidate, whether or not its template has a spec per variant.
  if (const std::uint32_t scratch = loaded.co->kernel(kernel).private_segment_fixed_size)
    throw std::invalid_argument("it spills: " + std::to_string(scratch) + " bytes of scratch per lane");
  if (!kernels::has_variant_spec(kernel)) return std::nullopt;
  const kernels::KernelSpec spec = kernels::variant_spec(kernel, c.params);
  std::vector<long long> dims;
  for (const std::string& d : spec.shape_dims) {
    const auto it = std::find_if(shape.begin(), shape.end(), [&](const auto& kv) {
      return std::equal(d.begin(), d.end(), kv.first.begin(), kv.first.end(),
                        [](char a, char b) { return std::toupper(a) == std::toupper(b); });
    });
    if (it == shape.end()) throw std::invalid_argument("the problem gives no " + d + " for " + kernel + "'s design check");
    dims.push_back(it->second);
  }
  const kernels::DesignReport r = kernels::design_check(spec, *loaded.arch, facts_of(loaded.co->kernel(kernel)), dims);
  if (const std::string why = variant_refusal(r); !why.empty()) throw std::invalid_argument(why);
  Json j = {{"clean", r.problems.empty()}, {"lds_bytes", r.lds_bytes}, {"conflict_cycles", r.conflict_cycles},
            {"problems", r.problems}};
  if (r.compiled) j["vgprs"] = r.compiled->vgprs, j["agprs"] = r.compiled->agprs;
  if (r.occupancy) j["workgroups_per_cu"] = r.occupancy->workgroups_per_cu, j["waves_per_simd"] = r.occupancy->waves_per_simd;
  return j;
}

// What the store keeps of a point: the family, the point and the
// candidate's parameters (what `tilelab tune export` reads back).
Json point_config(const std::string& sweep, const SweepCandidate& c, const ProblemShape& problem, const Loaded& l) {
  return {{"sweep",
           {{"name", sweep}, {"candidate", c.name}, {"problem", traces::shape_key(problem)}, {"params", c.fixed()},
            {"fingerprint", l.fingerprint}}}};
}

// An invalid point as a run with no timing: its config says why, so a
// resumed sweep reads it back instead of evaluating it again.
void record_invalid(const std::string& file, const std::string& id, Json config, const SweepCandidate& c,
                    const ProblemShape& problem, const std::string& why, const traces::WriterOptions& options) {
  const std::string kernel = c.kernel_template.empty() ? fs::path(c.code_object).stem().string() : c.kernel_template;
  traces::RunInfo info = run_info(id, "sim", kernel, c.arch);
  info.backend = "cycle-model";
  info.problem_shape = traces::shape_key(problem);
  config["invalid"] = why;
  info.config_json = config.dump();
  traces::RunWriter w(file, info, options);
  w.finish();
}

// One point: the candidate's code object and template at the problem's
// shape (the candidate's own names win); a template variant's design check
// (point_design), then timed; stored as run `id` (an invalid one with its
// reason).  Only the store's own errors throw.
SweepPoint evaluate(const std::string& sweep, const SweepCandidate& c, const Loaded& loaded, const ProblemShape& problem,
                    const SweepOptions& options, const std::string& id) {
  ProblemShape shape = problem;
  for (const auto& [k, v] : c.fixed()) shape[k] = v;
  Json config = point_config(sweep, c, problem, loaded);
  std::unique_ptr<LaunchFileRun> run;
  std::string why = loaded.error;
  if (why.empty()) try {
    const isa::CodeObject& co = *loaded.co;
    const arch::Arch& a = *loaded.arch;
    const kernels::LaunchFile l = kernels::read_launch_file(c.launch, co, 0, shape);
    if (const std::optional<Json> design = point_design(c, loaded, l.kernel, shape)) config["design"] = *design;
    // A grid of at most one workgroup per CU is simulated in full: sampling
    // one XCD of it was measured 2.4x fast (AMD's 32x128 MXFP4 tile at
    // M=128, N=K=8192: 9.4 us sampled, 22.9 us full), and a full run of one
    // round costs little.
    TimedOptions o;
    o.coverage = options.full ? Coverage::full : Coverage::sampled;
    o.threads = options.threads;
    o.keep_events = !options.out.empty();  // only the store reads them
    const std::uint64_t workgroups = std::uint64_t{l.grid[0]} * l.grid[1] * l.grid[2];
    if (workgroups <= static_cast<std::uint64_t>(arch::chip_cus(a))) o.coverage = Coverage::full;
    run = run_launch_file(co, l, a, o, true);
  } catch (const std::exception& e) {
    why = error_text(e);
  }
  if (!run) {
    if (!options.out.empty()) record_invalid(options.out, id, config, c, problem, why, options.store);
    return {std::nullopt, why, false};
  }
  run->view.extra_config_json = config.dump();
  if (!options.out.empty()) record_timing(options.out, id, run->view, options.store);
  // In the store's unit and back (median_ns / 1000): a resumed point reads the same double.
  return {run->model->result().seconds() * 1e9 / 1000, "", false};
}

// A point already stored: the point (marked resumed) and the fingerprint it
// was timed with (null: its run could not be read, or an earlier tilelab
// stored it without one).
struct StoredPoint {
  SweepPoint point;
  Json fingerprint;
  bool readable = true;
};

// Points already stored (a resumed sweep), in OUT and in any shard beside it
// (a killed sweep's): run id -> the point.  A run that cannot be read is a
// point saying so; the others are read all the same.
std::map<std::string, StoredPoint> stored_points(const std::string& out) {
  std::map<std::string, StoredPoint> stored;
  if (out.empty()) return stored;
  std::vector<std::string> stores = shard_paths(out);
  if (fs::exists(out)) stores.insert(stores.begin(), out);
  for (const std::string& file : stores) {
    const traces::Reader r(file);
    for (const std::string& id : r.run_ids()) {
      StoredPoint sp;
      sp.point.resumed = true;
      traces::RunView v;
      try {
        v = r.run(id);
      } catch (const traces::StoreError& e) {
        sp.point.why = std::string("its stored run cannot be read: ") + e.what();
        sp.readable = false;
        stored.emplace(id, std::move(sp));
        continue;
      }
      const Json config = Json::parse(v.info.config_json.empty() ? "{}" : v.info.config_json, nullptr, false);
      if (config.is_object() && config.contains("sweep") && config["sweep"].is_object() &&
          config["sweep"].contains("fingerprint"))
        sp.fingerprint = config["sweep"]["fingerprint"];
      if (v.summary) {
        sp.point.us = v.summary->median_ns / 1000;
      } else if (config.is_object() && config.contains("invalid") && config["invalid"].is_string()) {
        sp.point.why = config["invalid"].get<std::string>();
      } else {
        continue;
      }
      stored.emplace(id, std::move(sp));
    }
  }
  return stored;
}

// The first part of two fingerprints that differs, as "code object"; "" when equal.
std::string what_changed(const Json& stored, const Json& now) {
  if (!stored.is_object()) return "configuration (it was stored without a fingerprint, by an earlier tilelab)";
  static const std::pair<const char*, const char*> kParts[] = {{"code_object_sha256", "code object"},
                                                              {"launch_sha256", "launch template"},
                                                              {"arch_file_sha256", "arch file"},
                                                              {"fixed", "candidate's params or shape"},
                                                              {"coverage", "coverage (sampled or --full)"}};
  for (const auto& [key, what] : kParts)
    if (!stored.contains(key) || stored[key] != now[key]) return what;
  return "";
}

bool own_point(const SweepOptions& o, std::size_t problem, std::size_t candidate) {
  return static_cast<int>((problem + candidate) % static_cast<std::size_t>(std::max(1, o.ranks))) == o.rank;
}

}  // namespace

SweepSpec read_sweep(const std::string& file) {
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
  SweepSpec s;
  s.name = name_of(file, root, "name");
  const toml::array* cs = root.get("candidate") ? root.get("candidate")->as_array() : nullptr;
  if (!cs || cs->empty()) fail(file, nullptr, "no [[candidate]]");
  for (const toml::node& n : *cs) {
    SweepCandidate c = candidate_of(file, n);
    for (const SweepCandidate& o : s.candidates)
      if (o.name == c.name) fail(file, &n, "two candidates are named '" + c.name + "'");
    s.candidates.push_back(std::move(c));
  }
  const toml::array* ps = root.get("problem") ? root.get("problem")->as_array() : nullptr;
  if (!ps || ps->empty()) fail(file, nullptr, "no [[problem]]");
  std::vector<const toml::node*> where;
  for (const toml::node& n : *ps) {
    if (!n.is_table()) fail(file, &n, "[[problem]] must be a table of NAME = integer");
    ProblemShape p = shape_of(file, *n.as_table(), "problem");
    for (std::size_t i = 0; i < s.problems.size(); ++i)
      if (s.problems[i] == p)
        fail(file, &n, "[[problem]] " + traces::shape_key(p) + " is given twice (also at line " +
                           std::to_string(where[i]->source().begin.line) + ")");
    s.problems.push_back(std::move(p));
    where.push_back(&n);
    if (s.problems.size() * s.candidates.size() > kMaxSweepPoints) fail(file, &n, points_over_cap(s));
  }
  return s;
}

std::string problem_id(const ProblemShape& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : "_") + k + std::to_string(v);
  return s;
}

std::string sweep_run_id(const SweepSpec& s, const SweepCandidate& c, const ProblemShape& p) {
  // Each part with its length, so no two (sweep, candidate, problem) give one text to hash.
  const std::string key = std::to_string(s.name.size()) + ":" + s.name + std::to_string(c.name.size()) + ":" + c.name +
                          traces::shape_key(p);
  std::string readable = s.name + "-" + c.name + "-" + problem_id(p);
  for (char& ch : readable)
    if (ch == '/' || static_cast<unsigned char>(ch) < 0x20) ch = '_';
  if (readable.size() > 160) readable.resize(160);
  return "sweep-" + readable + "-" + isa::sha256_hex(key).substr(0, 12);
}

std::vector<std::size_t> SweepResult::ranking(std::size_t problem) const {
  std::vector<std::size_t> order;
  const std::vector<SweepPoint>& row = points[problem];
  for (std::size_t c = 0; c < row.size(); ++c)
    if (row[c].us) order.push_back(c);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *row[a].us < *row[b].us; });
  return order;
}

SweepResult run_sweep(const SweepSpec& spec, const SweepOptions& options, const SweepProgress& progress) {
  if (!spec.candidates.empty() && spec.problems.size() > kMaxSweepPoints / spec.candidates.size())
    throw std::invalid_argument("sweep " + spec.name + ": " + points_over_cap(spec));
  if (const std::string why = name_problem(spec.name); !why.empty()) throw std::invalid_argument("sweep name " + why);
  for (const SweepCandidate& c : spec.candidates)
    if (const std::string why = name_problem(c.name); !why.empty()) throw std::invalid_argument("candidate name " + why);
  const std::map<std::string, StoredPoint> stored = stored_points(options.out);
  std::vector<std::optional<Loaded>> loaded(spec.candidates.size());  // read on a candidate's first point
  auto candidate = [&](std::size_t c) -> const Loaded& {
    if (!loaded[c]) loaded[c] = load(spec.candidates[c], options.full);
    return *loaded[c];
  };
  // Before any point runs: every id usable, every stored point current.
  for (std::size_t p = 0; p < spec.problems.size(); ++p)
    for (std::size_t c = 0; c < spec.candidates.size(); ++c) {
      const std::string id = sweep_run_id(spec, spec.candidates[c], spec.problems[p]);
      if (!options.out.empty()) traces::check_run_id(id);
      const auto it = stored.find(id);
      if (it == stored.end() || !it->second.readable) continue;
      if (const std::string changed = what_changed(it->second.fingerprint, candidate(c).fingerprint); !changed.empty())
        throw std::runtime_error(options.out + ": its point " + spec.candidates[c].name + " at " +
                                 traces::shape_key(spec.problems[p]) + " (run " + id + ") was timed with another " +
                                 changed + " than asked for now; give another --out, or remove the store, "
                                 "to time it again");
    }
  SweepResult r;
  r.spec = spec;
  r.full = options.full;
  r.points.assign(spec.problems.size(), std::vector<SweepPoint>(spec.candidates.size()));
  SweepOptions own = options;  // where this rank's points go
  if (options.ranks > 1 && !options.out.empty()) own.out = shard_path(options.out, options.rank);
  std::size_t total = 0, done = 0;
  for (std::size_t p = 0; p < spec.problems.size(); ++p)
    for (std::size_t c = 0; c < spec.candidates.size(); ++c)
      total += own_point(options, p, c);
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t p = 0; p < spec.problems.size(); ++p) {
    for (std::size_t c = 0; c < spec.candidates.size(); ++c) {
      const SweepCandidate& cand = spec.candidates[c];
      const std::string id = sweep_run_id(spec, cand, spec.problems[p]);
      SweepPoint& pt = r.points[p][c];
      const bool mine = own_point(options, p, c);
      if (const auto it = stored.find(id); it != stored.end()) {
        pt = it->second.point;
      } else if (!mine) {
        pt.elsewhere = true;
      } else {
        pt = evaluate(spec.name, cand, candidate(c), spec.problems[p], own, id);
      }
      if (!mine) continue;
      ++done;
      if (!progress) continue;
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      char line[160];
      if (pt.us) std::snprintf(line, sizeof line, "%.1f us%s", *pt.us, pt.resumed ? ", stored" : "");
      const std::string result = pt.us ? std::string(line) : "invalid: " + pt.why + (pt.resumed ? " (stored)" : "");
      std::snprintf(line, sizeof line, " (%.1f s, about %.0f s left)", elapsed,
                    elapsed / static_cast<double>(done) * static_cast<double>(total - done));
      progress("[" + std::to_string(done) + "/" + std::to_string(total) + "] " + cand.name + " " +
               traces::shape_key(spec.problems[p]) + ": " + result + line);
    }
  }
  return r;
}

std::string shard_path(const std::string& out, int rank) { return out + ".shard-" + std::to_string(rank) + ".h5"; }

std::vector<std::string> shard_paths(const std::string& out) {
  std::vector<std::string> found;
  const fs::path dir = fs::path(out).parent_path().empty() ? fs::path(".") : fs::path(out).parent_path();
  const std::string prefix = fs::path(out).filename().string() + ".shard-";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !name.ends_with(".h5") || !e.is_regular_file()) continue;
    const std::string rank = name.substr(prefix.size(), name.size() - prefix.size() - 3);
    if (!rank.empty() && std::all_of(rank.begin(), rank.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
      found.push_back((fs::path(out).parent_path() / name).string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::size_t merge_shards(const SweepSpec& spec, const SweepOptions& options) {
  const std::vector<std::string> shards = shard_paths(options.out);
  if (shards.empty()) return 0;
  std::set<std::string> in_out;
  if (fs::exists(options.out))
    for (const std::string& id : traces::Reader(options.out).run_ids()) in_out.insert(id);
  std::map<std::string, std::string> holder;  // run id -> the shard that has it
  std::map<std::string, std::vector<std::string>> shard_runs;
  for (const std::string& s : shards)
    for (const std::string& id : traces::Reader(s).run_ids()) {
      holder.emplace(id, s);
      shard_runs[s].push_back(id);
    }
  // In the sweep's order, consecutive points of one shard adopted together.
  std::size_t moved = 0;
  std::string from;
  std::vector<std::string> batch;
  auto flush = [&] {
    if (!batch.empty()) traces::adopt_runs(options.out, from, batch, options.store);
    moved += batch.size();
    for (const std::string& id : batch) in_out.insert(id);
    batch.clear();
  };
  for (const ProblemShape& p : spec.problems)
    for (const SweepCandidate& c : spec.candidates) {
      const std::string id = sweep_run_id(spec, c, p);
      const auto it = holder.find(id);
      if (in_out.count(id) || it == holder.end()) continue;
      if (it->second != from) flush(), from = it->second;
      batch.push_back(id);
    }
  flush();
  for (const std::string& s : shards) {
    const std::vector<std::string>& ids = shard_runs[s];
    if (!std::all_of(ids.begin(), ids.end(), [&](const std::string& id) { return in_out.count(id) > 0; })) continue;
    std::error_code ec;
    fs::remove_all(s + ".runs", ec);
    fs::remove(s, ec);
    fs::remove(s + ".lock", ec);
    // A killed rank's journal and index copy (its run files were in the folder).
    const std::string name = fs::path(s).filename().string();
    for (const auto& e : fs::directory_iterator(fs::path(s).parent_path().empty() ? fs::path(".") : fs::path(s).parent_path(), ec)) {
      const std::string other = e.path().filename().string();
      if (other.rfind(name + ".journal-", 0) == 0 || other.rfind(name + ".partial-", 0) == 0) fs::remove(e.path(), ec);
    }
  }
  return moved;
}

Json own_points_json(const SweepResult& r) {
  Json out = Json::array();
  for (std::size_t p = 0; p < r.points.size(); ++p)
    for (std::size_t c = 0; c < r.points[p].size(); ++c) {
      const SweepPoint& pt = r.points[p][c];
      if (pt.resumed || pt.elsewhere) continue;
      out.push_back({p, c, pt.us ? Json(*pt.us) : Json(nullptr), pt.why});
    }
  return out;
}

void absorb_points(SweepResult& r, const Json& points) {
  for (const Json& x : points) {
    const std::size_t p = x.at(0).get<std::size_t>(), c = x.at(1).get<std::size_t>();
    SweepPoint& pt = r.points.at(p).at(c);
    pt = {x.at(2).is_null() ? std::nullopt : std::optional<double>(x.at(2).get<double>()), x.at(3).get<std::string>(),
          false, false};
  }
}

Json sweep_json(const SweepResult& r) {
  Json problems = Json::array();
  std::map<std::string, int> wins;
  int invalid = 0;
  for (std::size_t p = 0; p < r.spec.problems.size(); ++p) {
    const std::vector<std::size_t> order = r.ranking(p);
    Json points = Json::array();
    for (std::size_t c = 0; c < r.spec.candidates.size(); ++c) {
      const SweepPoint& pt = r.points[p][c];
      const SweepCandidate& cand = r.spec.candidates[c];
      invalid += !pt.us;
      points.push_back({{"candidate", cand.name},
                        {"us", pt.us ? Json(*pt.us) : Json(nullptr)},
                        {"invalid", pt.us ? Json(nullptr) : Json(pt.why)},
                        {"stored", pt.resumed},
                        {"run_id", sweep_run_id(r.spec, cand, r.spec.problems[p])}});
    }
    Json winner = nullptr;
    if (!order.empty()) {
      winner = r.spec.candidates[order[0]].name;
      ++wins[r.spec.candidates[order[0]].name];
    }
    problems.push_back({{"problem", traces::shape_key(r.spec.problems[p])}, {"shape", r.spec.problems[p]},
                        {"winner", winner}, {"points", points}});
  }
  Json candidates = Json::array(), win_counts = Json::object();
  for (const SweepCandidate& c : r.spec.candidates) {
    Json j{{"name", c.name}, {"code_object", c.code_object}, {"launch", c.launch}, {"shape", c.shape}};
    if (!c.kernel_template.empty()) j["template"] = c.kernel_template, j["arch"] = c.arch, j["params"] = c.params;
    candidates.push_back(std::move(j));
    win_counts[c.name] = wins[c.name];
  }
  return {{"sweep", r.spec.name}, {"coverage", r.full ? "full" : "sampled"}, {"candidates", candidates},
          {"problems", problems}, {"wins", win_counts}, {"invalid", invalid}};
}

}  // namespace tilelab::app
