// The cycle-approximate CU model (sim/timing/README.md).
//
// Execution-driven: the model decides which wave issues in which cycle and
// the functional emulator executes that wave-instruction (values, lane
// addresses, EXEC, branch outcomes).  One component per unit: per CU the
// sequencer (compute_unit.hpp) visiting one SIMD per clock, each SIMD's VALU
// and matrix core (simd_unit.hpp), the LDS ports (lds_port.hpp) fed by the
// bank model's passes from the lanes' real addresses, the waves' wait
// counters (wait_counters.hpp) and the vector memory path with its L1
// (vector_memory.hpp); below the L1s the chip (chip_memory.hpp: L2 per XCD,
// fabric, MALL, HBM), or for an arch file without [memory] each CU's share of
// memory.  The dispatcher (dispatcher.hpp) puts workgroup i on XCD i mod 8;
// an XCD's CUs take its workgroups as they have room.  This class runs them:
// occupancy, all CUs advancing together, sampling, the result.
//
// Every figure comes from the arch file's [timing] part; `assumptions` in the
// result lists the figures marked assumed that the run used.
//
//   timing::CycleModel model(arch, options);
//   model.attach(emulator);            // before emulator.run(...)
//   emulator.run(memory, launch);      // the kernel's host calls this
//   const timing::TimingResult& r = model.result();
#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/emu/emulator.hpp"
#include "sim/timing/chip_memory.hpp"
#include "sim/timing/fast_forward.hpp"
#include "sim/timing/mfma_hazards.hpp"
#include "sim/timing/stall.hpp"

