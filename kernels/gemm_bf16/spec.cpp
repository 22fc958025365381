// gemm_bf16's layout spec (the design of gemm_bf16.hip).
#include "kernels/spec.hpp"

#include <optional>
#include <stdexcept>

#include "layouts/layout.hpp"

namespace tilelab::kernels {

namespace {
Layout L(IntTuple shape, IntTuple stride) { return Layout(std::move(shape), std::move(stride)); }
}  // namespace

KernelSpec gemm_bf16_spec(const TemplateParams& params) {
  check_params("gemm_bf16", params, {"TILE_M", "TILE_N", "WAVES_M", "WAVES_N", "SWIZZLE"});
  // The template's parameters (gemm_tile.hpp), the suite's build by default,
  // refused by the rules its static_asserts state.
  const long long tm = param(params, "TILE_M", 128), tn = param(params, "TILE_N", 128);
  const long long wm = param(params, "WAVES_M", 2), wn = param(params, "WAVES_N", 2);
  const bool swizzled = param(params, "SWIZZLE", 1) != 0;
  const long long threads = 64 * wm * wn;
  if (wm < 1 || wn < 1 || wm * wn > 16) throw std::invalid_argument("gemm_bf16: 1 to 16 waves (WAVES_M x WAVES_N)");
  if (tm < 16 || tn < 16 || tm % (16 * wm) || tn % (16 * wn))
    throw std::invalid_argument("gemm_bf16: each wave's piece of C must be whole 16x16 MFMA tiles");
  if ((tm * 8) % threads || (tn * 8) % threads)
    throw std::invalid_argument("gemm_bf16: the threads must move the A and B tiles in whole 16-byte chunks");
  const long long frags = (tm / wm / 16) * (tn / wn / 16);  // MFMA tiles per wave
  const std::string t = std::to_string(tm) + " x " + std::to_string(tn);
  KernelSpec s;
  s.name = "gemm_bf16";
  s.source = "gemm_bf16/gemm_bf16.hip";
  s.summary = "C = A·Bᵀ, bf16 in, fp32 accumulate, bf16 out, MFMA 16x16x32, LDS double buffering";
  s.archs = {"gfx950", "gfx942"};
  s.block_tile = t + " x 64 (M x N x K) per workgroup";
  s.wave_layout = std::to_string(wm * wn) + " waves as " + std::to_string(wm) + " x " + std::to_string(wn) + "; each owns " +
                  std::to_string(tm / wm) + " x " + std::to_string(tn / wn) + " of C = " + std::to_string(tm / wm / 16) +
                  " x " + std::to_string(tn / wn / 16) + " MFMA tiles of 16 x 16";
  s.thread_values = "copy: thread t moves 8-element chunk t%8 of rows t/8 + " + std::to_string(threads / 8) +
                    "i; MFMA operand: lane l reads row l%16, k 8*(l/16)..+8; accumulator: lane l holds rows "
                    "4*(l/16)..+4 of column l%16";
  s.copy_atom = "128-bit global load -> registers -> ds_write_b128 (next K step, overlapped with the MFMAs)";
  s.mfma_atom = "v_mfma_f32_16x16x32_bf16 (gfx942: two v_mfma_f32_16x16x16_bf16)";
  s.threads_per_block = static_cast<int>(threads);
  s.pipeline_depth = 2;
  // Sw<3,3,3>: zero conflict cycles on both arches in (one command line)
  //   tilelab swizzle --arch gfx950|gfx942 --tile 128,64 --elem-bytes 2
  //     --write-tv '(32,8):(8,1)' '(1,8)' --write-inst ds_write_b128
  //     --read-tv '(16,4):(1,16)' '(1,8)' --read-inst ds_read_b128
  // (gfx950's first choice Sw<2,4,3> costs 128 cycles per tile on gfx942).
  // SWIZZLE = 0 is the plain row-major tile (its conflicts turned into time).
  const std::optional<Swizzle> sw = swizzled ? std::optional<Swizzle>(Swizzle(3, 3, 3)) : std::nullopt;
  s.lds = {{"A tile", tm, 64, 2, 2, sw}, {"B tile", tn, 64, 2, 2, sw}};
  const TVLayout copy = make_layout_tv(L({threads / 8, 8}, {8, 1}), L({1, 8}, {1, 1}));
  const TVLayout operand = make_layout_tv(L({16, 4}, {1, 16}), L({1, 8}, {1, 1}));
  s.accesses = {{"A: global -> LDS copy", 0, "ds_write_b128", copy, {}, ~0ull},
                {"B: global -> LDS copy", 1, "ds_write_b128", copy, {}, ~0ull},
                {"A: MFMA operand read", 0, "ds_read_b128", operand, {}, ~0ull},
                {"B: MFMA operand read", 1, "ds_read_b128", operand, {}, ~0ull}};
  s.shape_dims = {"M", "N", "K"};
  s.shape_rules = {{"M % " + std::to_string(tm) + " == 0", [tm](const auto& v) { return v[0] % tm == 0; }},
                   {"N % " + std::to_string(tn) + " == 0", [tn](const auto& v) { return v[1] % tn == 0; }},
                   {"K % 64 == 0", [](const auto& v) { return v[2] % 64 == 0; }}};
  // The suite's example problems, rounded up to the tile (the suite's build: as they are).
  const auto up = [](long long v, long long m) { return (v + m - 1) / m * m; };
  for (const std::vector<long long>& e : std::vector<std::vector<long long>>{
           {4096, 4096, 4096}, {128, 128, 64}, {256, 128, 128}, {512, 512, 512}, {1024, 2048, 4096}})
    s.example_shapes.push_back({up(e[0], tm), up(e[1], tn), e[2]});
  s.work = [tm, tn, frags, wm, wn](const std::vector<long long>& v, const std::string& arch) {
    const long long steps = v[2] / 64;
    // Per K step: every wave's MFMA tiles x 2 MFMAs of K = 32 (gfx942: twice as many of K = 16).
    const bool k16 = arch == "gfx942";
    TileWork w{(v[0] / tm) * (v[1] / tn), k16 ? "v_mfma_f32_16x16x16_bf16" : "v_mfma_f32_16x16x32_bf16",
               steps * wm * wn * frags * (k16 ? 4 : 2), false, steps, (tm + tn) * v[2] * 2 + tm * tn * 2,
               (v[0] + v[1]) * v[2] * 2 + v[0] * v[1] * 2,
               // The host passes group_m = 0: the grid's own row-major tile order.
               gemm_tiles_read(v[1] / tn, tm * v[2] * 2, tn * v[2] * 2), tm * tn * 2};
    return w;
  };
  return s;
}

std::vector<KernelSpec> gemm_bf16_suite_specs() { return {gemm_bf16_spec()}; }

}  // namespace tilelab::kernels
