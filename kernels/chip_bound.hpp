// The whole-chip bound of a design at a shape: for each level of the chip the
// time the kernel would take if that level alone limited it, from the spec's
// work and the arch file's figures.  Property: no run of the cycle model on
// the whole chip finishes in fewer cycles than `cycles` (each level moves at
// most its bandwidth in every clock, and workgroup w goes to XCD w % XCDs, as
// the model dispatches), so `tilelab sim --timing` can say how close it came.
//
// Levels (all in clocks of the model's sustained clock):
//   MFMA    the busiest XCD's MFMA cycles over its CUs' SIMDs (a workgroup's
//           waves on at most min(waves, SIMDs) of them)
//   LDS     the busiest XCD's LDS passes over its CUs' ports
//   L2      the busiest XCD's L1 misses over its channels (reads at the read
//           rate, writes at the write rate), taking every byte a workgroup
//           reads as an L1 miss: the L1 shares nothing between workgroups
//   fabric  the busiest XCD's link: each tile its workgroups read, once (a
//           perfect L2), and the bytes they write
//   MALL    every XCD's tiles, once per XCD (L2s are private), over all the
//           Infinity Cache's channels
//   HBM     the problem's bytes, each once (a perfect Infinity Cache)
//   launch  the arch file's kernel launch time, added to the largest level
#pragma once
#include <string>
#include <vector>

#include "kernels/spec.hpp"
#include "sim/arch/arch.hpp"

namespace tilelab::kernels {

struct LevelBound {
  std::string level;      // "MFMA", "LDS", "L2", "fabric", "MALL", "HBM"
  double bytes = 0;       // what the level moves (0 for MFMA and LDS)
  double cycles = 0;      // the time it alone would take
  std::string what;       // how the figure is counted, in a few words
};

struct ChipBound {
  long long workgroups = 0;
  int xcds = 0, cus_per_xcd = 0;
  std::vector<LevelBound> levels;  // in the order above, launch excluded
  double launch_cycles = 0;
  double cycles = 0;               // the largest level plus the launch
  std::string limiter;             // the largest level
  double clock_mhz = 0;            // the model's clock, for microseconds
  double microseconds() const { return clock_mhz > 0 ? cycles / clock_mhz : 0; }
};

// Needs the arch's [timing] and [memory] parts and a work description whose
// tiles_read is set (std::invalid_argument otherwise, naming what is missing).
// `mfma_cycles` and `lds_cycles` are the per-workgroup figures of the
// design check's TileBound (one workgroup's MFMA and LDS time).
ChipBound chip_bound(const TileWork& work, const arch::Arch& a, int waves_per_workgroup, double mfma_cycles,
                     double lds_cycles);

}  // namespace tilelab::kernels
