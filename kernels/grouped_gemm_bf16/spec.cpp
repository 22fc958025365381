// grouped_gemm_bf16's layout spec: gemm_bf16's block tile, plus the tile ->
// group mapping.
#include "kernels/spec.hpp"

namespace tilelab::kernels {

static KernelSpec grouped_gemm_bf16_spec() {
  KernelSpec s = gemm_bf16_spec();  // the same block tile, LDS layouts, swizzle and accesses
  s.name = "grouped_gemm_bf16";
  s.source = "grouped_gemm_bf16/grouped_gemm_bf16.hip";
  s.summary = "grouped GEMM (MoE): C_g = A_g·B_gᵀ for G groups sharing N and K, one launch";
  s.block_tile =
      "128 x 128 x 64 per workgroup over the groups' stacked rows; workgroup y takes rows 128y..128y+127, which lie "
      "in one group (every M_g % 128 == 0): the last g with row_offsets[g] <= 128y";
  // For the check, G groups of M_g rows each (the kernel itself takes any
  // multiples of 128 per group).
  s.shape_dims = {"G", "M_g", "N", "K"};
  s.shape_rules = {{"M_g % 128 == 0", [](const auto& v) { return v[1] % 128 == 0; }},
                   {"N % 128 == 0", [](const auto& v) { return v[2] % 128 == 0; }},
                   {"K % 64 == 0", [](const auto& v) { return v[3] % 64 == 0; }}};
  s.example_shapes = {{8, 512, 4096, 2048}, {4, 128, 256, 128}, {1, 128, 128, 64}};
  const auto dense = s.work;
  s.work = [dense](const std::vector<long long>& v, const std::string& arch) {
    TileWork w = dense({v[0] * v[1], v[2], v[3]}, arch);  // the tiles of a dense GEMM over the stacked rows
    w.problem_bytes = (v[0] * v[1] + v[0] * v[2]) * v[3] * 2 + v[0] * v[1] * v[2] * 2;  // G matrices B
    // Tile row r belongs to group r * 128 / M_g, whose own B it reads.
    const long long cols = v[2] / 128, m_g = v[1];
    w.tiles_read = gemm_tiles_read(cols, 128 * v[3] * 2, 128 * v[3] * 2,
                                   [cols, m_g](long long row, long long col) { return row * 128 / m_g * cols + col; });
    return w;
  };
  return s;
}

std::vector<KernelSpec> grouped_gemm_bf16_suite_specs() { return {grouped_gemm_bf16_spec()}; }

}  // namespace tilelab::kernels
