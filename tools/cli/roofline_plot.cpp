#include "tools/cli/roofline_plot.hpp"
#include "traces/output_file.hpp"

#include "layouts/render.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tilelab::cli {

Roofline roofline(const timing::TimingResult& r, const arch::Arch& a) {
  if (r.mfma_flops <= 0 || r.mfma_flops_per_busy_clock <= 0)
    throw std::invalid_argument("the run did no MFMA work: a roofline needs its FLOPs");
  if (!a.has_memory) throw std::invalid_argument(a.file + " has no [memory] part: a roofline needs the chip's levels");
  const double hz = r.clock_mhz * 1e6, seconds = r.seconds();
  const arch::MemorySystem& m = a.memory;
  Roofline rf;
  rf.peak_tflops = r.mfma_flops_per_busy_clock * r.simds_per_cu * arch::chip_cus(a) * hz / 1e12;
  const double xcds = arch::chip_xcds(a);
  rf.ceilings = {{"L2", m.l2_channels * m.l2_read_bytes_per_clock * xcds * hz / 1e12},
                 {"MALL", m.mall_channels * m.mall_channel_bytes_per_clock * hz / 1e12},
                 {"HBM", arch::hbm_bytes_per_clock(a) * hz / 1e12}};
  const double achieved = seconds > 0 ? r.mfma_flops / seconds / 1e12 : 0;
  const double line = a.timing.l1_line_bytes;
  const double traffic[] = {static_cast<double>(r.global_bytes),
                            static_cast<double>(r.chip.ea_read_requests + r.chip.ea_write_requests) * line,
                            static_cast<double>(r.hbm_bytes)};
  for (std::size_t i = 0; i < 3; ++i)
    if (traffic[i] > 0) rf.points.push_back({rf.ceilings[i].level, r.mfma_flops / traffic[i], achieved});
  return rf;
}

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// Log-scaled axes: decades [x0, x1] x [y0, y1] onto the plot area.
struct Axes {
  double x0, x1, y0, y1;
  double left = 70, right = 600, top = 40, bottom = 380;
  double x(double v) const { return left + (std::log10(v) - x0) / (x1 - x0) * (right - left); }
  double y(double v) const { return bottom - (std::log10(v) - y0) / (y1 - y0) * (bottom - top); }
};

}  // namespace

