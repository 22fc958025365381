// Reading runs for people: comparing two runs and exporting a timeline.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "traces/derived_metrics.hpp"
#include "traces/store.hpp"

namespace tilelab::traces {

// Per-key totals of one run's events: instructions, busy cycles
// (complete - issue) and stall cycles.
struct Totals {
  std::uint64_t instructions = 0;
  std::int64_t cycles = 0;
  std::int64_t stall = 0;
};

enum class CompareBy { kClass, kPc, kWave };

// A run's waves at a glance, in the run's time unit (ns for hardware runs
// with stamps, cycles for the cycle model).
struct WaveSummary {
  std::uint64_t waves = 0, cus = 0;  // cus: distinct CUs (SMs) the waves ran on
  double mean_lifetime = 0;          // mean of end - start
  std::int64_t span = 0;             // last end - first start
};

// One pc of the thread trace's per-pc table, on each side (hits 0 where the
// side never executed it).
struct PcRow {
  std::uint32_t pc = 0;
  std::string instruction;
  PcStatRecord a{}, b{};
};

struct Comparison {
  RunView a, b;
  // When both runs have per-pc statistics (a thread trace, the cycle model):
  // by pc, the pcs whose latency (then stall, then idle) differ most first.
  std::vector<PcRow> pc_rows;
  WaveSummary waves_a, waves_b;
  double time_ratio = 0;  // b median / a median; 0 when either lacks a summary
  std::map<std::string, std::pair<Totals, Totals>> rows;  // key -> (a, b)
  std::uint64_t lds_conflicts_a = 0, lds_conflicts_b = 0;
  std::map<std::string, std::pair<double, double>> counters;  // names present in both
  // Derived metrics computable on both sides (traces/derived_metrics), in order.
  std::vector<std::pair<DerivedMetric, DerivedMetric>> derived;
};

// The thread trace's instruction category (rocprofv3 ATT: SMEM, SALU, VMEM,
// FLAT, LDS, VALU/MFMA, JUMP, IMMED, MSG; "other" else) of a mnemonic, by its
// family: s_load*/s_buffer_load*/s_store*/s_memtime/s_memrealtime/s_dcache*
// SMEM; branches and s_setpc/s_swappc/s_call JUMP; s_waitcnt, s_nop,
// s_barrier, s_sleep, s_setprio, s_endpgm, s_trap IMMED (the sequencer runs
// them); s_sendmsg* MSG; other s_* SALU; buffer_* VMEM; global_/flat_/
// scratch_* FLAT; ds_* LDS; v_* VALU/MFMA.  tilelab's reading of the
// decoder's categories [I]: no public table lists them per instruction.
std::string thread_trace_category(std::string_view mnemonic);

// Throws StoreError when the runs' kernels or problem shapes differ and
// force is false, naming both values.  Compared by class, a run whose classes
// are the thread trace's categories and one whose are tilelab's (a
// cycle-model run) are put in the same words: the latter's instructions by
// thread_trace_category of their mnemonics.
Comparison compare(const Reader& r, const std::string& a, const std::string& b, CompareBy by, bool force);
void print_table(const Comparison& c, CompareBy by, std::ostream& out);
void print_json(const Comparison& c, std::ostream& out);

struct PerfettoStats {
  std::uint64_t events = 0;
  std::uint64_t slices = 0;
  std::uint64_t group = 1;  // instructions per slice (1 unless the trace was too big)
  std::uint64_t counter_samples = 0;  // samples on the XCDs' counter tracks
};

// The XCDs' counter tracks are processes kXcdPidOffset + XCD (after the CUs').
inline constexpr std::uint64_t kXcdPidOffset = 50000;

// Chrome trace-event JSON (Perfetto opens it): a process per CU, a thread
// per wave named by SIMD and slot, a slice per instruction and one per stall
// (never overlapping on a wave's track), and an async "in flight" slice from
// issue to completion for an operation still running when the wave moves on;
// for a cycle-model run on the chip, a process per XCD with counter tracks
// (L2 hit %, HBM bytes per clock) over the run's windows.
// A run with more than max_slices events is written with consecutive
// instructions of a wave grouped into one slice, so the JSON stays loadable.
PerfettoStats export_perfetto(const Reader& r, const std::string& run, std::ostream& out,
                              std::uint64_t max_slices = 2'000'000);
// Several runs in one file (an imported hardware run beside a simulated one):
// each run's CUs are their own processes, named "<run>: CU n", so Perfetto
// draws the runs' waves on parallel groups of tracks; the slice budget is
// shared evenly.
PerfettoStats export_perfetto(const Reader& r, const std::vector<std::string>& runs, std::ostream& out,
                              std::uint64_t max_slices = 2'000'000);

}  // namespace tilelab::traces
