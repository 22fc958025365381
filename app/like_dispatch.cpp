#include "app/like_dispatch.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "app/target.hpp"
#include "kernels/host.hpp"
#include "kernels/launch_expression.hpp"

namespace tilelab::app {

namespace {

std::string trimmed(std::string s) {
  const auto space = [](char c) { return c == ' ' || c == '\t'; };
  while (!s.empty() && space(s.back())) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && space(s[i])) ++i;
  return s.substr(i);
}

// The dispatch's grid in workgroups and its workgroup's threads, from an
// imported run's configuration ({"grid": [x,y,z] work-items, "workgroup":
// [x,y,z]}); nullopt when the run does not record them.
struct Grid {
  long long workgroups = 0, threads = 0;
  std::array<long long, 3> axes{1, 1, 1};  // workgroups along x, y, z
};
std::optional<Grid> recorded_grid(const traces::RunView& run) {
  const nlohmann::json cfg = nlohmann::json::parse(run.info.config_json, nullptr, false);
  if (!cfg.is_object() || !cfg.contains("grid") || !cfg.contains("workgroup")) return std::nullopt;
  const auto& g = cfg["grid"];
  const auto& w = cfg["workgroup"];
  if (!g.is_array() || !w.is_array() || g.size() != 3 || w.size() != 3) return std::nullopt;
  long double items = 1, threads = 1;
  Grid grid;
  for (int i = 0; i < 3; ++i) {
    if (!g[i].is_number_unsigned() || !w[i].is_number_unsigned()) return std::nullopt;
    const std::uint64_t along = g[i].get<std::uint64_t>(), size = w[i].get<std::uint64_t>();
    if (size == 0 || along == 0 || along > (std::uint64_t{1} << 40)) return std::nullopt;
    items *= static_cast<long double>(along);
    threads *= static_cast<long double>(size);
    grid.axes[i] = static_cast<long long>((along + size - 1) / size);
  }
  if (items > 1e18) return std::nullopt;
  grid.workgroups = static_cast<long long>((items + threads - 1) / threads);
  grid.threads = static_cast<long long>(threads);
  return grid;
}

// The run's problem_shape in the spec's words ("M=4096,N=4096,K=4096", each
// dimension once, in any order), or nullopt.
std::optional<std::vector<long long>> shape_in_words(const kernels::KernelSpec& spec, const std::string& text) {
  std::map<std::string, std::int64_t> named;
  try {
    named = parse_named_shape(text);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  if (named.size() != spec.shape_dims.size()) return std::nullopt;
  std::vector<long long> shape;
  for (const std::string& d : spec.shape_dims) {
    const auto it = named.find(d);
    if (it == named.end()) return std::nullopt;
    shape.push_back(it->second);
  }
  return shape;
}

long long workgroups_of(const kernels::KernelSpec& spec, const std::vector<long long>& shape, const std::string& arch) {
  return spec.work ? spec.work(shape, arch).workgroups : -1;
}

}  // namespace

std::string suite_kernel_name(const std::string& profiled_name) {
  std::string s = trimmed(profiled_name);
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  if (const std::size_t kd = s.rfind("(.kd)"); kd != std::string::npos && kd + 5 == s.size()) s = trimmed(s.substr(0, kd));
  const std::size_t cut = s.find_first_of("(<");
  if (cut != std::string::npos) s = s.substr(0, cut);
  if (s.size() > 3 && s.compare(s.size() - 3, 3, ".kd") == 0) s.resize(s.size() - 3);
  return trimmed(s);
}

namespace {
// The suite kernel (with a host) that a profiled kernel name means.
const kernels::KernelSpec& suite_spec_of(const traces::RunView& run) {
  const std::string name = suite_kernel_name(run.info.kernel);
  for (const kernels::KernelSpec& s : kernels::all_specs())
    if (s.name == name && kernels::find_host(s.name)) return s;
  std::string hosted;
  for (const std::string& k : kernels::hosted_kernels()) hosted += (hosted.empty() ? "" : ", ") + k;
  throw std::invalid_argument("run '" + run.info.id + "' ran kernel '" + run.info.kernel + "' ('" + name +
                              "'), which is no suite kernel (" + hosted +
                              "); a foreign code object runs with `sim FILE.co --launch L.toml`");
}

// The one example shape that launches `grid`, or a one-line refusal saying what is missing.
std::vector<long long> example_with_grid(const traces::RunView& run, const kernels::KernelSpec& spec,
                                         const std::optional<Grid>& grid, const std::string& arch) {
  std::vector<std::vector<long long>> matching;
  if (grid)
    for (const auto& example : spec.example_shapes)
      if (workgroups_of(spec, example, arch) == grid->workgroups) matching.push_back(example);
  if (matching.size() == 1) return matching.front();
  std::string listed, dims;
  for (const auto& m : matching) listed += (listed.empty() ? "" : "; ") + shape_text(spec, m);
  for (const std::string& d : spec.shape_dims) dims += (dims.empty() ? "" : ",") + d;
  throw std::invalid_argument("run '" + run.info.id + "' does not say " + spec.name +
                              "'s shape (profiles record no kernel arguments)" +
                              (grid ? ": its grid is " + std::to_string(grid->workgroups) + " workgroups" : std::string()) +
                              (matching.empty() ? std::string() : ", as in the examples " + listed) + "; give --shape " + dims);
}
}  // namespace

namespace {
void require_dispatch(const traces::RunView& run) {
  if (run.info.kind != "hw")
    throw std::invalid_argument("run '" + run.info.id + "' is a " + run.info.kind +
                                " run; --like takes a dispatch measured on a GPU (kind hw: imported or `tilelab run`)");
}
}  // namespace

LikeDispatch resolve_like(const traces::RunView& run, const std::optional<std::vector<long long>>& shape) {
  require_dispatch(run);
  const kernels::KernelSpec* spec = &suite_spec_of(run);
  LikeDispatch like;
  like.spec = spec;
  like.arch = run.info.arch;
  const std::string arch =
      std::find(spec->archs.begin(), spec->archs.end(), run.info.arch) != spec->archs.end() ? run.info.arch : spec->archs.front();
  const std::optional<Grid> grid = recorded_grid(run);
  if (grid && grid->threads != spec->threads_per_block)
    throw std::invalid_argument("run '" + run.info.id + "' ran workgroups of " + std::to_string(grid->threads) +
                                " threads; the suite's " + spec->name + " has " +
                                std::to_string(spec->threads_per_block) + " (another build of the kernel?)");
  if (grid) like.workgroups = grid->workgroups;
  if (shape) {
    like.shape = *shape, like.shape_from = "given";
  } else if (auto words = shape_in_words(*spec, run.info.problem_shape)) {
    like.shape = *words, like.shape_from = "the run's problem shape";
  } else {
    like.shape = example_with_grid(run, *spec, grid, arch), like.shape_from = "the example whose grid it is";
  }
  if (std::string v = spec->shape_violations(like.shape); !v.empty())
    throw std::invalid_argument(shape_text(*spec, like.shape) + " (" + like.shape_from + "): " + v);
  if (grid) {
    const long long launched = workgroups_of(*spec, like.shape, arch);
    if (launched >= 0 && launched != grid->workgroups)
      throw std::invalid_argument(shape_text(*spec, like.shape) + " (" + like.shape_from + ") launches " +
                                  std::to_string(launched) + " workgroups; run '" + run.info.id + "' ran " +
                                  std::to_string(grid->workgroups));
  }
  return like;
}

namespace {

// Whether a profiler's kernel name and a code object's symbol are one kernel:
// the same demangled name, or the same name without arguments and template
// (a truncated profile), a namespace on one side only allowed.
bool same_kernel(const std::string& profiled, const std::string& symbol) {
  const std::string full = isa::demangled(symbol);
  if (trimmed(profiled) == full || trimmed(profiled) == symbol) return true;
  const std::string a = suite_kernel_name(profiled), b = suite_kernel_name(full);
  const auto ends_with_scope = [](const std::string& longer, const std::string& shorter) {
    return longer.size() > shorter.size() + 2 && longer.compare(longer.size() - shorter.size() - 2, std::string::npos,
                                                                "::" + shorter) == 0;
  };
  return !a.empty() && (a == b || ends_with_scope(a, b) || ends_with_scope(b, a));
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// The template's problem dimensions not yet `known`, solved axis by axis from
// the profiled grid; `said` gains a phrase for each.
void solve_from_grid(const traces::RunView& run, const kernels::LaunchFile& l, const Grid& grid,
                     std::map<std::string, std::int64_t>& known, std::vector<std::string>& said) {
  static const char* const kAxis[] = {"x", "y", "z"};
  for (bool progress = true; progress;) {
    progress = false;
    for (int i = 0; i < 3; ++i) {
      if (l.grid_expressions[i].empty()) continue;
      const kernels::LaunchExpression e = kernels::LaunchExpression::parse(l.grid_expressions[i]);
      std::vector<std::string> open;
      for (const std::string& n : e.names())
        if (l.problem_names.count(n) && !known.count(n)) open.push_back(n);
      if (open.size() != 1) continue;
      std::map<std::string, std::int64_t> shape = l.shape;
      for (const auto& [n, v] : known) shape[n] = v;
      const std::string where = "grid " + std::string(kAxis[i]) + " = " + std::to_string(grid.axes[i]) + " (" +
                                l.grid_expressions[i] + ")";
      const auto range = kernels::solve_nondecreasing(e, open[0], shape, grid.axes[i]);
      if (!range)
        throw std::invalid_argument("run '" + run.info.id + "' ran " + where.substr(0, where.find(" (")) + "; no " +
                                    open[0] + " launches that with " + l.grid_expressions[i] + " (" + l.path + ")");
      known[open[0]] = range->second;
      said.push_back(open[0] + " from the " + where +
                     (range->first == range->second ? "" : ", which " + std::to_string(range->first) + ".." +
                                                               std::to_string(range->second) + " launch: the largest taken"));
      progress = true;
    }
  }
}

}  // namespace

LikeLaunch resolve_like_launch(const traces::RunView& run, const isa::CodeObject& co, const std::string& launch_file,
                               const std::map<std::string, std::int64_t>& given, std::uint64_t max_memory) {
  require_dispatch(run);
  // The template as written (its defaults and the given names) tells the
  // kernel, the grid's expressions and the problem's dimensions.
  const kernels::LaunchFile plan = kernels::read_launch_file(launch_file, co, max_memory, given);
  if (!same_kernel(run.info.kernel, plan.kernel))
    throw std::invalid_argument("run '" + run.info.id + "' ran kernel '" + run.info.kernel + "'; " + launch_file +
                                " launches " + isa::demangled(plan.kernel) + " of " + co.path);
  LikeLaunch like;
  like.arch = run.info.arch;
  std::map<std::string, std::int64_t> known = given;
  std::vector<std::string> said;
  if (!given.empty()) {
    std::vector<std::string> names;
    for (const auto& [n, v] : given) names.push_back(n);
    said.push_back(joined(names) + " given");
  }
  try {  // the run's problem shape, when it is in the template's words (`tilelab run`, `import --shape`)
    std::vector<std::string> names;
    for (const auto& [n, v] : parse_named_shape(run.info.problem_shape))
      if (plan.shape.count(n) && !known.count(n)) known[n] = v, names.push_back(n);
    if (!names.empty()) said.push_back(joined(names) + " from the run's problem shape");
  } catch (const std::invalid_argument&) {
  }
  const std::optional<Grid> grid = recorded_grid(run);
  if (grid) {
    like.workgroups = grid->workgroups;
    solve_from_grid(run, plan, *grid, known, said);
  }
  std::vector<std::string> missing, kept;
  for (const std::string& n : plan.problem_names)
    if (!known.count(n)) missing.push_back(n);
  if (!missing.empty())
    throw std::invalid_argument("run '" + run.info.id + "' does not say " + joined(missing) +
                                " (profiles record no kernel arguments" +
                                (grid ? std::string("; the grid does not tell it") : "; nor does it record its grid") +
                                "): give --shape " + missing.front() + "=...");
  for (const auto& [n, v] : plan.shape)
    if (!known.count(n)) kept.push_back(n + "=" + std::to_string(v));
  if (!kept.empty()) said.push_back("the template's " + joined(kept));
  like.launch = kernels::read_launch_file(launch_file, co, max_memory, known);
  like.given = known;
  like.shape_from = joined(said);
  if (grid) {
    const kernels::LaunchFile& l = like.launch;
    const long long threads = static_cast<long long>(l.block[0]) * l.block[1] * l.block[2];
    if (threads != grid->threads)
      throw std::invalid_argument("run '" + run.info.id + "' ran workgroups of " + std::to_string(grid->threads) +
                                  " threads; " + launch_file + " launches " + std::to_string(threads));
    for (int i = 0; i < 3; ++i)
      if (l.grid[i] != grid->axes[i])
        throw std::invalid_argument("the shape (" + like.shape_from + ") launches a grid of " + std::to_string(l.grid[0]) +
                                    "x" + std::to_string(l.grid[1]) + "x" + std::to_string(l.grid[2]) + "; run '" +
                                    run.info.id + "' ran " + std::to_string(grid->axes[0]) + "x" +
                                    std::to_string(grid->axes[1]) + "x" + std::to_string(grid->axes[2]));
  }
  return like;
}

std::string like_run_id(const std::string& run) { return run + "-timing"; }

std::string sim_run_id(const std::string& like, std::string_view kind, const std::string& kernel, const std::string& arch) {
  return like.empty() ? default_run_id(kind, kernel, arch) : like_run_id(like);
}

std::string like_config_json(const std::string& run) { return nlohmann::json{{"like", run}}.dump(); }

}  // namespace tilelab::app

namespace tilelab::app {

namespace {

traces::RunView profiled_run(const std::string& store, const std::string& like) {
  if (store.empty())
    throw std::invalid_argument("like=" + like + " needs out=: the store that holds the profiled run, as sim --like needs --out");
  try {
    return traces::Reader(store).run(like);
  } catch (const traces::StoreError& e) {
    throw std::invalid_argument(std::string("like=") + like + ": " + e.what());
  }
}

std::string dims_text(const std::vector<long long>& shape) {
  std::string s;
  for (long long d : shape) s += (s.empty() ? "" : ",") + std::to_string(d);
  return s;
}

}  // namespace

void check_like_suite(const std::string& store, const std::string& like, const kernels::KernelSpec& spec,
                      const std::vector<long long>& shape) {
  const LikeDispatch l = resolve_like(profiled_run(store, like), shape);
  if (l.spec->name != spec.name)
    throw std::invalid_argument("like=" + like + " is a dispatch of " + l.spec->name + ", not of " + spec.name);
  if (l.shape != shape)
    throw std::invalid_argument("like=" + like + " is " + l.spec->name + " at " + dims_text(l.shape) + ", not at " +
                                dims_text(shape));
}

void check_like_launch(const std::string& store, const std::string& like, const isa::CodeObject& co,
                       const std::string& launch_file, const kernels::LaunchFile& launch) {
  const LikeLaunch l = resolve_like_launch(profiled_run(store, like), co, launch_file, launch.shape);
  if (l.launch.grid != launch.grid)
    throw std::invalid_argument("like=" + like + " dispatched a grid of " + std::to_string(l.launch.grid[0]) + "x" +
                                std::to_string(l.launch.grid[1]) + "x" + std::to_string(l.launch.grid[2]) +
                                " workgroups, this launch " + std::to_string(launch.grid[0]) + "x" +
                                std::to_string(launch.grid[1]) + "x" + std::to_string(launch.grid[2]));
}

}  // namespace tilelab::app
