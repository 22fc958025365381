// A roofline of one cycle-model run (`tilelab sim --timing --plot FILE.svg`):
// the kernel's achieved TFLOP/s against its arithmetic intensity at each
// level of the chip (bytes through L2, between the L2s and the MALL, from
// HBM), under the ceilings of the arch file: the MFMA peak of the kernel's own
// MFMA mix and each level's bandwidth, all at the model's clock.
#pragma once
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/timing/cycle_model.hpp"

namespace tilelab::cli {

struct Roofline {
  double peak_tflops = 0;  // MFMA: the run's FLOPs per busy matrix-core clock x SIMDs x CUs x clock
  struct Ceiling {
    std::string level;      // "L2", "MALL", "HBM"
    double tb_per_s = 0;
  };
  std::vector<Ceiling> ceilings;
  struct Point {
    std::string level;
    double flops_per_byte = 0;
    double tflops = 0;      // achieved (the same for every level)
  };
  std::vector<Point> points;
};

// Throws std::invalid_argument when the run did no MFMA work (no FLOPs to
// plot) or the arch file has no chip ([memory]).
Roofline roofline(const timing::TimingResult& r, const arch::Arch& a);

// The plot as an SVG document (log-log axes, ceilings as lines, the run's
// points labelled by level).
std::string roofline_svg(const Roofline& rf, const std::string& title);

// `--plot FILE`: the run's roofline written to `path` (a temporary beside it,
// renamed into place: never half-written).  Returns "" or the error line.
std::string write_roofline(const std::string& path, const timing::TimingResult& r, const arch::Arch& a,
                           const std::string& title);

}  // namespace tilelab::cli