namespace tilelab::timing {

// The model cannot run: an arch without timing figures, an instruction
// without a timing class, a kernel that does not fit on a CU.
class TimingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Progress {
  std::uint64_t workgroups_done = 0, workgroups = 0;
  std::uint64_t cycles = 0;  // simulated so far (every CU has reached it)
  std::uint64_t wave_instructions = 0;
  double seconds = 0;
};

// The most CUs a run may ask for (a model of that many CUs is built).
constexpr long long kMaxCus = 65536;
// The one check of a requested CU count, shared by the CLI (--cus) and the
// Python module (cus=): TimingError "cus must be between 0 (the chip's CUs)
// and 65536" outside [0, kMaxCus].
void check_cus(long long cus);

struct Options {
  int cus = 0;                          // CUs the grid is spread over (0: the chip's)
  // Sampling (chip model only; the CLI's default, --full turns it off): when
  // the grid fills every CU at least once, simulate XCD 0 in full (its CUs,
  // its L2, its workgroups i = 0, X, 2X ...) with its 1/X share of the MALL
  // and HBM, and take the other XCDs to be like it.  The other XCDs'
  // workgroups do not run: their output stays unwritten.  `sample_only`: when
  // not empty, only dispatches of that kernel are sampled (a pass's earlier
  // kernels run in full, since the later one reads what they wrote).
  bool sample = false;
  // The fast-forward (the CLI's default with or without `sample`): a regular
  // grid of at least 5 rounds is timed for 3 and the rest extrapolated
  // (sim/timing/fast_forward: regular grids, and periodic ones whose
  // workgroups' work is set by one coordinate of their id).
  bool fast_forward = false;
  std::string sample_only;
  std::size_t max_events = 4'000'000;   // issue records kept (all are counted; 0: none built)
  // A launch still running at this simulated cycle stops with a TimingError
  // (a wave that sleeps or waits in a loop for longer than any kernel runs:
  // the instruction budgets alone would let it take days of wall time).
  // 2^36 clocks is 43 s of simulated time at 1.59 GHz.
  std::uint64_t max_cycles = std::uint64_t{1} << 36;
  std::function<void(const Progress&)> progress;  // called about once a second
  // Threads the CUs are simulated on (0: one per core).  The result does not
  // depend on it, to the bit (cycle_model.cpp, "threads").
  int threads = 1;
};

// One wave's life on its CU.
struct WaveSpan {
  std::uint32_t wave = 0, workgroup = 0;
  std::uint16_t cu = 0;
  std::uint8_t simd = 0, slot = 0;
  std::uint64_t start = 0, end = 0;
};

// One wave-instruction issued, in the terms of AMD's decoded thread trace:
// first attempt at issue - stall, issued at `issue`, its result (or data)
// ready at `complete`; idle cycles before the first attempt (after a taken
// branch); the reason it waited longest.
struct IssueEvent {
  std::uint32_t wave = 0;
  std::uint32_t index = 0;   // instruction index in the program
  Reason reason = Reason::none;
  std::uint32_t stall = 0, idle = 0;
  std::uint64_t issue = 0, complete = 0;
};

// Per instruction, over every wave that executed it (the thread trace's
// per-pc columns): hits, latency (sum of stall + issue), stall, idle.
struct PcStats {
  std::uint64_t hits = 0, latency = 0, stall = 0, idle = 0;
  std::array<std::uint64_t, kReasonCount> stall_by_reason{};
};

struct Counter {
  std::string name, unit;
  double value = 0;
};

struct TimingResult {
  std::string arch;
  double clock_mhz = 0;                     // timing.clock_mhz: the clock under load the model runs at
  std::string clock_status;                 // its status in the arch file (measured, inferred, assumed ...)
  std::uint64_t launch_cycles = 0;          // memory.launch_cycles before the first wave (0 without a chip)
  // Sampled runs: the XCDs simulated (0: all of them) and the factor the
  // whole-chip totals were scaled by (workgroups of the grid / simulated).
  // `simulated_workgroups`: those that ran, in every run (all of them in a
  // full run; those the fast-forward stopped count too).
  // Busy sums, cus_used, per-pc statistics, events and wave spans stay those
  // of the simulated part, so utilisations are fractions of what ran.
  int sampled_xcds = 0;
  std::uint64_t simulated_workgroups = 0;
  double sample_scale = 1;
  // A scaled run (sampled or fast-forwarded): the MALL and HBM counters are
  // the chip's estimated from the simulated part's fetches (fetch_footprint.hpp),
  // not its own fetches scaled.
  bool chip_fetches_estimated = false;
  // Fast-forward (sampled runs of regular grids): the cycle the simulation
  // stopped at and the rounds it timed; `cycles` is then extrapolated.
  std::uint64_t simulated_cycles = 0;
  bool fast_forwarded = false;
  int fast_forward_axis = -1;               // a periodic grid's: the coordinate that set each workgroup's work (-1: regular)
  // The kernel-end release: dirty L2 lines written back after the last wave
  // (lines for the whole chip), and the cycles it added to `cycles`.
  std::uint64_t end_writeback_lines = 0, end_writeback_cycles = 0;
  int cus = 0, cus_used = 0, simds_per_cu = 0, lds_ports_per_cu = 0;
  std::uint64_t cycles = 0;                 // the dispatch: the last CU's end
  std::uint64_t workgroups = 0, waves = 0, wave_instructions = 0;
  double mfma_flops = 0;                    // 2mnk per MFMA executed
  double mfma_flops_per_busy_clock = 0;     // of one matrix core, over the run's MFMA mix (the roofline's peak)
  std::uint64_t global_bytes = 0;           // moved beyond the L1s
  double memory_share = 0;                  // bytes per clock each CU got of the chip's memory bandwidth
  // Wave-cycles: every cycle of every wave's life is issuing (one issue slot
  // per instruction), stalled for a reason, or idle.
  std::uint64_t wave_cycles = 0, issue_cycles = 0;
  std::array<std::uint64_t, kReasonCount> stall_cycles{};
  // Busy cycles summed over the CUs that ran work: the matrix cores and VALUs
  // (per SIMD), the LDS ports (per port) and the memory share.
  double mfma_busy = 0, valu_busy = 0, lds_busy = 0, memory_busy = 0;
  std::uint64_t l1_hits = 0, l1_misses = 0;
  // The SQC's instruction and scalar caches (sqc.hpp): hits and misses of
  // wave fetches and scalar loads (prefetched lines are neither).
  std::uint64_t icache_hits = 0, icache_misses = 0, scalar_cache_hits = 0, scalar_cache_misses = 0;
  // The chip (arch files with a [memory] part; xcds == 0 without): traffic per
  // level, and busy clocks summed over each level's units.
  int xcds = 0, l2_channels = 0, fabric_links = 0, mall_channels = 0, hbm_channels = 0;
  ChipCounters chip;
  std::vector<ChipCounters> chip_per_xcd;
  // The simulated XCDs' traffic over time, windows of counter_window cycles
  // (ChipMemory's CounterWindows; not scaled in a sampled run).
  std::uint64_t counter_window = 0;
  std::vector<std::vector<CounterWindow>> xcd_windows;
  double l2_busy = 0, fabric_busy = 0, mall_busy = 0, hbm_busy = 0;
  std::uint64_t hbm_bytes = 0;
  std::vector<WaveSpan> waves_spans;            // by wave id
  std::deque<IssueEvent> events;            // in issue order per CU, at most Options::max_events
  std::uint64_t events_dropped = 0;
  std::vector<PcStats> per_instruction;     // by instruction index
  std::vector<Hazard> hazards;              // the first 1000
  std::uint64_t hazard_count = 0;
  std::vector<Counter> counters;            // AMD counter names and units
  std::vector<std::string> assumptions;     // timing figures marked assumed that the run used

