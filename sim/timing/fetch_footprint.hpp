// What a part of a grid fetched from HBM says about what the whole grid
// fetches.  A sampled run simulates one XCD's workgroups (and a fast-forward
// only their first rounds) and scales its totals; scaling the lines it read
// from HBM counts a line every XCD reads (a GEMM's A rows, an attention
// head's K and V, the kernel's code) once per XCD, where the chip reads it
// from HBM once and serves the other XCDs from the MALL.
//
// The estimate: per buffer, the simulated part fetched `fetches` lines of
// which `distinct` were different.  The whole grid is `scale` such parts,
// whose footprints in the buffer overlap as little as the buffer allows, and
// each line it fetches is fetched as often as the simulated part fetched its
// lines on average:
//
//   chip fetches = min(scale * fetches, buffer lines * fetches / distinct)
//
// Properties (tested): at scale 1 it is the fetches counted; it never exceeds
// the scaled count; a buffer the simulated part read in full is fetched
// `fetches` times whatever the scale; lines in no buffer are scaled.  It is
// right for grids that split each buffer evenly over the XCDs (GEMM, norm,
// attention); a buffer the XCDs all read the same part of is over-counted.
#pragma once
#include <cstdint>
#include <vector>

namespace tilelab::timing {

// Lines [first, first + lines) of one buffer (units of the chip's line).
struct LineRange {
  std::uint64_t first = 0, lines = 0;
};

class FetchFootprint {
 public:
  // The kernel's buffers (and its code), in any order; they must not overlap.
  explicit FetchFootprint(std::vector<LineRange> buffers);
  // A line the simulated part read from HBM (a MALL miss).
  void fetched(std::uint64_t line);
  std::uint64_t fetches() const { return fetches_; }
  // The whole grid's fetches from HBM, `scale` times the simulated part
  // (scale >= 1), estimated as above; rounded to a whole line.
  std::uint64_t chip_fetches(double scale) const;

 private:
  struct Buffer {
    LineRange range;
    std::uint64_t fetches = 0, distinct = 0;
    std::vector<std::uint64_t> seen;  // a bit per line
  };
  std::vector<Buffer> buffers_;  // ascending first line
  std::uint64_t fetches_ = 0, outside_ = 0;
};

}  // namespace tilelab::timing
