#include "tools/cli/timing_report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

#include "generated/kernel_build.hpp"
#include "tools/cli/design_run.hpp"
#include "tools/cli/json.hpp"

namespace tilelab::cli {

namespace {

std::string num(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}

std::string pc_hex(std::uint64_t pc) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(pc));
  return b;
}

// Instruction indices by stall cycles (then by latency), the hottest first.
std::vector<std::size_t> hottest(const timing::TimingResult& r, int n) {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < r.per_instruction.size(); ++i)
    if (r.per_instruction[i].hits) idx.push_back(i);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    const auto &x = r.per_instruction[a], &y = r.per_instruction[b];
    return x.stall != y.stall ? x.stall > y.stall : x.latency > y.latency;
  });
  if (idx.size() > static_cast<std::size_t>(n)) idx.resize(static_cast<std::size_t>(n));
  return idx;
}

timing::Reason top_reason(const timing::PcStats& s) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < s.stall_by_reason.size(); ++k)
    if (s.stall_by_reason[k] > s.stall_by_reason[best]) best = k;
  return s.stall_by_reason[best] ? static_cast<timing::Reason>(best) : timing::Reason::none;
}

double work_flops(const TimedRun& t) {
  if (t.timing->mfma_flops > 0) return t.timing->mfma_flops;
  return 0;
}

// Workgroups on the busiest CU (round robin: the first CUs get one more).
std::uint64_t groups_per_cu(const timing::TimingResult& r) {
  return r.cus > 0 ? (r.workgroups + static_cast<std::uint64_t>(r.cus) - 1) / static_cast<std::uint64_t>(r.cus) : 0;
}

}  // namespace

std::string pass_note(const std::string& kernel, const std::vector<std::string>& before) {
  if (before.empty()) return "";
  std::string names;
  for (const std::string& b : before) names += (names.empty() ? "" : ", ") + b;
  return "  the pass ran " + names + " first; these figures are " + kernel + "'s alone\n";
}

