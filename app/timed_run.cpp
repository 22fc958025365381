#include "app/timed_run.hpp"

#include <algorithm>

#include "sim/isa/source_lines.hpp"

namespace tilelab::app {

timing::Options model_options(const TimedOptions& o, const std::string& kernel) {
  timing::Options m;
  m.cus = o.cus;
  m.max_cycles = o.max_cycles;
  m.progress = o.progress;
  m.threads = o.threads;
  if (!o.keep_events) m.max_events = 0;
  // A reference check needs every workgroup's output.
  const bool partial = o.coverage != Coverage::full && !o.check_reference;
  m.sample = partial && o.coverage == Coverage::sampled;
  m.fast_forward = partial && o.fast_forward;
  m.sample_only = kernel;  // a pass's earlier kernels write what this kernel reads
  return m;
}

std::unique_ptr<TimedKernelRun> run_timed(const SuiteTarget& target, const TimedOptions& options) {
  const kernels::KernelSpec& spec = *target.spec;
  auto run = std::make_unique<TimedKernelRun>();
  timing::check_cus(options.cus);
  // Refuses an arch without timing figures before any work.
  run->model = std::make_unique<timing::CycleModel>(target.arch, model_options(options, spec.name));
  timing::CycleModel& model = *run->model;
  bool have_program = false;
  run->functional = run_functional(
      target, options.seed,
      [&](emu::Emulator& e) {
        model.attach(e);
        e.set_wave_budget(options.wave_budget);
        e.set_launch_budget(options.launch_budget);
        // The timing is the last dispatch's, the spec's kernel (a pass may run others first).
        if (e.program().kernel == spec.name) run->program = e.program(), have_program = true;
      },
      [&] { return !model.result().sampled_xcds; });
  if (!have_program) throw timing::TimingError(spec.name + ": the pass did not launch it");
  if (spec.work) {
    const kernels::DesignReport design = kernels::design_check(spec, target.arch, std::nullopt, target.shape);
    run->bound = design.bound;
    // The chip bound holds for the whole chip only (a run on fewer CUs has less of every level).
    if (options.cus == 0 || options.cus == arch::chip_cus(target.arch)) run->chip_bound = design.chip;
  }
  TimedRun& t = run->view;
  const FunctionalRun& r = run->functional;
  t.kernel = spec.name;
  t.shape = shape_text(spec, r.shape);
  t.seed = r.seed;
  t.arch = &target.arch;
  t.code_object_sha256 = r.code_object_sha256;
  t.stats = &r.stats;
  t.timing = &model.result();
  if (!t.timing->sampled_xcds) t.reference = TimedRun::Reference{r.pass, r.max_rel_error, r.tolerance};
  t.program = &run->program;
  t.source = program_source_lines(isa::read_code_object(target.code_object), run->program);
  t.model_seconds = r.seconds;  // the timed dispatch alone (inputs and the reference excluded)
  t.top = options.top;
  t.before = r.before;
  t.bound = run->bound;
  t.chip_bound = run->chip_bound;
  return run;
}

std::vector<std::string> program_source_lines(const isa::CodeObject& co, const isa::Program& p) {
  std::vector<std::uint64_t> pcs;
  for (const isa::Instruction& in : p.instructions) pcs.push_back(in.pc);
  return isa::source_lines(co, pcs);
}

std::vector<std::size_t> hottest_instructions(const timing::TimingResult& r, int n) {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < r.per_instruction.size(); ++i)
    if (r.per_instruction[i].hits) idx.push_back(i);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    const auto &x = r.per_instruction[a], &y = r.per_instruction[b];
    return x.stall != y.stall ? x.stall > y.stall : x.latency > y.latency;
  });
  if (idx.size() > static_cast<std::size_t>(std::max(0, n))) idx.resize(static_cast<std::size_t>(std::max(0, n)));
  return idx;
}

timing::Reason top_reason(const timing::PcStats& s) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < s.stall_by_reason.size(); ++k)
    if (s.stall_by_reason[k] > s.stall_by_reason[best]) best = k;
  return s.stall_by_reason[best] ? static_cast<timing::Reason>(best) : timing::Reason::none;
}

std::vector<ListingRow> listing_rows(const isa::Program& p, const timing::TimingResult& r) {
  std::vector<ListingRow> rows(p.instructions.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].index = i;
    for (const isa::Loop& loop : p.loops) rows[i].loop_depth += loop.head <= i && i <= loop.latch;
    if (i < r.per_instruction.size()) rows[i].stats = r.per_instruction[i];
  }
  constexpr auto kBarrier = static_cast<std::size_t>(timing::Reason::barrier);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (p.instructions[i - 1].cls != isa::InstClass::BARRIER) continue;
    timing::PcStats &after = rows[i].stats, &barrier = rows[i - 1].stats;
    const std::uint64_t waited = after.stall_by_reason[kBarrier];
    after.stall_by_reason[kBarrier] = 0, after.stall -= waited, after.latency -= waited;
    barrier.stall_by_reason[kBarrier] += waited, barrier.stall += waited, barrier.latency += waited;
  }
  for (ListingRow& row : rows) row.waits_most_on = top_reason(row.stats);
  return rows;
}

double work_flops(const TimedRun& t) { return t.timing->mfma_flops > 0 ? t.timing->mfma_flops : 0; }

}  // namespace tilelab::app
