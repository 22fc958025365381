#include "app/design_check_run.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "app/compile_kernel.hpp"
#include "app/run_json.hpp"
#include "app/target.hpp"
#include "kernels/code_object_dir.hpp"

namespace tilelab::app {

namespace fs = std::filesystem;

std::optional<kernels::CompiledFacts> compiled_facts(const kernels::KernelSpec& spec, const std::string& arch,
                                                     const std::string& dir, const std::string& code_object,
                                                     std::map<std::string, isa::CodeObject>& read) {
  std::string file = code_object;
  if (file.empty()) {
    if (std::find(spec.archs.begin(), spec.archs.end(), arch) == spec.archs.end()) return std::nullopt;
    const fs::path base = dir.empty() ? fs::path(kernels::code_object_dir()) : fs::path(dir);
    file = (base / arch / (fs::path(spec.source).stem().string() + ".hsaco")).string();
    if (!fs::exists(file)) return std::nullopt;
  }
  auto it = read.find(file);
  if (it == read.end()) it = read.emplace(file, isa::read_code_object(file)).first;
  return facts_of(it->second.kernel(spec.name));
}

kernels::CompiledFacts facts_of(const isa::Kernel& k) {
  return kernels::CompiledFacts{k.vgpr_count, k.agpr_count, k.sgpr_count, k.group_segment_fixed_size,
                                k.private_segment_fixed_size, k.max_flat_workgroup_size};
}

VariantDesign check_variant(const std::string& kernel, const arch::Arch& a, const kernels::TemplateParams& params,
                            const std::optional<std::vector<long long>>& shape, const std::string& cache_dir) {
  kernels::KernelSpec spec = kernels::variant_spec(kernel, params);
  const std::string source = fs::path(spec.source).stem().string();
  const std::string code_object = compile_variant(source, a.name, params, cache_dir).code_object;
  std::map<std::string, isa::CodeObject> read;
  const auto compiled = compiled_facts(spec, a.name, "", code_object, read);
  kernels::DesignReport report = kernels::design_check(spec, a, compiled, shape);
  return {std::move(spec), code_object, std::move(report)};
}

std::string variant_refusal(const kernels::DesignReport& r) {
  if (r.compiled && r.compiled->scratch_bytes)
    return "it spills: " + std::to_string(r.compiled->scratch_bytes) + " bytes of scratch per lane";
  if (r.lds_bytes > r.lds_capacity)
    return "its LDS does not fit: " + std::to_string(r.lds_bytes) + " bytes, " + r.arch + " has " +
           std::to_string(r.lds_capacity);
  return "";
}

Json design_json(const kernels::KernelSpec& spec, const kernels::DesignReport& r) {
  Json j = {{"kernel", spec.name},           {"arch", r.arch},
            {"clean", r.problems.empty()},  {"lds_bytes", r.lds_bytes},
            {"lds_capacity", r.lds_capacity}, {"conflict_cycles", r.conflict_cycles}};
  j["accesses"] = Json::array();
  for (const auto& a : r.accesses)
    j["accesses"].push_back({{"what", a.what}, {"instruction", a.instruction}, {"instructions", a.instructions},
                             {"cycles", a.cycles}, {"conflict_cycles", a.conflict_cycles}, {"worst_ways", a.worst_ways}});
  if (r.compiled)
    j["compiled"] = {{"vgprs", r.compiled->vgprs}, {"agprs", r.compiled->agprs}, {"sgprs", r.compiled->sgprs},
                     {"lds_bytes", r.compiled->lds_bytes}, {"scratch_bytes", r.compiled->scratch_bytes}};
  if (r.occupancy) {
    j["workgroups_per_cu"] = r.occupancy->workgroups_per_cu;
    j["waves_per_simd"] = r.occupancy->waves_per_simd;
  }
  j["occupancy_limited_by"] = r.limited_by;
  if (r.bound) {
    const auto& b = *r.bound;
    j["bound"] = {{"shape", shape_text(spec, b.shape)},
                  {"workgroups", b.work.workgroups},
                  {"mfma_cycles", std::llround(b.mfma_cycles)},
                  {"lds_cycles", std::llround(b.lds_cycles)},
                  {"global_bytes", b.work.global_bytes},
                  {"global_cycles", std::llround(b.global_cycles)},
                  {"global_cycles_reused", std::llround(b.global_cycles_reused)},
                  {"limiter", b.limiter}};
  }
  if (r.chip) j["chip_bound"] = chip_bound_json(*r.chip);
  j["problems"] = r.problems;
  return j;
}

}  // namespace tilelab::app
