// Stored runs as a timeline for Perfetto (ui.perfetto.dev): a process per CU,
// a track per wave named by SIMD and slot, a slice per instruction and one
// per stall (never overlapping on a wave's track), an "in flight" slice from
// issue to completion for an operation still running when the wave moves
// on, and for a cycle-model run on the chip a process per XCD with counter
// tracks (L2 hit %, HBM bytes per clock) over the run's windows.
//
// Two formats from one walk over the runs (a TimelineWriter each):
//  - Chrome trace-event JSON (export_perfetto): any trace viewer reads it;
//    its timestamps are microseconds by definition, so one cycle is shown
//    as one microsecond;
//  - Perfetto's own protobuf trace (export_perfetto_proto, the format
//    rocprofv3 writes): names interned, a fraction of the JSON's size, in
//    real time: a run's cycles at the clock it records (a cycle-model run:
//    its clock under load), rounded to the ns, each instruction's issue cycle
//    kept as its "cycle" argument; a run in cycles of a clock it does not
//    record (a thread trace), one cycle = 1 ns.
// A run with more than max_slices events is written with consecutive
// instructions of a wave grouped into one slice, so the trace stays loadable.
// Several runs in one file (an imported hardware run beside a simulated
// one): each run's CUs are their own processes, named "<run>: CU n"; the
// slice budget is shared evenly.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "traces/store.hpp"

namespace tilelab::traces {

struct PerfettoStats {
  std::uint64_t events = 0;
  std::uint64_t slices = 0;
  std::uint64_t group = 1;  // instructions per slice (1 unless the trace was too big)
  std::uint64_t counter_samples = 0;  // samples on the XCDs' counter tracks
};

// The XCDs' counter tracks are processes kXcdPidOffset + XCD (after the CUs').
inline constexpr std::uint64_t kXcdPidOffset = 50000;

PerfettoStats export_perfetto(const Reader& r, const std::vector<std::string>& runs, std::ostream& out,
                              std::uint64_t max_slices = 2'000'000);
PerfettoStats export_perfetto(const Reader& r, const std::string& run, std::ostream& out,
                              std::uint64_t max_slices = 2'000'000);
PerfettoStats export_perfetto_proto(const Reader& r, const std::vector<std::string>& runs, std::ostream& out,
                                    std::uint64_t max_slices = 2'000'000);

}  // namespace tilelab::traces
