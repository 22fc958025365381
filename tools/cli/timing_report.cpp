#include "tools/cli/timing_report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "app/run_json.hpp"
#include "traces/analysis.hpp"
#include "traces/text_table.hpp"

namespace tilelab::cli {

namespace {

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
  if (r.fast_forwarded && r.fast_forward_axis >= 0)
    std::printf("  fast-forward: each workgroup's work is set by its %c coordinate; simulated to cycle %llu, the rest "
                "dealt to the CUs at each kind's timed rate\n",
                "xyz"[r.fast_forward_axis], static_cast<unsigned long long>(r.simulated_cycles));
  else if (r.fast_forwarded)
    std::printf("  fast-forward: its workgroups are alike; simulated to cycle %llu, the remaining rounds at the timed "
                "rounds' rate\n",
                static_cast<unsigned long long>(r.simulated_cycles));
  const double s = r.seconds();
  std::printf("  %llu cycles = %.3f us at %.0f MHz (the clock under load, %s; launch %llu cycles)",
              static_cast<unsigned long long>(r.cycles), s * 1e6, r.clock_mhz, r.clock_status.c_str(),
              static_cast<unsigned long long>(r.launch_cycles));
  if (app::work_flops(t) > 0 && s > 0) std::printf("; %.1f TFLOP/s (MFMA)", app::work_flops(t) / s / 1e12);
  if (r.global_bytes && s > 0) std::printf("; %.1f GB/s beyond the L1s", static_cast<double>(r.global_bytes) / s / 1e9);
  if (r.xcds > 0) {
    std::printf("\n  limiter: %s   busy: MFMA %.1f%%  VALU %.1f%%  LDS %.1f%%  L2 %.1f%%  fabric %.1f%%  MALL %.1f%%  HBM %.1f%%\n",
                r.limiter().c_str(), 100 * r.mfma_utilisation(), 100 * r.valu_utilisation(), 100 * r.lds_utilisation(),
                100 * r.level_utilisation(r.l2_busy, r.l2_channels), 100 * r.level_utilisation(r.fabric_busy, r.fabric_links),
                100 * r.level_utilisation(r.mall_busy, r.mall_channels), 100 * r.level_utilisation(r.hbm_busy, r.hbm_channels));
    const timing::ChipCounters& c = r.chip;
    auto rate = [](std::uint64_t hit, std::uint64_t all) { return all ? 100.0 * static_cast<double>(hit) / static_cast<double>(all) : 0.0; };
    std::printf("  chip (%d XCDs): L1 hit %.1f%%; L2 (TCC) %llu requests, hit %.1f%%, %llu write-backs; MALL hit %.1f%% of %llu; "
                "HBM %.2f MB (%.1f GB/s)\n",
                r.xcds, rate(r.l1_hits, r.l1_hits + r.l1_misses), static_cast<unsigned long long>(c.l2_requests),
                rate(c.l2_hits, c.l2_requests), static_cast<unsigned long long>(c.l2_writebacks),
                rate(c.mall_hits, c.mall_hits + c.mall_misses), static_cast<unsigned long long>(c.mall_hits + c.mall_misses),
                static_cast<double>(r.hbm_bytes) / 1e6, s > 0 ? static_cast<double>(r.hbm_bytes) / s / 1e9 : 0.0);
    if (r.chip_fetches_estimated)
      std::printf("  (MALL and HBM estimated for the chip from the part simulated: each buffer's lines fetched from HBM as "
                  "often as the simulated part fetched its own, the rest MALL hits; --full counts them)\n");
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
  if (t.chip_bound) {
    const kernels::ChipBound& c = *t.chip_bound;
    std::printf("  whole-chip bound (tilelab check): %.0f cycles, limiter %s; timed: %.2fx the bound\n", c.cycles,
                c.limiter.c_str(), static_cast<double>(r.cycles) / std::max(1.0, c.cycles));
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
  {
    using Align = traces::TextTable::Align;
    traces::TextTable hot({{"pc", Align::left}, {"instruction", Align::left}, {"hits"}, {"latency"}, {"stall"}, {"idle"},
                           {"waits most on", Align::left}});
    for (std::size_t i : app::hottest_instructions(r, t.top)) {
      const auto& p = r.per_instruction[i];
      const isa::Instruction& in = t.program->instructions[i];
      hot.add_row({app::pc_hex(in.pc), in.text.size() > 48 ? in.text.substr(0, 45) + "..." : in.text, std::to_string(p.hits),
                   std::to_string(p.latency), std::to_string(p.stall), std::to_string(p.idle),
                   timing::reason_name(app::top_reason(p))});
    }
    std::ostringstream table;
    hot.print(table, "    ");
    std::fputs(table.str().c_str(), stdout);
  }
  std::printf("  counters:");
  for (const auto& c : r.counters) std::printf(" %s=%s", c.name.c_str(), app::figure_text(c.value).c_str());
  std::printf("\n");
  if (r.hazard_count) {
    std::printf("  HAZARDS: %llu MFMA dependency violations (the hardware would read wrong values); the first:\n",
                static_cast<unsigned long long>(r.hazard_count));
    for (std::size_t i = 0; i < std::min<std::size_t>(r.hazards.size(), 5); ++i) {
      const auto& h = r.hazards[i];
      std::printf("    pc %s after the MFMA at pc %s: %s needs %d wait states, got %d (wave %u, cycle %llu)\n",
                  app::pc_hex(h.pc).c_str(), app::pc_hex(h.producer_pc).c_str(), h.rule.c_str(), h.required, h.got, h.wave,
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

void print_timing_listing(const TimedRun& t) {
  const timing::TimingResult& r = *t.timing;
  const isa::Program& p = *t.program;
  using Align = traces::TextTable::Align;
  traces::TextTable rows({{"pc", Align::left}, {"class", Align::left}, {"loop", Align::left}, {"hits"}, {"latency"},
                          {"stall"}, {"idle"}, {"waits most on", Align::left}, {"instruction", Align::left},
                          {"source", Align::left}});
  std::string last_source;
  for (const app::ListingRow& row : app::listing_rows(p, r)) {
    const isa::Instruction& in = p.instructions[row.index];
    const timing::PcStats& s = row.stats;
    const char* mark = in.cls == isa::InstClass::MFMA ? "M " : in.cls == isa::InstClass::LDS || in.cls == isa::InstClass::LDS_DMA ? "L " : "";
    const std::string source = row.index < t.source.size() ? t.source[row.index] : "";
    rows.add_row({app::pc_hex(in.pc), isa::class_name(in.cls), row.loop_depth ? std::string(static_cast<std::size_t>(row.loop_depth), '|') : "-",
                  std::to_string(s.hits), std::to_string(s.latency), std::to_string(s.stall), std::to_string(s.idle),
                  s.stall ? timing::reason_name(row.waits_most_on) : "-", mark + in.text,
                  traces::source_cell(source, last_source)});
  }
  std::printf("\n  listing (program order, M MFMA, L LDS; the per-pc columns summed over the simulated waves%s; "
              "waits at a barrier on the s_barrier; the source line where it changes%s):\n",
              r.sampled_xcds ? ", XCD 0's" : "",
              std::none_of(t.source.begin(), t.source.end(), [](const std::string& x) { return !x.empty(); })
                  ? ", none: the code object has no line table"
                  : "");
  std::ostringstream table;
  rows.print(table, "    ");
  std::fputs(table.str().c_str(), stdout);
}

}  // namespace tilelab::cli
