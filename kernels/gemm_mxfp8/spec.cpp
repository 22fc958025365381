// gemm_mxfp8's layout spec (the design of gemm_mxfp8.hip).
#include "kernels/common/mx_gemm_spec.hpp"

namespace tilelab::kernels {

std::vector<KernelSpec> gemm_mxfp8_specs(const TemplateParams& params) {
  const MxTile tile = mx_tile("gemm_mxfp8", params, 8);
  // Byte for byte gemm_bf16's tile: Sw<3,4,3> on 1-byte elements is its
  // Sw<3,3,3> on 2-byte ones (16-byte chunk c of row r at c ^ (r % 8)).
  const MxGemmVariant v16{"gemm_mxfp8", "gemm_mxfp8/gemm_mxfp8.hip",
                          "MXFP8 GEMM: E4M3 operands, E8M0 scales per 32 K, fp32 accumulate, bf16 out", "E4M3", 8,
                          Swizzle(3, 4, 3), "v_mfma_scale_f32_16x16x128_f8f6f4 (E4M3 x E4M3, E8M0 scales)",
                          "row l%16, k 16g..+15 and 64+16g..+15"};
  // The 32x32x64 atom reads chunks 4kk+g and 4kk+2+g of row l%32 (g = l/32):
  // Sw<3,4,3> would put rows r and r+8 of lanes 0-31 on the same banks;
  // Sw<3,4,4> (chunk c of row r at c ^ ((r/2) % 8)) is conflict-free.
  const MxGemmVariant v32 = with_32x32_atom(
      v16, Swizzle(3, 4, 4), "MXFP8 GEMM with the 32x32x64 MFMA atom: E4M3 operands, E8M0 scales per 32 K (OPSEL), bf16 out",
      "v_mfma_scale_f32_32x32x64_f8f6f4 (E4M3 x E4M3, E8M0 scales, OPSEL 0 and 2)",
      "row l%32, k 64kk+16g..+15 and 64kk+32+16g..+15 for MFMA kk = 0, 1");
  return {mx_gemm_spec(v16, tile), mx_gemm_spec(v32, tile)};
}

std::vector<KernelSpec> gemm_mxfp8_suite_specs() { return gemm_mxfp8_specs(); }

}  // namespace tilelab::kernels
