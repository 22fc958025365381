// gemm_mxfp8's layout spec (the design of gemm_mxfp8.hip).
#include "kernels/spec.hpp"

#include "layouts/layout.hpp"

namespace tilelab::kernels {

KernelSpec gemm_mxfp8_spec() {
  KernelSpec s;
  s.name = "gemm_mxfp8";
  s.source = "gemm_mxfp8/gemm_mxfp8.hip";
  s.summary = "MXFP8 GEMM: E4M3 operands, E8M0 scales per 32 K, fp32 accumulate, bf16 out";
  s.archs = {"gfx950"};
  s.block_tile = "128 x 128 x 128 (M x N x K) per workgroup";
  s.wave_layout = "4 waves as 2 x 2; each owns 64 x 64 of C = 4 x 4 MFMA tiles of 16 x 16";
  s.thread_values =
      "copy: thread t moves 16-byte chunk t%8 of rows t/8 + 32i (i < 4); MFMA operand: lane l reads row l%16, "
      "k 16g..+15 and 64+16g..+15 (g = l/16); scales: lane l, row l%16, K-block g";
  s.copy_atom = "128-bit global load -> registers -> ds_write_b128 (next K step, overlapped with the MFMAs)";
  s.mfma_atom = "v_mfma_scale_f32_16x16x128_f8f6f4 (E4M3 x E4M3, E8M0 scales)";
  s.threads_per_block = 256;
  s.pipeline_depth = 2;
  // Byte for byte gemm_bf16's tile: Sw<3,4,3> on 1-byte elements is its
  // Sw<3,3,3> on 2-byte ones (16-byte chunk c of row r at c ^ (r % 8)).
  const Swizzle sw(3, 4, 3);
  s.lds = {{"A tile (E4M3)", 128, 128, 1, 2, sw}, {"B tile (E4M3)", 128, 128, 1, 2, sw}};
  const TVLayout copy = make_layout_tv(Layout(IntTuple{32, 8}, IntTuple{8, 1}), Layout(IntTuple{1, 16}, IntTuple{1, 1}));
  const TVLayout operand =
      make_layout_tv(Layout(IntTuple{16, 4}, IntTuple{1, 16}), Layout(IntTuple{1, 16}, IntTuple{1, 1}));
  s.accesses = {{"A: global -> LDS copy", 0, "ds_write_b128", copy, {}, ~0ull},
                {"B: global -> LDS copy", 1, "ds_write_b128", copy, {}, ~0ull},
                {"A: MFMA operand read", 0, "ds_read_b128", operand, {}, ~0ull},
                {"B: MFMA operand read", 1, "ds_read_b128", operand, {}, ~0ull}};
  s.shape_dims = {"M", "N", "K"};
  s.shape_rules = {{"M % 128 == 0", [](const auto& v) { return v[0] % 128 == 0; }},
                   {"N % 128 == 0", [](const auto& v) { return v[1] % 128 == 0; }},
                   {"K % 128 == 0", [](const auto& v) { return v[2] % 128 == 0; }}};
  s.example_shapes = {{4096, 4096, 4096}, {128, 128, 128}, {256, 512, 1024}};
  s.work = [](const std::vector<long long>& v, const std::string&) {
    const long long steps = v[2] / 128;
    // Per K step: 4 waves x 4 x 4 MFMAs; operands 1 byte per element plus a scale byte per 32.
    return TileWork{(v[0] / 128) * (v[1] / 128), "v_mfma_scale_f32_16x16x128_f8f6f4", steps * 4 * 16, false, steps,
                    (128 + 128) * v[2] + (128 + 128) * (v[2] / 32) + 128 * 128 * 2,
                    (v[0] + v[1]) * (v[2] + v[2] / 32) + v[0] * v[1] * 2};
  };
  return s;
}

}  // namespace tilelab::kernels
