// CPU reference of rmsnorm_bf16: what the kernel computes, in the same
// precision (fp32 statistics, bf16 rounding of the output).
#pragma once
#include <cstdint>

namespace tilelab::kernels {

// out[r,i] = bf16(x[r,i] * rstd[r] * gamma[i]),  rstd = 1/sqrt(sum(x^2)/hidden + eps),
// all arithmetic in fp32; bf16 tensors as raw 16-bit patterns.
void rmsnorm_reference(const std::uint16_t* in, const std::uint16_t* gamma, int rows, int hidden, float eps,
                       std::uint16_t* out);

}  // namespace tilelab::kernels
