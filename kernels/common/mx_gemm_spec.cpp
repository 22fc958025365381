#include "kernels/common/mx_gemm_spec.hpp"

#include <stdexcept>

#include "layouts/layout.hpp"

namespace tilelab::kernels {

MxGemmVariant with_32x32_atom(MxGemmVariant v, Swizzle swizzle, std::string summary, std::string mfma_atom,
                              std::string operand_values) {
  v.name += "_32x32";
  v.swizzle = swizzle;
  v.summary = std::move(summary);
  v.mfma_atom = std::move(mfma_atom);
  v.operand_values = std::move(operand_values);
  v.atom = 32;
  return v;
}

MxTile mx_tile(const std::string& kernel, const TemplateParams& params, int bits) {
  check_params(kernel, params, {"TILE_M", "TILE_N", "WAVES_M", "WAVES_N"});
  MxTile t{param(params, "TILE_M", 128), param(params, "TILE_N", 128), param(params, "WAVES_M", 2),
           param(params, "WAVES_N", 2)};
  const long long threads = 64 * t.waves_m * t.waves_n, chunks = 128 * bits / 8 / 16;
  if (t.waves_m < 1 || t.waves_n < 1 || t.waves_m * t.waves_n > 16)
    throw std::invalid_argument(kernel + ": 1 to 16 waves (WAVES_M x WAVES_N)");
  if (t.tile_m < 32 || t.tile_n < 32 || t.tile_m % (32 * t.waves_m) || t.tile_n % (32 * t.waves_n))
    throw std::invalid_argument(kernel + ": each wave's piece of C must be whole 32x32 pieces (both atoms fit)");
  if ((t.tile_m * chunks) % threads || (t.tile_n * chunks) % threads)
    throw std::invalid_argument(kernel + ": the threads must move the A and B tiles in whole 16-byte chunks");
  return t;
}

KernelSpec mx_gemm_spec(const MxGemmVariant& v, const MxTile& t) {
  const Int row_bytes = 128 * v.bits / 8;  // one K step of a tile row
  const Int chunks = row_bytes / 16;       // 16-byte copy chunks per row
  const long long tm = t.tile_m, tn = t.tile_n, waves = t.waves_m * t.waves_n, threads = 64 * waves;
  const long long frags_m = tm / t.waves_m / v.atom, frags_n = tn / t.waves_n / v.atom;
  KernelSpec s;
  s.name = v.name;
  s.source = v.source;
  s.summary = v.summary;
  s.archs = {"gfx950"};
  s.block_tile = std::to_string(tm) + " x " + std::to_string(tn) + " x 128 (M x N x K) per workgroup; a tile row is " +
                 std::to_string(row_bytes) + " bytes";
  const std::string R = std::to_string(v.atom);
  s.wave_layout = std::to_string(waves) + " waves as " + std::to_string(t.waves_m) + " x " + std::to_string(t.waves_n) +
                  "; each owns " + std::to_string(tm / t.waves_m) + " x " + std::to_string(tn / t.waves_n) + " of C = " +
                  std::to_string(frags_m) + " x " + std::to_string(frags_n) + " MFMA tiles of " + R + " x " + R +
                  (v.atom == 32 ? ", two MFMAs (K 64 each) per K step" : "");
  s.thread_values = "copy: thread t moves 16-byte chunk t%" + std::to_string(chunks) + " of rows t/" +
                    std::to_string(chunks) + " + " + std::to_string(threads / chunks) + "i; MFMA operand: lane l reads " +
                    v.operand_values + " (g = l/" + R + "); scales: lane l, row l%" + R + ", K-block g" +
                    (v.atom == 32 ? " of each MFMA (one 32-bit load per row and step, shifted by 8g; OPSEL 0 and 2)" : "");
  s.copy_atom = "128-bit global load -> registers -> ds_write_b128 (next K step, overlapped with the MFMAs)";
  s.mfma_atom = v.mfma_atom;
  s.threads_per_block = static_cast<int>(threads);
  s.pipeline_depth = 2;
  s.lds = {{"A tile (" + v.element + ")", tm, row_bytes, 1, 2, v.swizzle},
           {"B tile (" + v.element + ")", tn, row_bytes, 1, 2, v.swizzle}};
  const TVLayout copy = make_layout_tv(Layout(IntTuple{threads / chunks, chunks}, IntTuple{chunks, 1}),
                                       Layout(IntTuple{1, 16}, IntTuple{1, 1}));
  const TVLayout operand =
      make_layout_tv(Layout(IntTuple{v.atom, 64 / v.atom}, IntTuple{1, v.atom}), Layout(IntTuple{1, 16}, IntTuple{1, 1}));
  s.accesses = {{"A: global -> LDS copy", 0, "ds_write_b128", copy, {}, ~0ull},
                {"B: global -> LDS copy", 1, "ds_write_b128", copy, {}, ~0ull},
                {"A: MFMA operand read", 0, "ds_read_b128", operand, {}, ~0ull},
                {"B: MFMA operand read", 1, "ds_read_b128", operand, {}, ~0ull}};
  s.shape_dims = {"M", "N", "K"};
  s.shape_rules = {{"M % " + std::to_string(tm) + " == 0", [tm](const auto& x) { return x[0] % tm == 0; }},
                   {"N % " + std::to_string(tn) + " == 0", [tn](const auto& x) { return x[1] % tn == 0; }},
                   {"K % 128 == 0", [](const auto& x) { return x[2] % 128 == 0; }}};
  // The suite's example problems, rounded up to the tile (the suite's build: as they are).
  const auto up = [](long long x, long long m) { return (x + m - 1) / m * m; };
  for (const std::vector<long long>& e : std::vector<std::vector<long long>>{{4096, 4096, 4096}, {128, 128, 128}, {256, 512, 1024}})
    s.example_shapes.push_back({up(e[0], tm), up(e[1], tn), e[2]});
  const int bits = v.bits, atom = v.atom;
  // Per K step: every wave's MFMA tiles, one MFMA each (16x16x128) or two (32x32x64).
  const long long mfma_per_step = waves * frags_m * frags_n * (atom == 32 ? 2 : 1);
  s.work = [bits, atom, tm, tn, mfma_per_step](const std::vector<long long>& x, const std::string&) {
    const long long steps = x[2] / 128;
    const long long k_bytes = x[2] * bits / 8 + x[2] / 32;  // elements and a scale byte per 32, per row
    const std::string mfma = atom == 32 ? "v_mfma_scale_f32_32x32x64_f8f6f4" : "v_mfma_scale_f32_16x16x128_f8f6f4";
    TileWork w{(x[0] / tm) * (x[1] / tn), mfma, steps * mfma_per_step, bits < 8, steps,
               (tm + tn) * k_bytes + tm * tn * 2, (x[0] + x[1]) * k_bytes + x[0] * x[1] * 2,
               gemm_tiles_read(x[1] / tn, tm * k_bytes, tn * k_bytes), tm * tn * 2};
    return w;
  };
  return s;
}

}  // namespace tilelab::kernels
