// grouped_gemm_bf16's layout spec: gemm_bf16's block tile, plus the tile ->
// group mapping.
#include "kernels/spec.hpp"

namespace tilelab::kernels {

KernelSpec grouped_gemm_bf16_spec() {
  KernelSpec s = gemm_bf16_spec();  // the same block tile, LDS layouts, swizzle and accesses
  s.name = "grouped_gemm_bf16";
  s.source = "grouped_gemm_bf16/grouped_gemm_bf16.hip";
  s.summary = "grouped GEMM (MoE): C_g = A_g·B_gᵀ for G groups sharing N and K, one launch";
  s.block_tile =
      "128 x 128 x 64 per workgroup over the groups' stacked rows; workgroup y takes rows 128y..128y+127, which lie "
      "in one group (every M_g % 128 == 0): the last g with row_offsets[g] <= 128y";
  s.shape_dims = {"G", "N", "K"};
  s.shape_rules = {{"N % 128 == 0", [](const auto& v) { return v[1] % 128 == 0; }},
                   {"K % 64 == 0", [](const auto& v) { return v[2] % 64 == 0; }}};
  s.example_shapes = {{4, 256, 128}, {8, 512, 512}, {1, 128, 64}};
  return s;
}

}  // namespace tilelab::kernels
