#include "app/like_dispatch.hpp"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "app/target.hpp"
#include "kernels/host.hpp"

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
};
std::optional<Grid> recorded_grid(const traces::RunView& run) {
  const nlohmann::json cfg = nlohmann::json::parse(run.info.config_json, nullptr, false);
  if (!cfg.is_object() || !cfg.contains("grid") || !cfg.contains("workgroup")) return std::nullopt;
  const auto& g = cfg["grid"];
  const auto& w = cfg["workgroup"];
  if (!g.is_array() || !w.is_array() || g.size() != 3 || w.size() != 3) return std::nullopt;
  long double items = 1, threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (!g[i].is_number_unsigned() || !w[i].is_number_unsigned()) return std::nullopt;
    items *= g[i].get<std::uint64_t>();
    threads *= w[i].get<std::uint64_t>();
  }
  if (threads <= 0 || items <= 0 || items > 1e18) return std::nullopt;
  return Grid{static_cast<long long>((items + threads - 1) / threads), static_cast<long long>(threads)};
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

LikeDispatch resolve_like(const traces::RunView& run, const std::optional<std::vector<long long>>& shape) {
  if (run.info.kind != "hw")
    throw std::invalid_argument("run '" + run.info.id + "' is a " + run.info.kind +
                                " run; --like takes a dispatch measured on a GPU (kind hw: imported or `tilelab run`)");
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

std::string like_run_id(const std::string& run) { return run + "-timing"; }

std::string like_config_json(const std::string& run) { return nlohmann::json{{"like", run}}.dump(); }

}  // namespace tilelab::app
