// gemm_mxfp4's layout spec (the design of gemm_mxfp4.hip).  Its CPU
// reference is gemm_mx_reference (kernels/gemm_mxfp8/reference.hpp) with
// E2M1 operands, unpacked one code per byte.
#include "kernels/spec.hpp"

#include "layouts/layout.hpp"

namespace tilelab::kernels {

KernelSpec gemm_mxfp4_spec() {
  KernelSpec s;
  s.name = "gemm_mxfp4";
  s.source = "gemm_mxfp4/gemm_mxfp4.hip";
  s.summary = "MXFP4 GEMM: E2M1 operands packed two per byte, E8M0 scales per 32 K, fp32 accumulate, bf16 out";
  s.archs = {"gfx950"};
  s.block_tile = "128 x 128 x 128 (M x N x K) per workgroup; a tile row is 64 bytes";
  s.wave_layout = "4 waves as 2 x 2; each owns 64 x 64 of C = 4 x 4 MFMA tiles of 16 x 16";
  s.thread_values =
      "copy: thread t moves 16-byte chunk t%4 of rows t/4 + 64i (i < 2); MFMA operand: lane l reads row l%16, "
      "k 32g..+31 = bytes 16g..+15 (g = l/16); scales: lane l, row l%16, K-block g";
  s.copy_atom = "128-bit global load -> registers -> ds_write_b128 (next K step, overlapped with the MFMAs)";
  s.mfma_atom = "v_mfma_scale_f32_16x16x128_f8f6f4 (E2M1 x E2M1: cbsz = blgp = 4, 4-register operands)";
  s.threads_per_block = 256;
  s.pipeline_depth = 2;
  // Sw<2,4,3>: conflict-free on both sides (tilelab swizzle --arch gfx950
  // --tile 128,64 --elem-bytes 1 --write-tv '(64,4):(4,1)' '(1,16)'
  // --write-inst ds_write_b128 --read-tv '(16,4):(1,16)' '(1,16)' --read-inst ds_read_b128).
  const Swizzle sw(2, 4, 3);
  s.lds = {{"A tile (E2M1 pairs)", 128, 64, 1, 2, sw}, {"B tile (E2M1 pairs)", 128, 64, 1, 2, sw}};
  const TVLayout copy = make_layout_tv(Layout(IntTuple{64, 4}, IntTuple{4, 1}), Layout(IntTuple{1, 16}, IntTuple{1, 1}));
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
    TileWork w{(v[0] / 128) * (v[1] / 128), "v_mfma_scale_f32_16x16x128_f8f6f4", steps * 4 * 16, false, steps,
               (128 + 128) * (v[2] / 2 + v[2] / 32) + 128 * 128 * 2,
               (v[0] + v[1]) * (v[2] / 2 + v[2] / 32) + v[0] * v[1] * 2};
    w.mfma_fp6_fp4 = true;
    return w;
  };
  return s;
}

}  // namespace tilelab::kernels
