// gemm_mxfp4's layout spec (the design of gemm_mxfp4.hip).  Its CPU
// reference is gemm_mx_reference (kernels/gemm_mxfp8/reference.hpp) with
// E2M1 operands, unpacked one code per byte.
#include "kernels/common/mx_gemm_spec.hpp"

namespace tilelab::kernels {

std::vector<KernelSpec> gemm_mxfp4_specs(const TemplateParams& params) {
  const MxTile tile = mx_tile("gemm_mxfp4", params, 4);
  // Sw<2,4,3>: conflict-free on both sides (tilelab swizzle --arch gfx950
  // --tile 128,64 --elem-bytes 1 --write-tv '(64,4):(4,1)' '(1,16)'
  // --write-inst ds_write_b128 --read-tv '(16,4):(1,16)' '(1,16)' --read-inst ds_read_b128).
  const MxGemmVariant v16{"gemm_mxfp4", "gemm_mxfp4/gemm_mxfp4.hip",
                          "MXFP4 GEMM: E2M1 operands packed two per byte, E8M0 scales per 32 K, fp32 accumulate, bf16 out",
                          "E2M1 pairs", 4, Swizzle(2, 4, 3),
                          "v_mfma_scale_f32_16x16x128_f8f6f4 (E2M1 x E2M1: cbsz = blgp = 4, 4-register operands)",
                          "row l%16, k 32g..+31 = bytes 16g..+15"};
  // 32 rows per half-wave: Sw<2,4,4> (chunk c of row r at c ^ ((r/4) % 4)).
  const MxGemmVariant v32 = with_32x32_atom(
      v16, Swizzle(2, 4, 4), "MXFP4 GEMM with the 32x32x64 MFMA atom: E2M1 pairs, E8M0 scales per 32 K (OPSEL), bf16 out",
      "v_mfma_scale_f32_32x32x64_f8f6f4 (E2M1 x E2M1: cbsz = blgp = 4, OPSEL 0 and 2)",
      "row l%32, k 64kk+32g..+31 = bytes 32kk+16g..+15 for MFMA kk = 0, 1");
  return {mx_gemm_spec(v16, tile), mx_gemm_spec(v32, tile)};
}

std::vector<KernelSpec> gemm_mxfp4_suite_specs() { return gemm_mxfp4_specs(); }

}  // namespace tilelab::kernels
