#include "kernels/common/mx_formats.hpp"

#include <stdexcept>
#include <string>

namespace tilelab::kernels {

void quantize_mx(MxElement f, const float* x, int rows, int k, std::uint8_t* codes, std::uint8_t* scales) {
  if (k % 32 != 0) throw std::invalid_argument("MX quantization needs K % 32 == 0, got K = " + std::to_string(k));
  const int blocks = k / 32;
  for (int r = 0; r < rows; ++r)
    for (int b = 0; b < blocks; ++b) {
      const float* v = x + static_cast<long>(r) * k + b * 32;
      float amax = 0.f;
      for (int i = 0; i < 32; ++i) {
        if (std::isnan(v[i]) && f == MxElement::E2M1)
          throw std::invalid_argument("NaN at row " + std::to_string(r) + ", column " + std::to_string(b * 32 + i) +
                                      ": E2M1 has no NaN");
        if (!std::isnan(v[i])) amax = std::fmax(amax, std::fabs(v[i]));
      }
      const unsigned s = mx_scale_for(f, amax);
      scales[static_cast<long>(r) * blocks + b] = static_cast<std::uint8_t>(s);
      const float scale = decode_e8m0(s);
      for (int i = 0; i < 32; ++i)
        codes[static_cast<long>(r) * k + b * 32 + i] = static_cast<std::uint8_t>(encode(f, v[i] / scale));
    }
}

void pack_fp4(const std::uint8_t* codes, std::size_t n, std::uint8_t* packed) {
  for (std::size_t i = 0; i < n; i += 2)
    packed[i / 2] = static_cast<std::uint8_t>((codes[i] & 0xf) | (i + 1 < n ? (codes[i + 1] & 0xf) << 4 : 0));
}

}  // namespace tilelab::kernels
