// gemm_mxfp8's layout spec (the design of gemm_mxfp8.hip).
#include "kernels/common/mx_gemm_spec.hpp"

namespace tilelab::kernels {

KernelSpec gemm_mxfp8_spec() {
  // Byte for byte gemm_bf16's tile: Sw<3,4,3> on 1-byte elements is its
  // Sw<3,3,3> on 2-byte ones (16-byte chunk c of row r at c ^ (r % 8)).
  return mx_gemm_spec({"gemm_mxfp8", "gemm_mxfp8/gemm_mxfp8.hip",
                       "MXFP8 GEMM: E4M3 operands, E8M0 scales per 32 K, fp32 accumulate, bf16 out", "E4M3", 8,
                       Swizzle(3, 4, 3), "v_mfma_scale_f32_16x16x128_f8f6f4 (E4M3 x E4M3, E8M0 scales)",
                       "row l%16, k 16g..+15 and 64+16g..+15"});
}

}  // namespace tilelab::kernels
