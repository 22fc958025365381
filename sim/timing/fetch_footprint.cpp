#include "sim/timing/fetch_footprint.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tilelab::timing {

FetchFootprint::FetchFootprint(std::vector<LineRange> buffers) {
  std::sort(buffers.begin(), buffers.end(), [](const LineRange& a, const LineRange& b) { return a.first < b.first; });
  for (const LineRange& r : buffers) {
    if (r.lines == 0) continue;
    if (!buffers_.empty() && buffers_.back().range.first + buffers_.back().range.lines > r.first)
      throw std::invalid_argument("FetchFootprint: buffers overlap");
    buffers_.push_back(Buffer{r, 0, 0, std::vector<std::uint64_t>((r.lines + 63) / 64, 0)});
  }
}

void FetchFootprint::fetched(std::uint64_t line) {
  ++fetches_;
  auto after = std::upper_bound(buffers_.begin(), buffers_.end(), line,
                                [](std::uint64_t l, const Buffer& b) { return l < b.range.first; });
  if (after == buffers_.begin()) {
    ++outside_;
    return;
  }
  Buffer& b = *(after - 1);
  const std::uint64_t at = line - b.range.first;
  if (at >= b.range.lines) {
    ++outside_;
    return;
  }
  ++b.fetches;
  std::uint64_t& word = b.seen[at / 64];
  const std::uint64_t bit = std::uint64_t{1} << (at % 64);
  if (!(word & bit)) ++b.distinct, word |= bit;
}

std::uint64_t FetchFootprint::chip_fetches(double scale) const {
  scale = std::max(1.0, scale);
  double total = scale * static_cast<double>(outside_);
  for (const Buffer& b : buffers_) {
    if (b.fetches == 0) continue;
    const double scaled = scale * static_cast<double>(b.fetches);
    const double per_line = static_cast<double>(b.fetches) / static_cast<double>(b.distinct);
    total += std::min(scaled, static_cast<double>(b.range.lines) * per_line);
  }
  return static_cast<std::uint64_t>(std::llround(total));
}

}  // namespace tilelab::timing
