#include "kernels/rmsnorm/reference.hpp"

#include <cmath>

#include "kernels/common/formats.hpp"

namespace tilelab::kernels {

void rmsnorm_reference(const std::uint16_t* in, const std::uint16_t* gamma, int rows, int hidden, float eps,
                       std::uint16_t* out) {
  for (int r = 0; r < rows; ++r) {
    const std::uint16_t* x = in + static_cast<long>(r) * hidden;
    float sum = 0.f;
    for (int i = 0; i < hidden; ++i) {
      const float f = bf16_to_float(x[i]);
      sum += f * f;
    }
    const float rstd = 1.f / std::sqrt(sum / static_cast<float>(hidden) + eps);
    for (int i = 0; i < hidden; ++i)
      out[static_cast<long>(r) * hidden + i] = float_to_bf16(bf16_to_float(x[i]) * rstd * bf16_to_float(gamma[i]));
  }
}

}  // namespace tilelab::kernels
