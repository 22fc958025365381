#include "app/lds_json.hpp"

#include <algorithm>

namespace tilelab::app {

namespace {
Json lane_list(std::uint64_t mask) {
  Json l = Json::array();
  for (int i = 0; i < 64; ++i)
    if ((mask >> i) & 1) l.push_back(i);
  return l;
}
}  // namespace

Json lds_analysis_json(const lds::Analysis& a) {
  Json passes = Json::array();
  for (int p = 0; p < a.entries; ++p) {
    const lds::Pass& x = a.pass[p];
    passes.push_back({{"lanes", lane_list(x.lanes)}, {"active", lane_list(x.active)}, {"banks", x.banks},
                      {"ways", x.ways}});
  }
  return {{"passes", passes}, {"cycles", a.cycles}, {"conflict_cycles", a.conflict_cycles}, {"max_ways", a.max_ways}};
}

Json lds_json(const arch::Arch& a, const arch::LdsInstruction& ins, const lds::Analysis& r) {
  return {{"arch", a.name}, {"inst", ins.name}, {"status", arch::to_string(ins.status)}, {"analysis", lds_analysis_json(r)}};
}

Json lds_tile_json(const arch::Arch& a, const arch::LdsInstruction& ins, const lds::TileReport& r) {
  Json instructions = Json::array();
  for (std::size_t i = 0; i < r.analyses.size(); ++i)
    instructions.push_back({{"wave", r.instructions[i].wave}, {"index", r.instructions[i].index},
                            {"analysis", lds_analysis_json(r.analyses[i])}});
  return {{"arch", a.name},        {"inst", ins.name}, {"status", arch::to_string(ins.status)}, {"instructions", instructions},
          {"cycles", r.cycles},    {"conflict_cycles", r.conflict_cycles}, {"worst", r.worst}};
}

Json occupancy_json(const arch::Arch& a, const lds::Occupancy& o) {
  Json limits = Json::object();
  for (const auto& l : o.limits) limits[l.resource] = l.workgroups_per_cu;
  return {{"arch", a.name},
          {"waves_per_workgroup", o.waves_per_workgroup},
          {"workgroups_per_cu", o.workgroups_per_cu},
          {"waves_per_cu", o.waves_per_cu},
          {"waves_per_simd", o.waves_per_simd},
          {"limited_by", o.limited_by},
          {"limits", limits}};
}

Json swizzle_json(const arch::Arch& a, const lds::SearchResult& s, int top) {
  auto candidate = [](const lds::Candidate& c) {
    return Json{{"layout", c.layout}, {"write_conflict_cycles", c.write_conflicts},
                {"read_conflict_cycles", c.read_conflicts}, {"extra_bytes", c.extra_bytes}};
  };
  Json best = Json::array();
  const std::size_t n = top > 0 ? std::min(static_cast<std::size_t>(top), s.ranked.size()) : s.ranked.size();
  for (std::size_t i = 0; i < n; ++i) best.push_back(candidate(s.ranked[i]));
  return {{"arch", a.name}, {"evaluated", s.evaluated}, {"skipped", s.skipped}, {"plain", candidate(s.plain)},
          {"best", best}};
}

}  // namespace tilelab::app