std::string roofline_svg(const Roofline& rf, const std::string& title) {
  // Decades that hold every point and the ridge of every ceiling.
  double lo_x = 1e9, hi_x = 0, hi_y = rf.peak_tflops, lo_y = rf.peak_tflops;
  for (const auto& p : rf.points) lo_x = std::min(lo_x, p.flops_per_byte), hi_x = std::max(hi_x, p.flops_per_byte),
                                  lo_y = std::min(lo_y, p.tflops), hi_y = std::max(hi_y, p.tflops);
  for (const auto& c : rf.ceilings) lo_x = std::min(lo_x, rf.peak_tflops / c.tb_per_s), hi_x = std::max(hi_x, rf.peak_tflops / c.tb_per_s);
  Axes ax{std::floor(std::log10(lo_x)) - 1, std::ceil(std::log10(hi_x)) + 1, std::floor(std::log10(std::max(lo_y, 1e-3))) - 1,
          std::ceil(std::log10(hi_y)) + (std::log10(hi_y) == std::ceil(std::log10(hi_y)) ? 1 : 0)};
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"440\" font-family=\"sans-serif\" font-size=\"11\">\n"
    << "<rect width=\"640\" height=\"440\" fill=\"white\"/>\n"
    << "<text x=\"335\" y=\"20\" text-anchor=\"middle\" font-size=\"13\">" << xml_escape(title) << "</text>\n";
  for (double d = ax.x0; d <= ax.x1; ++d)
    s << "<line x1=\"" << ax.x(std::pow(10, d)) << "\" y1=\"" << ax.top << "\" x2=\"" << ax.x(std::pow(10, d)) << "\" y2=\""
      << ax.bottom << "\" stroke=\"#ddd\"/><text x=\"" << ax.x(std::pow(10, d)) << "\" y=\"" << ax.bottom + 15
      << "\" text-anchor=\"middle\">" << fmt("%g", std::pow(10, d)) << "</text>\n";
  for (double d = ax.y0; d <= ax.y1; ++d)
    s << "<line x1=\"" << ax.left << "\" y1=\"" << ax.y(std::pow(10, d)) << "\" x2=\"" << ax.right << "\" y2=\""
      << ax.y(std::pow(10, d)) << "\" stroke=\"#ddd\"/><text x=\"" << ax.left - 5 << "\" y=\"" << ax.y(std::pow(10, d)) + 4
      << "\" text-anchor=\"end\">" << fmt("%g", std::pow(10, d)) << "</text>\n";
  s << "<rect x=\"" << ax.left << "\" y=\"" << ax.top << "\" width=\"" << ax.right - ax.left << "\" height=\""
    << ax.bottom - ax.top << "\" fill=\"none\" stroke=\"black\"/>\n"
    << "<text x=\"335\" y=\"" << ax.bottom + 35 << "\" text-anchor=\"middle\">arithmetic intensity (FLOP per byte at the level)</text>\n"
    << "<text x=\"18\" y=\"210\" text-anchor=\"middle\" transform=\"rotate(-90 18 210)\">TFLOP/s</text>\n";
  const char* colours[] = {"#1f77b4", "#2ca02c", "#d62728"};
  const double xmin = std::pow(10, ax.x0), xmax = std::pow(10, ax.x1);
  for (std::size_t i = 0; i < rf.ceilings.size(); ++i) {
    const auto& c = rf.ceilings[i];
    const double ridge = rf.peak_tflops / c.tb_per_s;  // FLOP/B where the bandwidth meets the peak
    const double x_start = std::max(xmin, std::pow(10, ax.y0) / c.tb_per_s);
    s << "<polyline fill=\"none\" stroke=\"" << colours[i % 3] << "\" stroke-width=\"1.5\" points=\"" << ax.x(x_start) << ","
      << ax.y(x_start * c.tb_per_s) << " " << ax.x(ridge) << "," << ax.y(rf.peak_tflops) << "\"/>\n"
      << "<text x=\"" << ax.x(x_start) + 4 << "\" y=\"" << ax.y(x_start * c.tb_per_s) - 6 << "\" fill=\"" << colours[i % 3] << "\">"
      << c.level << " " << fmt("%.1f", c.tb_per_s) << " TB/s</text>\n";
  }
  s << "<line x1=\"" << ax.x(xmin) << "\" y1=\"" << ax.y(rf.peak_tflops) << "\" x2=\"" << ax.x(xmax) << "\" y2=\""
    << ax.y(rf.peak_tflops) << "\" stroke=\"black\" stroke-width=\"1.5\"/>\n"
    << "<text x=\"" << ax.right - 4 << "\" y=\"" << ax.y(rf.peak_tflops) - 6 << "\" text-anchor=\"end\">MFMA peak "
    << fmt("%.0f", rf.peak_tflops) << " TFLOP/s</text>\n";
  for (std::size_t i = 0; i < rf.points.size(); ++i) {
    const auto& p = rf.points[i];
    s << "<circle cx=\"" << ax.x(p.flops_per_byte) << "\" cy=\"" << ax.y(p.tflops) << "\" r=\"5\" fill=\"" << colours[i % 3]
      << "\"/><text x=\"" << ax.x(p.flops_per_byte) + 8 << "\" y=\"" << ax.y(p.tflops) + 14 << "\">" << p.level << ": "
      << fmt("%.0f", p.flops_per_byte) << " FLOP/B, " << fmt("%.0f", p.tflops) << " TFLOP/s</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

std::string write_roofline(const std::string& path, const timing::TimingResult& r, const arch::Arch& a,
                           const std::string& title) {
  std::string svg;
  try {
    svg = roofline_svg(roofline(r, a), title);
  } catch (const std::invalid_argument& e) {
    return "--plot " + path + ": " + e.what();
  }
  try {
    traces::write_output_file(path, svg);
  } catch (const traces::OutputError& e) {
    return "--plot " + std::string(e.what());
  }
  return "";
}

}  // namespace tilelab::cli