void print_timing_text(const TimedRun& t) {
  const timing::TimingResult& r = *t.timing;
  std::printf("%s on %s (cycle model), %s, seed %llu: %llu workgroups on %d of %d CUs, %llu waves, %llu wave-instructions\n",
              t.kernel.c_str(), r.arch.c_str(), t.shape.c_str(),
              static_cast<unsigned long long>(t.seed), static_cast<unsigned long long>(r.workgroups), r.cus_used, r.cus,
              static_cast<unsigned long long>(r.waves), static_cast<unsigned long long>(r.wave_instructions));
  std::printf("%s", pass_note(t.kernel, t.before).c_str());
  if (r.sampled_xcds)
    std::printf("  sampled: XCD 0 simulated (%llu workgroups on %d CUs), the other %d XCDs taken to be like it; "
                "totals scaled by %.3f (--full simulates everything)\n",
                static_cast<unsigned long long>(r.simulated_workgroups), r.cus_used, r.xcds - r.sampled_xcds,
                r.sample_scale);
  if (r.fast_forwarded)
    std::printf("  fast-forward: its workgroups are alike; simulated to cycle %llu, the remaining rounds at the timed "
                "rounds' rate\n",
                static_cast<unsigned long long>(r.simulated_cycles));
  const double s = r.seconds();
  std::printf("  %llu cycles = %.3f us at %.0f MHz (the clock under load, %s; launch %llu cycles)",
              static_cast<unsigned long long>(r.cycles), s * 1e6, r.clock_mhz, r.clock_status.c_str(),
              static_cast<unsigned long long>(r.launch_cycles));
  if (work_flops(t) > 0 && s > 0) std::printf("; %.1f TFLOP/s (MFMA)", work_flops(t) / s / 1e12);
  if (r.global_bytes && s > 0) std::printf("; %.1f GB/s beyond the L1s", static_cast<double>(r.global_bytes) / s / 1e9);
  if (r.xcds > 0) {
    std::printf("\n  limiter: %s   busy: MFMA %.1f%%  VALU %.1f%%  LDS %.1f%%  L2 %.1f%%  fabric %.1f%%  MALL %.1f%%  HBM %.1f%%\n",
                r.limiter().c_str(), 100 * r.mfma_utilisation(), 100 * r.valu_utilisation(), 100 * r.lds_utilisation(),
                100 * r.level_utilisation(r.l2_busy, r.l2_channels), 100 * r.level_utilisation(r.fabric_busy, r.fabric_links),
                100 * r.level_utilisation(r.mall_busy, r.mall_channels), 100 * r.level_utilisation(r.hbm_busy, r.hbm_stacks));
    const timing::ChipCounters& c = r.chip;
    auto rate = [](std::uint64_t hit, std::uint64_t all) { return all ? 100.0 * static_cast<double>(hit) / static_cast<double>(all) : 0.0; };
    std::printf("  chip (%d XCDs): L1 hit %.1f%%; L2 (TCC) %llu requests, hit %.1f%%, %llu write-backs; MALL hit %.1f%% of %llu; "
                "HBM %.2f MB (%.1f GB/s)\n",
                r.xcds, rate(r.l1_hits, r.l1_hits + r.l1_misses), static_cast<unsigned long long>(c.l2_requests),
                rate(c.l2_hits, c.l2_requests), static_cast<unsigned long long>(c.l2_writebacks),
                rate(c.mall_hits, c.mall_hits + c.mall_misses), static_cast<unsigned long long>(c.mall_hits + c.mall_misses),
                static_cast<double>(r.hbm_bytes) / 1e6, s > 0 ? static_cast<double>(r.hbm_bytes) / s / 1e9 : 0.0);
    std::printf("  kernel end: %llu dirty L2 lines written back, %llu cycles after the last wave\n",
                static_cast<unsigned long long>(r.end_writeback_lines), static_cast<unsigned long long>(r.end_writeback_cycles));
  } else {
    std::printf("\n  limiter: %s   busy: MFMA %.1f%%  VALU %.1f%%  LDS %.1f%%  global memory %.1f%%\n",
                r.limiter().c_str(), 100 * r.mfma_utilisation(), 100 * r.valu_utilisation(), 100 * r.lds_utilisation(),
                100 * r.memory_utilisation());
  }
  if (t.bound) {
    const kernels::TileBound& b = *t.bound;
    const double per_wg = std::max({b.mfma_cycles, b.lds_cycles, b.global_cycles_reused});
    std::printf("  static bound (tilelab check, per workgroup): %.0f cycles, %s (MFMA %.0f, LDS %.0f, global %.0f-%.0f); "
                "timed: %.0f cycles per workgroup on the busiest CU\n",
                per_wg, b.limiter.c_str(), b.mfma_cycles, b.lds_cycles, b.global_cycles_reused, b.global_cycles,
                static_cast<double>(r.cycles) / static_cast<double>(std::max<std::uint64_t>(1, groups_per_cu(r))));
  }
  if (t.bound && t.bound->limiter != r.limiter()) {  // say why the static bound's limiter is not the busiest unit
    std::size_t top = 1;
    for (std::size_t k = 1; k < r.stall_cycles.size(); ++k)
      if (r.stall_cycles[k] > r.stall_cycles[top]) top = k;
    std::printf("  the static bound's limiter (%s) is not the timed run's (%s): the waves wait most on %s "
                "(%.1f%% of their time), which the bound does not count\n",
                t.bound->limiter.c_str(), r.limiter().c_str(), timing::reason_name(static_cast<timing::Reason>(top)),
                100 * static_cast<double>(r.stall_cycles[top]) / static_cast<double>(std::max<std::uint64_t>(1, r.wave_cycles)));
  }
  std::printf("  where the waves' time went (wave-cycles, %% of %llu):", static_cast<unsigned long long>(r.wave_cycles));
  const double life = static_cast<double>(std::max<std::uint64_t>(1, r.wave_cycles));
  std::printf(" issue %.1f%%", 100 * static_cast<double>(r.issue_cycles) / life);
  for (int k = 1; k < timing::kReasonCount; ++k)
    if (r.stall_cycles[static_cast<std::size_t>(k)])
      std::printf(", %s %.1f%%", timing::reason_name(static_cast<timing::Reason>(k)),
                  100 * static_cast<double>(r.stall_cycles[static_cast<std::size_t>(k)]) / life);
  std::printf("\n  hottest instructions (the thread trace's per-pc columns, summed over waves):\n");
  std::printf("    %-8s %-48s %8s %10s %10s %8s  %s\n", "pc", "instruction", "hits", "latency", "stall", "idle", "waits most on");
  for (std::size_t i : hottest(r, t.top)) {
    const auto& p = r.per_instruction[i];
    const isa::Instruction& in = t.program->instructions[i];
    std::string text = in.text.size() > 48 ? in.text.substr(0, 45) + "..." : in.text;
    std::printf("    %-8s %-48s %8llu %10llu %10llu %8llu  %s\n", pc_hex(in.pc).c_str(), text.c_str(),
                static_cast<unsigned long long>(p.hits), static_cast<unsigned long long>(p.latency),
                static_cast<unsigned long long>(p.stall), static_cast<unsigned long long>(p.idle),
                timing::reason_name(top_reason(p)));
  }
  std::printf("  counters:");
  for (const auto& c : r.counters) std::printf(" %s=%s", c.name.c_str(), num(c.value).c_str());
  std::printf("\n");
  if (r.hazard_count) {
    std::printf("  HAZARDS: %llu MFMA dependency violations (the hardware would read wrong values); the first:\n",
                static_cast<unsigned long long>(r.hazard_count));
    for (std::size_t i = 0; i < std::min<std::size_t>(r.hazards.size(), 5); ++i) {
      const auto& h = r.hazards[i];
      std::printf("    pc %s after the MFMA at pc %s: %s needs %d wait states, got %d (wave %u, cycle %llu)\n",
                  pc_hex(h.pc).c_str(), pc_hex(h.producer_pc).c_str(), h.rule.c_str(), h.required, h.got, h.wave,
                  static_cast<unsigned long long>(h.cycle));
    }
  } else {
    std::printf("  hazards: none (every MFMA result read after its required wait states)\n");
  }
  if (t.reference)
    std::printf("  reference check: max relative error %.3g (tolerance %.3g): %s\n", t.reference->max_rel_error,
                t.reference->tolerance, t.reference->pass ? "PASS" : "FAIL");
  else if (r.sampled_xcds)
    std::printf("  reference check: none (a sampled run leaves the other XCDs' output unwritten; --full checks it)\n");
  else
    std::printf("  reference check: none (a launch file: nothing to compare with)\n");
  std::printf("  assumptions (figures that are not public):\n");
  for (const auto& a : r.assumptions) std::printf("    - %s\n", a.c_str());
  if (r.events_dropped)
    std::printf("  (%llu issue records beyond the first %zu were counted but not kept)\n",
                static_cast<unsigned long long>(r.events_dropped), r.events.size());
  std::printf("  simulated in %.3f s (%.2f M wave-instructions/s)\n", t.model_seconds,
              t.model_seconds > 0 ? static_cast<double>(r.wave_instructions) / t.model_seconds / 1e6 : 0.0);
}

