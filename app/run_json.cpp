#include "app/run_json.hpp"

#include <algorithm>
#include <cstdio>

namespace tilelab::app {

std::string pc_hex(std::uint64_t pc) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(pc));
  return b;
}

std::string figure_text(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}

Json races_json(const emu::LdsRaceLog& races) {
  Json first = Json::array();
  for (const emu::LdsRace& x : races.first)
    first.push_back({{"kind", x.kind},
                     {"address", x.address},
                     {"workgroup", x.workgroup},
                     {"barriers", x.barriers},
                     {"first", {{"wave", x.first_wave}, {"pc", pc_hex(x.first_pc)}, {"text", x.first_text}}},
                     {"second", {{"wave", x.second_wave}, {"pc", pc_hex(x.second_pc)}, {"text", x.second_text}}}});
  return {{"count", races.count}, {"first", first}};
}

Json chip_bound_json(const kernels::ChipBound& c) {
  Json levels = Json::object();
  for (const auto& l : c.levels) levels[l.level] = {{"bytes", l.bytes}, {"cycles", l.cycles}};
  return {{"cycles", c.cycles},       {"microseconds", c.microseconds()}, {"limiter", c.limiter},
          {"launch_cycles", c.launch_cycles}, {"levels", levels}};
}

Json functional_json(const SuiteTarget& target, const FunctionalRun& r, const std::vector<LdsKindRow>& rows) {
  Json j = {{"kernel", target.spec->name},         {"arch", r.arch},
            {"shape", shape_text(*target.spec, r.shape)}, {"seed", r.seed},
            {"pass", r.pass},              {"max_rel_error", r.max_rel_error},
            {"tolerance", r.tolerance},    {"workgroups", r.stats.workgroups},
            {"waves", r.stats.waves},      {"wave_instructions", r.stats.wave_instructions}};
  j["ran_before"] = r.before;  // the pass's earlier kernels; the figures are this kernel's
  j["lds_races"] = races_json(r.stats.lds_races);
  if (r.same_output_in_reverse_order) j["lds_races"]["same_output_in_reverse_order"] = *r.same_output_in_reverse_order;
  j["lds_sites"] = Json::array();
  for (const auto& s : r.stats.lds_sites)
    j["lds_sites"].push_back({{"pc", pc_hex(s.pc)}, {"text", s.text}, {"instruction", s.instruction},
                              {"modelled", s.modelled}, {"executions", s.executions},
                              {"conflict_cycles", s.conflict_cycles}, {"worst_ways", s.max_ways}});
  j["lds_vs_design"] = Json::array();
  for (const auto& row : rows)
    j["lds_vs_design"].push_back({{"instruction", row.kind}, {"emulated", row.emulated},
                                  {"designed", row.designed ? Json(*row.designed) : Json(nullptr)},
                                  {"agree", row.agree()}});
  return j;
}

Json listing_json(const TimedRun& t) {
  const isa::Program& p = *t.program;
  Json rows = Json::array();
  for (const ListingRow& row : listing_rows(p, *t.timing)) {
    const isa::Instruction& in = p.instructions[row.index];
    const timing::PcStats& s = row.stats;
    Json by_reason = Json::object();
    for (int k = 1; k < timing::kReasonCount; ++k)
      if (s.stall_by_reason[static_cast<std::size_t>(k)])
        by_reason[timing::reason_name(static_cast<timing::Reason>(k))] = s.stall_by_reason[static_cast<std::size_t>(k)];
    rows.push_back({{"pc", pc_hex(in.pc)},
                    {"class", isa::class_name(in.cls)},
                    {"loop_depth", row.loop_depth},
                    {"text", in.text},
                    {"hits", s.hits},
                    {"latency", s.latency},
                    {"stall", s.stall},
                    {"idle", s.idle},
                    {"waits_most_on", s.stall ? Json(timing::reason_name(row.waits_most_on)) : Json(nullptr)},
                    {"stall_by_reason", by_reason},
                    {"source", row.index < t.source.size() && !t.source[row.index].empty() ? Json(t.source[row.index]) : Json(nullptr)}});
  }
  return rows;
}

