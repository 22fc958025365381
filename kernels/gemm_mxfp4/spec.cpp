// gemm_mxfp4's layout spec (the design of gemm_mxfp4.hip).  Its CPU
// reference is gemm_mx_reference (kernels/gemm_mxfp8/reference.hpp) with
// E2M1 operands, unpacked one code per byte.
#include "kernels/common/mx_gemm_spec.hpp"

namespace tilelab::kernels {

KernelSpec gemm_mxfp4_spec() {
  // Sw<2,4,3>: conflict-free on both sides (tilelab swizzle --arch gfx950
  // --tile 128,64 --elem-bytes 1 --write-tv '(64,4):(4,1)' '(1,16)'
  // --write-inst ds_write_b128 --read-tv '(16,4):(1,16)' '(1,16)' --read-inst ds_read_b128).
  return mx_gemm_spec({"gemm_mxfp4", "gemm_mxfp4/gemm_mxfp4.hip",
                       "MXFP4 GEMM: E2M1 operands packed two per byte, E8M0 scales per 32 K, fp32 accumulate, bf16 out",
                       "E2M1 pairs", 4, Swizzle(2, 4, 3),
                       "v_mfma_scale_f32_16x16x128_f8f6f4 (E2M1 x E2M1: cbsz = blgp = 4, 4-register operands)",
                       "row l%16, k 32g..+31 = bytes 16g..+15"});
}

}  // namespace tilelab::kernels
