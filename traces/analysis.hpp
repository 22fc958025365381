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
  std::string source;  // "file:line" from A's pc_sources, else B's; "" when neither has one for this pc
  PcStatRecord a{}, b{};
};

// One instruction of a stored run in program order: the thread trace's
// per-pc columns (pc_stats) and the reason its waves waited on most there
// (the events' stall reasons weighted by stall cycles; "" when no event
// stalled, "stall" for a thread trace, which gives no reason).
struct ListingRow {
  PcStatRecord stat{};
  std::string waits_on;
  std::string source;  // "file:line" from the run's pc_sources; "" when it has none for this pc
};
// A simulated run or an imported thread trace alike; empty when the run has
// no pc_stats (a design check, a hardware run without a thread trace).
std::vector<ListingRow> stored_listing(const Reader& r, const std::string& id);
// A listing's source cell, as a source view marks a new line: `source` where
// it differs from the last one shown (`last`, which it updates), else "".
std::string source_cell(const std::string& source, std::string& last);
void print_listing(const RunView& v, const std::vector<ListingRow>& rows, std::ostream& out);

struct Comparison {
  RunView a, b;
  bool program_order = false;  // pc rows in program order (set_program_order), not by difference
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

// The name a run's table gives index i (an opcode, a class, a stall reason),
// or prefix + i when the table has none.
std::string name_or(const std::vector<std::string>& names, std::size_t i, const std::string& prefix);

// Throws StoreError when the runs' kernels or problem shapes differ and
// force is false, naming both values.  Compared by class, a run whose classes
// are the thread trace's categories and one whose are tilelab's (a
// cycle-model run) are put in the same words: the latter's instructions by
// thread_trace_category of their mnemonics.
Comparison compare(const Reader& r, const std::string& a, const std::string& b, CompareBy by, bool force);
// The per-pc rows (and --by pc's) in program order: the two listings side by side.
void set_program_order(Comparison& c);
void print_table(const Comparison& c, CompareBy by, std::ostream& out);
void print_json(const Comparison& c, std::ostream& out);

}  // namespace tilelab::traces