Json timing_json(const TimedRun& t) {
  const timing::TimingResult& r = *t.timing;
  const double s = r.seconds();
  Json j = {{"kernel", t.kernel},
            {"arch", r.arch},
            {"shape", t.shape},
            {"seed", t.seed},
            {"cycles", r.cycles},
            {"seconds", s},
            {"clock_mhz", r.clock_mhz},
            {"clock_status", r.clock_status},
            {"sampled", r.sampled_xcds > 0},
            {"fast_forwarded", r.fast_forwarded},
            {"end_writeback_lines", r.end_writeback_lines},
            {"end_writeback_cycles", r.end_writeback_cycles},
            {"simulated_cycles", r.fast_forwarded ? r.simulated_cycles : r.cycles},
            {"simulated_workgroups", r.simulated_workgroups},
            {"launch_cycles", r.launch_cycles},
            {"tflops", s > 0 ? work_flops(t) / s / 1e12 : 0},
            {"global_bytes", r.global_bytes},
            {"cus", r.cus},
            {"cus_used", r.cus_used},
            {"workgroups", r.workgroups},
            {"waves", r.waves},
            {"wave_instructions", r.wave_instructions},
            {"limiter", r.limiter()},
            {"utilisation",
             {{"mfma", r.mfma_utilisation()},
              {"valu", r.valu_utilisation()},
              {"lds", r.lds_utilisation()},
              {"global_memory", r.memory_utilisation()}}},
            {"wave_cycles", r.wave_cycles},
            {"issue_cycles", r.issue_cycles}};
  if (r.xcds > 0)
    j["chip"] = {{"xcds", r.xcds},
                 {"l2_requests", r.chip.l2_requests},
                 {"l2_hits", r.chip.l2_hits},
                 {"l2_misses", r.chip.l2_misses},
                 {"l2_writebacks", r.chip.l2_writebacks},
                 {"mall_hits", r.chip.mall_hits},
                 {"mall_misses", r.chip.mall_misses},
                 {"hbm_bytes", r.hbm_bytes},
                 {"mall_hbm_estimated", r.chip_fetches_estimated},  // the chip's, estimated from a scaled run (fetch_footprint.hpp)
                 {"utilisation",
                  {{"l2", r.level_utilisation(r.l2_busy, r.l2_channels)},
                   {"fabric", r.level_utilisation(r.fabric_busy, r.fabric_links)},
                   {"mall", r.level_utilisation(r.mall_busy, r.mall_channels)},
                   {"hbm", r.level_utilisation(r.hbm_busy, r.hbm_channels)}}}};
  j["ran_before"] = t.before;  // the pass's earlier kernels, not in these figures
  Json stalls = Json::object();
  for (int k = 1; k < timing::kReasonCount; ++k)
    stalls[timing::reason_name(static_cast<timing::Reason>(k))] = r.stall_cycles[static_cast<std::size_t>(k)];
  j["stall_cycles"] = stalls;
  j["counters"] = Json::object();  // AMD's names; their units beside them
  j["counter_units"] = Json::object();
  for (const auto& c : r.counters) j["counters"][c.name] = c.value, j["counter_units"][c.name] = c.unit;
  j["hottest"] = Json::array();
  for (std::size_t i : hottest_instructions(r, t.top)) {
    const auto& p = r.per_instruction[i];
    j["hottest"].push_back({{"pc", pc_hex(t.program->instructions[i].pc)},
                            {"text", t.program->instructions[i].text},
                            {"hits", p.hits},
                            {"latency", p.latency},
                            {"stall", p.stall},
                            {"idle", p.idle},
                            {"waits_most_on", timing::reason_name(top_reason(p))}});
  }
  j["hazard_count"] = r.hazard_count;
  j["hazards"] = Json::array();
  for (std::size_t i = 0; i < std::min<std::size_t>(r.hazards.size(), 20); ++i) {
    const auto& h = r.hazards[i];
    j["hazards"].push_back({{"pc", pc_hex(h.pc)}, {"producer_pc", pc_hex(h.producer_pc)}, {"rule", h.rule},
                            {"required", h.required}, {"got", h.got}});
  }
  j["static_bound"] = t.bound ? Json{{"cycles_per_workgroup",
                                      std::max({t.bound->mfma_cycles, t.bound->lds_cycles, t.bound->global_cycles_reused})},
                                     {"limiter", t.bound->limiter}}
                              : Json(nullptr);
  j["chip_bound"] = t.chip_bound ? chip_bound_json(*t.chip_bound) : Json(nullptr);
  j["reference"] = t.reference ? Json{{"pass", t.reference->pass},
                                      {"max_rel_error", t.reference->max_rel_error},
                                      {"tolerance", t.reference->tolerance}}
                               : Json(nullptr);
  j["assumptions"] = r.assumptions;
  return j;
}


Json stored_run_json(const traces::Reader& r, const std::string& id, bool detail) {
  const traces::RunView v = r.run(id);
  const traces::RunInfo& i = v.info;
  Json j{{"id", i.id},
         {"kind", i.kind},
         {"kernel", i.kernel},
         {"problem_shape", i.problem_shape},
         {"arch", i.arch},
         {"device", i.device},
         {"backend", i.backend},
         {"utc_time", i.utc_time},
         {"complete", v.complete}};
  if (v.summary) {
    const traces::Summary& s = *v.summary;
    j["summary"] = Json{{"median_ns", s.median_ns}, {"p10_ns", s.p10_ns},   {"p90_ns", s.p90_ns},
                        {"min_ns", s.min_ns},       {"iqr_ns", s.iqr_ns},   {"tflops", s.tflops},
                        {"gbps", s.gbps},           {"max_rel_error", s.max_rel_error},
                        {"checked", s.checked},     {"correct", s.correct}};
  } else {
    j["summary"] = nullptr;
  }
  if (!detail) return j;
  j["config"] = Json::parse(i.config_json.empty() ? "null" : i.config_json, nullptr, false);
  if (j["config"].is_discarded()) j["config"] = i.config_json;  // kept as text when it is not JSON
  j["seed"] = i.seed;
  j["git_revision"] = i.git_revision;
  j["compiler"] = i.compiler;
  j["driver"] = i.driver;
  j["code_object_sha256"] = i.code_object_sha256;
  j["arch_file_sha256"] = i.arch_file_sha256;
  j["host"] = i.host;
  j["time_unit"] = i.time_unit;
  j["sizes"] = Json{{"repetitions", v.repetitions}, {"waves", v.waves}, {"events", v.events},
                    {"lds_sites", v.lds_sites},     {"counters", v.counters}, {"pc_stats", v.pc_stats}};
  Json counters = Json::object();
  for (const auto& [k, val] : r.counters(id)) counters[k] = val;
  j["counters"] = counters;
  Json lds = Json::array();
  for (const traces::LdsRecord& l : r.lds(id))
    lds.push_back({{"site", std::string(l.site)}, {"pc", l.pc}, {"instruction", std::string(l.instruction)},
                   {"phases", l.phases}, {"worst_ways", l.worst_ways}, {"conflict_cycles", l.conflict_cycles},
                   {"count", l.count}});
  j["lds"] = lds;
  return j;
}

}  // namespace tilelab::app