std::string timing_json(const TimedRun& t) {
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
                 {"utilisation",
                  {{"l2", r.level_utilisation(r.l2_busy, r.l2_channels)},
                   {"fabric", r.level_utilisation(r.fabric_busy, r.fabric_links)},
                   {"mall", r.level_utilisation(r.mall_busy, r.mall_channels)},
                   {"hbm", r.level_utilisation(r.hbm_busy, r.hbm_stacks)}}}};
  j["ran_before"] = t.before;  // the pass's earlier kernels, not in these figures
  Json stalls = Json::object();
  for (int k = 1; k < timing::kReasonCount; ++k)
    stalls[timing::reason_name(static_cast<timing::Reason>(k))] = r.stall_cycles[static_cast<std::size_t>(k)];
  j["stall_cycles"] = stalls;
  j["counters"] = Json::array();
  for (const auto& c : r.counters) j["counters"].push_back({{"name", c.name}, {"unit", c.unit}, {"value", c.value}});
  j["hottest"] = Json::array();
  for (std::size_t i : hottest(r, t.top)) {
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
  j["reference"] = t.reference ? Json{{"pass", t.reference->pass},
                                      {"max_rel_error", t.reference->max_rel_error},
                                      {"tolerance", t.reference->tolerance}}
                               : Json(nullptr);
  j["assumptions"] = r.assumptions;
  return j.dump();
}

std::uint64_t add_lds_sites(traces::RunWriter& w, const emu::RunStats& stats) {
  std::uint64_t conflicts = 0;
  for (const auto& s : stats.lds_sites) {
    traces::LdsRecord l{};
    traces::set_text(l.site, pc_hex(s.pc));
    l.pc = static_cast<std::uint32_t>(s.pc);
    traces::set_text(l.instruction, s.instruction);
    l.worst_ways = static_cast<std::uint16_t>(s.max_ways);
    l.conflict_cycles = s.conflict_cycles;
    l.count = s.executions;
    conflicts += s.conflict_cycles;
    w.add_lds(l);
  }
  return conflicts;
}

