#include "kernels/common/mx_gemm_spec.hpp"

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

KernelSpec mx_gemm_spec(const MxGemmVariant& v) {
  const Int row_bytes = 128 * v.bits / 8;  // one K step of a tile row
  const Int chunks = row_bytes / 16;       // 16-byte copy chunks per row
  KernelSpec s;
  s.name = v.name;
  s.source = v.source;
  s.summary = v.summary;
  s.archs = {"gfx950"};
  s.block_tile = "128 x 128 x 128 (M x N x K) per workgroup; a tile row is " + std::to_string(row_bytes) + " bytes";
  const std::string R = std::to_string(v.atom), frags = std::to_string(64 / v.atom);
  s.wave_layout = "4 waves as 2 x 2; each owns 64 x 64 of C = " + frags + " x " + frags + " MFMA tiles of " + R + " x " + R +
                  (v.atom == 32 ? ", two MFMAs (K 64 each) per K step" : "");
  s.thread_values = "copy: thread t moves 16-byte chunk t%" + std::to_string(chunks) + " of rows t/" +
                    std::to_string(chunks) + " + " + std::to_string(256 / chunks) + "i; MFMA operand: lane l reads " +
                    v.operand_values + " (g = l/" + R + "); scales: lane l, row l%" + R + ", K-block g" +
                    (v.atom == 32 ? " of each MFMA (one 32-bit load per row and step, shifted by 8g; OPSEL 0 and 2)" : "");
  s.copy_atom = "128-bit global load -> registers -> ds_write_b128 (next K step, overlapped with the MFMAs)";
  s.mfma_atom = v.mfma_atom;
  s.threads_per_block = 256;
  s.pipeline_depth = 2;
  s.lds = {{"A tile (" + v.element + ")", 128, row_bytes, 1, 2, v.swizzle},
           {"B tile (" + v.element + ")", 128, row_bytes, 1, 2, v.swizzle}};
  const TVLayout copy = make_layout_tv(Layout(IntTuple{256 / chunks, chunks}, IntTuple{chunks, 1}),
                                       Layout(IntTuple{1, 16}, IntTuple{1, 1}));
  const TVLayout operand =
      make_layout_tv(Layout(IntTuple{v.atom, 64 / v.atom}, IntTuple{1, v.atom}), Layout(IntTuple{1, 16}, IntTuple{1, 1}));
  s.accesses = {{"A: global -> LDS copy", 0, "ds_write_b128", copy, {}, ~0ull},
                {"B: global -> LDS copy", 1, "ds_write_b128", copy, {}, ~0ull},
                {"A: MFMA operand read", 0, "ds_read_b128", operand, {}, ~0ull},
                {"B: MFMA operand read", 1, "ds_read_b128", operand, {}, ~0ull}};
  s.shape_dims = {"M", "N", "K"};
  s.shape_rules = {{"M % 128 == 0", [](const auto& x) { return x[0] % 128 == 0; }},
                   {"N % 128 == 0", [](const auto& x) { return x[1] % 128 == 0; }},
                   {"K % 128 == 0", [](const auto& x) { return x[2] % 128 == 0; }}};
  s.example_shapes = {{4096, 4096, 4096}, {128, 128, 128}, {256, 512, 1024}};
  const int bits = v.bits, atom = v.atom;
  s.work = [bits, atom](const std::vector<long long>& x, const std::string&) {
    const long long steps = x[2] / 128;
    const long long k_bytes = x[2] * bits / 8 + x[2] / 32;  // elements and a scale byte per 32, per row
    // Per K step: 4 waves x 4 x 4 MFMAs (16x16x128) or 4 waves x 2 x 2 x 2 (32x32x64).
    const std::string mfma = atom == 32 ? "v_mfma_scale_f32_32x32x64_f8f6f4" : "v_mfma_scale_f32_16x16x128_f8f6f4";
    TileWork w{(x[0] / 128) * (x[1] / 128), mfma, steps * 4 * (atom == 32 ? 8 : 16), bits < 8, steps,
               (128 + 128) * k_bytes + 128 * 128 * 2, (x[0] + x[1]) * k_bytes + x[0] * x[1] * 2,
               gemm_tiles_read(x[1] / 128, 128 * k_bytes, 128 * k_bytes), 128 * 128 * 2};
    return w;
  };
  return s;
}

}  // namespace tilelab::kernels
