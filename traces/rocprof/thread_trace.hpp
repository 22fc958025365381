// rocprofv3's decoded thread trace (--att, decoded by rocprof-trace-decoder;
// layout in docs/facts/hw-facts.md §2): a folder
// ui_output_agent_<A>_dispatch_<D>/ with filenames.json (the wave files),
// code.json (the kernel's instructions with per-pc hit count, latency, stall
// and idle) and one se<S>_sm<SIMD>_sl<SLOT>_wv<N>.json per wave (its
// instructions: time, category, stall, duration, code line), and beside it
// the per-pc stats file stats_ui_output_agent_<A>_dispatch_<D>.csv, which,
// where present, gives the per-pc columns.  Times are shader-clock cycles.
// JSON is read with simdjson (wave files are large).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/rocprof/csv.hpp"

namespace tilelab::traces::rocprof {

struct TraceInstruction {
  std::int64_t time = 0;      // first issue attempt
  int category = 0;           // 1 SMEM, 2 SALU, 3 VMEM, 4 FLAT, 5 LDS, 6 VALU/MFMA, 7 JUMP, 8 NEXT, 9 IMMED, 11 MSG
  std::int64_t stall = 0;     // cycles before the issue
  std::int64_t duration = 0;  // on gfx9: stall + issue
  std::uint64_t pc = 0;       // the instruction's address in the code object (Vaddr)
};

struct TraceWave {
  int se = 0, cu = 0, simd = 0, slot = 0;
  std::int64_t begin = 0, end = 0;
  std::vector<TraceInstruction> instructions;
};

// One line of code.json: an instruction with its per-pc statistics.
struct TraceCode {
  std::string isa;
  std::uint64_t pc = 0;  // address in the code object (Vaddr), as the cycle model's pcs
  std::uint64_t hits = 0;
  std::int64_t latency = 0, stall = 0, idle = 0;
};

struct ThreadTrace {
  std::string folder;
  std::uint64_t agent = 0, dispatch = 0;
  std::string kernel;  // from code.json's "; <name>" row
  std::vector<TraceCode> code;
  std::vector<TraceWave> waves;
};

// The category names, index = category number ("" where unused).
const std::vector<std::string>& trace_category_names();

// Reads one ui_output_agent_<A>_dispatch_<D> folder.  FormatError naming the
// file and what is wrong: a wave file filenames.json lists but the folder
// lacks, a code line an instruction names that code.json does not have, a
// field of the wrong type.
ThreadTrace read_thread_trace(const std::string& folder);

// Every ui_output_agent_*_dispatch_* folder under `root`, in name order.
std::vector<std::string> find_thread_traces(const std::string& root);

}  // namespace tilelab::traces::rocprof
