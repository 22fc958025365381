// From layouts to LDS instructions: the per-lane addresses of every
// instruction a wave issues to access an LDS tile, given who holds which
// elements (a thread–value layout) and where each element lives in LDS (an
// LDS layout, possibly swizzled).  This is the design check a kernel author
// runs before writing the kernel.
#pragma once

#include <functional>
#include <vector>

#include "layouts/tv_layout.hpp"
#include "sim/lds/bank_model.hpp"

namespace tilelab::lds {

// Element offset in LDS of tile element (row m, column n).
using LdsLayout = std::function<Int(Int m, Int n)>;

// Which tile elements each lane moves in each instruction — independent of
// where the tile lives in LDS, so one plan serves many candidate layouts.
struct AccessPlan {
  int wave_size = 0;
  int per_inst = 0;   // elements one lane moves per instruction
  int elem_bytes = 0;
  struct Instruction {
    int wave = 0;
    int index = 0;                   // issue order within the wave
    std::uint64_t active = 0;
    std::vector<Int> m, n;           // [lane * per_inst + k]: the element of value k
  };
  std::vector<Instruction> instructions;
};

// The TV layout describes one atom; its tile_shape divides `tile_shape` (rank
// 2) and the atom repeats over the tile, column-major over repetitions.  Each
// instruction moves `inst_bytes` per lane: a thread's next consecutive values.
AccessPlan plan_tile_access(const TVLayout& tv, const IntTuple& tile_shape, int elem_bytes, int inst_bytes,
                            int wave_size);

struct WaveInstruction {
  int wave = 0;
  int index = 0;
  Int first_m = 0, first_n = 0;          // the first active lane's first element
  std::vector<std::uint32_t> addresses;  // byte address per lane
  std::uint64_t active = 0;
};

// Byte addresses under an LDS layout.  Throws ModelError if a lane's values
// are not at consecutive LDS offsets (one instruction cannot move them).
void materialize(const AccessPlan& plan, const LdsLayout& lds, std::vector<WaveInstruction>& out);

struct TileReport {
  std::vector<WaveInstruction> instructions;
  std::vector<Analysis> analyses;  // one per instruction
  long long cycles = 0;
  long long conflict_cycles = 0;
  int worst = 0;                   // the instruction with the most conflict cycles
};

TileReport analyze_tile(const BankModel& model, const AccessPlan& plan, const LdsLayout& lds);
// Plan and analyze in one step.
TileReport analyze_tile(const BankModel& model, const TVLayout& tv, const IntTuple& tile_shape, const LdsLayout& lds,
                        int elem_bytes);

}  // namespace tilelab::lds
