#include "app/record.hpp"

#include <cstdio>
#include <map>

#include "app/json.hpp"
#include "app/provenance.hpp"
#include "app/run_json.hpp"
#include "generated/kernel_build.hpp"

namespace tilelab::app {

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

void record_timing(const std::string& file, const std::string& id, const TimedRun& t, const traces::WriterOptions& options) {
  const timing::TimingResult& r = *t.timing;
  traces::RunInfo info = run_info(id, "sim", t.kernel, r.arch);
  if (t.arch) set_arch_file(info, *t.arch);
  info.code_object_sha256 = t.code_object_sha256;
  info.backend = "cycle-model";
  info.device = "cycle model, " + std::to_string(r.cus) + " CUs at " + figure_text(r.clock_mhz) + " MHz";
  info.compiler = kernels::build::kCompiler;
  info.seed = t.seed;
  info.problem_shape = t.shape;
  info.time_unit = "cycles";
  Json config = Json{{"cus", r.cus},
                          {"clock_mhz", r.clock_mhz},
                          {"clock_status", r.clock_status},
                          {"sampled", r.sampled_xcds > 0},
                          {"fast_forwarded", r.fast_forwarded},
                          {"simulated_workgroups", r.simulated_workgroups},
                          {"limiter", r.limiter()},
                          {"pass", t.reference ? Json(t.reference->pass) : Json(nullptr)},
                          {"hazards", r.hazard_count},
                          {"events_dropped", r.events_dropped},
                          {"ran_before", t.before}};
  if (!t.extra_config_json.empty()) config.update(Json::parse(t.extra_config_json));
  info.config_json = config.dump();
  traces::RunWriter w(file, info, options);

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
    if (i < t.source.size() && !t.source[i].empty()) {  // its source line, when the code object has a line table
      traces::PcSourceRecord src{};
      src.pc = s.pc;
      traces::set_text(src.source, t.source[i]);
      w.add_pc_source(src);
    }
  }
  // The chip's counters over time, per simulated XCD (empty windows are kept: a gap is traffic 0).
  for (std::size_t x = 0; x < r.xcd_windows.size(); ++x)
    for (std::size_t i = 0; i < r.xcd_windows[x].size(); ++i) {
      const timing::CounterWindow& c = r.xcd_windows[x][i];
      w.add_xcd_counter({static_cast<std::uint16_t>(x), static_cast<std::int64_t>(i * r.counter_window),
                         static_cast<std::int64_t>(r.counter_window), c.l2_requests, c.l2_hits, c.hbm_bytes});
    }
  for (const auto& c : r.counters) w.add_counter(c.name, c.value);
  // The chip the counters describe, for the derived chip-wide rates.
  w.add_counter("CU_NUM", static_cast<double>(r.cus));
  w.add_counter("XCC_NUM", static_cast<double>(std::max(1, r.xcds)));  // GRBM_GUI_ACTIVE counts once per XCD
  w.add_counter("cus_used", static_cast<double>(r.cus_used));  // the derived rates divide by these
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
  sum.checked = t.reference.has_value();  // a launch file or a sampled run: the time, and no claim of correctness
  w.set_summary(sum);
  w.finish();
}


void record_functional(const std::string& file, const std::string& id, const SuiteTarget& target, const FunctionalRun& r,
                       const traces::WriterOptions& options) {
  traces::RunInfo info = run_info(id, "sim", target.spec->name, r.arch);
  set_arch_file(info, target.arch);
  info.code_object_sha256 = r.code_object_sha256;
  info.backend = "emu";
  info.device = "functional emulator";
  info.compiler = kernels::build::kCompiler;
  info.seed = r.seed;
  info.problem_shape = shape_text(*target.spec, r.shape);
  info.config_json =
      Json{{"max_rel_error", r.max_rel_error}, {"tolerance", r.tolerance}, {"pass", r.pass}, {"ran_before", r.before}}.dump();
  traces::RunWriter w(file, info, options);
  const std::uint64_t conflicts = add_lds_sites(w, r.stats);
  w.add_counter("SQ_LDS_BANK_CONFLICT", static_cast<double>(conflicts));
  w.add_counter("wave_instructions", static_cast<double>(r.stats.wave_instructions));
  w.add_counter("lds_races", static_cast<double>(r.stats.lds_races.count));
  w.add_counter("max_rel_error", r.max_rel_error);
  w.finish();
}

void record_launch_file_run(const std::string& file, const std::string& id, const arch::Arch& a, const isa::CodeObject& co,
                            const std::string& kernel, const std::string& shape, std::uint64_t seed,
                            const emu::RunStats& stats, const traces::WriterOptions& options) {
  traces::RunInfo info = run_info(id, "sim", kernel, a.name);
  set_arch_file(info, a);
  set_code_object(info, co.bytes);
  info.backend = "emu";
  info.device = "functional emulator";
  info.seed = seed;
  info.problem_shape = shape;
  traces::RunWriter w(file, info, options);
  w.add_counter("SQ_LDS_BANK_CONFLICT", static_cast<double>(add_lds_sites(w, stats)));
  w.add_counter("wave_instructions", static_cast<double>(stats.wave_instructions));
  w.add_counter("lds_races", static_cast<double>(stats.lds_races.count));
  w.finish();
}

}  // namespace tilelab::app
