// gemm_bf16's layout spec (the design of gemm_bf16.hip).
#include "kernels/spec.hpp"

#include "layouts/layout.hpp"

namespace tilelab::kernels {

namespace {
Layout L(IntTuple shape, IntTuple stride) { return Layout(std::move(shape), std::move(stride)); }
}  // namespace

KernelSpec gemm_bf16_spec() {
  KernelSpec s;
  s.name = "gemm_bf16";
  s.source = "gemm_bf16/gemm_bf16.hip";
  s.summary = "C = A·Bᵀ, bf16 in, fp32 accumulate, bf16 out, MFMA 16x16x32, LDS double buffering";
  s.archs = {"gfx950", "gfx942"};
  s.block_tile = "128 x 128 x 64 (M x N x K) per workgroup";
  s.wave_layout = "4 waves as 2 x 2; each owns 64 x 64 of C = 4 x 4 MFMA tiles of 16 x 16";
  s.thread_values =
      "copy: thread t moves 8-element chunk t%8 of rows t/8 + 32i (i < 4); MFMA operand: lane l reads row l%16, "
      "k 8*(l/16)..+8; accumulator: lane l holds rows 4*(l/16)..+4 of column l%16";
  s.copy_atom = "128-bit global load -> registers -> ds_write_b128 (next K step, overlapped with the MFMAs)";
  s.mfma_atom = "v_mfma_f32_16x16x32_bf16 (gfx942: two v_mfma_f32_16x16x16_bf16)";
  s.threads_per_block = 256;
  s.pipeline_depth = 2;
  // Sw<3,3,3>: zero conflict cycles on both arches in (one command line)
  //   tilelab swizzle --arch gfx950|gfx942 --tile 128,64 --elem-bytes 2
  //     --write-tv '(32,8):(8,1)' '(1,8)' --write-inst ds_write_b128
  //     --read-tv '(16,4):(1,16)' '(1,8)' --read-inst ds_read_b128
  // (gfx950's first choice Sw<2,4,3> costs 128 cycles per tile on gfx942).
  const Swizzle sw(3, 3, 3);
  s.lds = {{"A tile", 128, 64, 2, 2, sw}, {"B tile", 128, 64, 2, 2, sw}};
  const TVLayout copy = make_layout_tv(L({32, 8}, {8, 1}), L({1, 8}, {1, 1}));
  const TVLayout operand = make_layout_tv(L({16, 4}, {1, 16}), L({1, 8}, {1, 1}));
  s.accesses = {{"A: global -> LDS copy", 0, "ds_write_b128", copy, {}, ~0ull},
                {"B: global -> LDS copy", 1, "ds_write_b128", copy, {}, ~0ull},
                {"A: MFMA operand read", 0, "ds_read_b128", operand, {}, ~0ull},
                {"B: MFMA operand read", 1, "ds_read_b128", operand, {}, ~0ull}};
  s.shape_dims = {"M", "N", "K"};
  s.shape_rules = {{"M % 128 == 0", [](const auto& v) { return v[0] % 128 == 0; }},
                   {"N % 128 == 0", [](const auto& v) { return v[1] % 128 == 0; }},
                   {"K % 64 == 0", [](const auto& v) { return v[2] % 64 == 0; }}};
  s.example_shapes = {{4096, 4096, 4096}, {128, 128, 64}, {256, 128, 128}, {512, 512, 512}, {1024, 2048, 4096}};
  s.work = [](const std::vector<long long>& v, const std::string& arch) {
    const long long steps = v[2] / 64;
    // Per K step: 4 waves x 4 x 4 tiles x 2 MFMAs of K = 32 (gfx942: twice as many of K = 16).
    const bool k16 = arch == "gfx942";
    TileWork w{(v[0] / 128) * (v[1] / 128), k16 ? "v_mfma_f32_16x16x16_bf16" : "v_mfma_f32_16x16x32_bf16",
               steps * 4 * 16 * (k16 ? 4 : 2), false, steps, (128 + 128) * v[2] * 2 + 128 * 128 * 2,
               (v[0] + v[1]) * v[2] * 2 + v[0] * v[1] * 2,
               // The host passes group_m = 0: the grid's own row-major tile order.
               gemm_tiles_read(v[1] / 128, 128 * v[2] * 2, 128 * v[2] * 2), 128 * 128 * 2};
    return w;
  };
  return s;
}

}  // namespace tilelab::kernels