  double seconds() const { return clock_mhz > 0 ? static_cast<double>(cycles) / (clock_mhz * 1e6) : 0; }
  // Busy fraction of each unit over the run, on the CUs that ran work.
  double mfma_utilisation() const;
  double valu_utilisation() const;
  double lds_utilisation() const;
  double memory_utilisation() const;  // HBM with the chip model
  double level_utilisation(double busy, int units) const;
  // The busiest unit: "MFMA", "VALU", "LDS", and "L2", "fabric", "MALL",
  // "HBM" with the chip model ("global memory": the CU's share without);
  // "latency" when none is busy half the time.
  std::string limiter() const;
};

class CycleModel final : public emu::Scheduler, public emu::AccessObserver {
 public:
  // Throws TimingError when the arch file has no [timing] part.
  CycleModel(const arch::Arch& a, Options o = {});
  ~CycleModel() override;
  // Makes `e` run under this model (its scheduler and observer).
  void attach(emu::Emulator& e);
  const TimingResult& result() const { return result_; }

  // emu::Scheduler / emu::AccessObserver
  Ran dispatch(emu::Emulator& e, emu::GlobalMemory& memory, const emu::Launch& launch, std::uint64_t kernarg) override;
  void global_access(const std::uint64_t* addresses, std::uint64_t active, int bytes, bool store) override;
  void lds_access(int cycles, int conflict_cycles, bool modelled) override;
  void scalar_access(std::uint64_t address, int bytes) override;
  std::uint64_t clock() const override;

  class ComputeUnit;  // one CU (cycle_model.cpp)
  class Quanta;       // the quanta, on one thread or several (cycle_model.cpp)

 private:
  // A CU's records of the quantum (events, hazards, wave spans, retired
  // workgroups) joined to the run's, in CU order.
  void take_records(ComputeUnit& u);
  // The threads a dispatch runs on (Options::threads, at most one per CU; 1
  // for a kernel with global atomics).
  int threads_for(const emu::Emulator& e, std::size_t cus) const;

  const arch::Arch& arch_;
  Options options_;
  TimingResult result_;
  // run-wide tallies the CUs add to
  std::chrono::steady_clock::time_point started_;
  std::uint64_t workgroups_total_ = 0, workgroups_placed_ = 0, waves_placed_ = 0;
  std::vector<Hazard> hazards_;  // the first 1000
  std::uint64_t hazard_count_ = 0;
  std::vector<PcStats> per_instruction_;
  std::uint64_t lds_idx_active_ = 0, lds_conflicts_ = 0;
  bool unmodelled_lds_ = false;
  // Retired workgroups (end cycle, wave-instructions), for the fast-forward.
  std::vector<TimedGroup> retired_;  // workgroups done, in CU order per quantum
};

}  // namespace tilelab::timing