void record_timing(const std::string& file, const std::string& id, const TimedRun& t) {
  const timing::TimingResult& r = *t.timing;
  traces::RunInfo info = design_run_info(id, t.kernel, r.arch);
  info.kind = "sim";
  info.backend = "cycle-model";
  info.device = "cycle model, " + std::to_string(r.cus) + " CUs at " + num(r.clock_mhz) + " MHz";
  info.compiler = kernels::build::kCompiler;
  info.seed = t.seed;
  info.problem_shape = t.shape;
  info.time_unit = "cycles";
  info.config_json = Json{{"cus", r.cus},
                          {"clock_mhz", r.clock_mhz},
                          {"clock_status", r.clock_status},
                          {"sampled", r.sampled_xcds > 0},
                          {"fast_forwarded", r.fast_forwarded},
                          {"simulated_workgroups", r.simulated_workgroups},
                          {"limiter", r.limiter()},
                          {"pass", t.reference ? Json(t.reference->pass) : Json(nullptr)},
                          {"hazards", r.hazard_count},
                          {"events_dropped", r.events_dropped},
                          {"ran_before", t.before}}
                         .dump();
  traces::RunWriter w(file, info, store_writer_options());

  // Names behind the events' small ids: opcodes by instruction mnemonic.
  std::vector<std::string> opcodes;
  std::map<std::string, std::uint16_t> opcode_id;
  std::vector<std::uint16_t> opcode_of(t.program->instructions.size());
  for (std::size_t i = 0; i < t.program->instructions.size(); ++i) {
    const std::string m(t.program->instructions[i].mnemonic());
    auto [it, fresh] = opcode_id.emplace(m, static_cast<std::uint16_t>(opcodes.size()));
    if (fresh) opcodes.push_back(m);
    opcode_of[i] = it->second;
  }
  std::vector<std::string> classes, reasons;
  for (int c = 0; c < isa::kInstClassCount; ++c) classes.push_back(isa::class_name(static_cast<isa::InstClass>(c)));
  for (int k = 0; k < timing::kReasonCount; ++k) reasons.push_back(timing::reason_name(static_cast<timing::Reason>(k)));
  w.set_opcode_names(opcodes);
  w.set_class_names(classes);
  w.set_stall_reason_names(reasons);
  for (const auto& s : r.waves_spans) w.add_wave({s.wave, s.workgroup, s.cu, s.simd, s.slot, static_cast<std::int64_t>(s.start),
                                                 static_cast<std::int64_t>(s.end)});
  for (const auto& e : r.events) {
    const isa::Instruction& in = t.program->instructions[e.index];
    w.add_event({e.wave, static_cast<std::uint32_t>(in.pc), opcode_of[e.index], static_cast<std::uint8_t>(in.cls),
                 static_cast<std::uint8_t>(e.reason), e.stall, static_cast<std::int64_t>(e.issue),
                 static_cast<std::int64_t>(e.complete)});
  }
  add_lds_sites(w, *t.stats);
  for (std::size_t i = 0; i < r.per_instruction.size(); ++i) {  // the thread trace's per-pc columns
    const timing::PcStats& p = r.per_instruction[i];
    if (!p.hits) continue;
    traces::PcStatRecord s{};
    s.pc = static_cast<std::uint32_t>(t.program->instructions[i].pc);
    traces::set_text(s.instruction, t.program->instructions[i].text);
    s.hits = p.hits;
    s.latency = static_cast<std::int64_t>(p.latency);
    s.stall = static_cast<std::int64_t>(p.stall);
    s.idle = static_cast<std::int64_t>(p.idle);
    w.add_pc_stat(s);
  }
  for (const auto& c : r.counters) w.add_counter(c.name, c.value);
  // The chip the counters describe, for the derived chip-wide rates.
  w.add_counter("CU_NUM", static_cast<double>(r.cus));
  w.add_counter("XCC_NUM", 1);  // GRBM_GUI_ACTIVE is the dispatch's cycles, once
  w.add_counter("cycles", static_cast<double>(r.cycles));
  w.add_counter("wave_instructions", static_cast<double>(r.wave_instructions));
  w.add_counter("hazards", static_cast<double>(r.hazard_count));
  if (t.reference) w.add_counter("max_rel_error", t.reference->max_rel_error);
  for (int k = 1; k < timing::kReasonCount; ++k)
    w.add_counter(std::string("stall_cycles.") + timing::reason_name(static_cast<timing::Reason>(k)),
                  static_cast<double>(r.stall_cycles[static_cast<std::size_t>(k)]));
  w.add_counter("issue_cycles", static_cast<double>(r.issue_cycles));
  w.add_counter("utilisation.mfma", r.mfma_utilisation());
  w.add_counter("utilisation.valu", r.valu_utilisation());
  w.add_counter("utilisation.lds", r.lds_utilisation());
  w.add_counter("utilisation.global_memory", r.memory_utilisation());
  traces::Summary sum;
  sum.median_ns = sum.min_ns = sum.p10_ns = sum.p90_ns = r.seconds() * 1e9;
  sum.tflops = r.seconds() > 0 ? work_flops(t) / r.seconds() / 1e12 : 0;
  sum.gbps = r.seconds() > 0 ? static_cast<double>(r.global_bytes) / r.seconds() / 1e9 : 0;
  sum.max_rel_error = t.reference ? t.reference->max_rel_error : 0;
  sum.correct = t.reference && t.reference->pass;
  if (t.reference) w.set_summary(sum);  // no reference (a launch file): no claim of correctness; the time is in `cycles`
  w.finish();
}

}  // namespace tilelab::cli
