// The one machine-readable form of sim/lds's answers: what `tilelab lds
// --json`, `occupancy --json` and `swizzle --json` print and Python's `lds`,
// `lds_tile`, `occupancy` and `swizzle_search` return.
#pragma once
#include "app/json.hpp"
#include "sim/arch/arch.hpp"
#include "sim/lds/bank_model.hpp"
#include "sim/lds/occupancy.hpp"
#include "sim/lds/swizzle_search.hpp"
#include "sim/lds/tile_access.hpp"

namespace tilelab::app {

// One wave-instruction: per pass its lanes and active lanes (lane numbers),
// banks touched and ways; cycles, conflict cycles, the worst ways.
Json lds_analysis_json(const lds::Analysis& a);
// `lds --addresses`: {"arch", "inst", "status", "analysis"}.
Json lds_json(const arch::Arch& a, const arch::LdsInstruction& ins, const lds::Analysis& r);
// `lds --tv`: {"arch", "inst", "status", "instructions": [{"wave", "index",
// "analysis"}], "cycles", "conflict_cycles", "worst"} (worst: the index of
// the costliest instruction).
Json lds_tile_json(const arch::Arch& a, const arch::LdsInstruction& ins, const lds::TileReport& r);
// `occupancy`: arch, waves per workgroup, workgroups, waves per CU and per
// SIMD, the binding limit(s) and each resource's own limit.
Json occupancy_json(const arch::Arch& a, const lds::Occupancy& o);
// `swizzle --json`: arch, layouts evaluated and skipped, the plain layout's
// score and the `top` best (0: every layout scored, best first), each with
// its write and read conflict cycles and extra bytes.
Json swizzle_json(const arch::Arch& a, const lds::SearchResult& s, int top);

}  // namespace tilelab::app
