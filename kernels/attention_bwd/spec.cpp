// attention_bwd's layout specs (the design of attention_bwd.hip): the
// backward pass's main kernel at D = 64 and 128, and its preprocessing kernel.
#include "kernels/spec.hpp"

#include "layouts/layout.hpp"

namespace tilelab::kernels {

namespace {
Layout L(IntTuple shape, IntTuple stride) { return Layout(std::move(shape), std::move(stride)); }

bool positive(long long x) { return x >= 1; }

// tr: the gfx950 variant that reads the gradient products' A operands from
// the row-major tiles with ds_read_b64_tr_b16 (no transposed tiles).
KernelSpec backward_spec(int D, bool tr) {
  KernelSpec s;
  s.name = std::string(tr ? "attention_bwd_tr_d" : "attention_bwd_d") + std::to_string(D);
  s.source = "attention_bwd/attention_bwd.hip";
  s.summary = "attention backward, bf16, D = " + std::to_string(D) +
              ", causal or not: dK, dV per key block and dQ by a separate pass (query blocks of the same grid), "
              "after the preprocessing kernel attention_bwd_prep_d" + std::to_string(D) + " (delta = rowsum(dO o O))";
  if (tr)
    s.summary += "; gfx950's transposing LDS read (ds_read_b64_tr_b16) gives the gradient products' A operands from "
                 "the row-major tiles, so LDS holds half the tiles and the copy has no 2-byte transposing writes";
  s.archs = tr ? std::vector<std::string>{"gfx950"} : std::vector<std::string>{"gfx950", "gfx942"};
  s.block_tile = "64 keys (key blocks: dK, dV) or 64 queries (query blocks: dQ) per workgroup; 64-row tiles of the "
                 "other side stream through LDS";
  s.wave_layout =
      "4 waves x 16 rows.  Key block: wave w owns keys 16w..+16 (K, V in registers), recomputes S = Q K^T and "
      "dP = dO V^T per query tile, P = exp(S/sqrt(D) - lse), dS = P o (dP - delta), then dV^T += dO^T P and "
      "dK^T += Q^T dS (dK^T, dV^T in registers for the whole loop).  Query block: wave w owns queries 16w..+16 "
      "(Q, dO in registers), recomputes S^T = K Q^T and dP^T = V dO^T per key tile, then dQ^T += K^T dS^T";
  s.thread_values =
      "key block: lane l owns key l%16; S, dP, P, dS hold queries 16qb + 4(l/16)..+4; dK^T, dV^T hold d = 16db + "
      "4(l/16)..+4.  Query block: lane l owns query l%16; S^T, dP^T hold keys 16nb + 4(l/16)..+4; dQ^T holds d = "
      "16db + 4(l/16)..+4.  P and dS feed the next MFMA as B operands directly (their rows are its k), the "
      "transposed tiles are read with the same row permutation";
  s.copy_atom = tr ? "128-bit global load of row t/(D/8), elements 8(t%(D/8))..+8 -> registers (the next tile, "
                    "during this tile's MFMAs) -> ds_write_b128 row-major"
                  : "128-bit global load of row t%64, elements 8(t/64)..+8 -> registers (the next tile, during this "
                    "tile's MFMAs) -> ds_write_b128 row-major + 8 x ds_write_b16 transposed";
  s.mfma_atom = "v_mfma_f32_16x16x32_bf16 (gfx942: two v_mfma_f32_16x16x16_bf16)";
  s.threads_per_block = 256;
  s.pipeline_depth = 1;  // one LDS stage (4 tiles of D = 128 are gfx942's 64 KiB); the next tile waits in registers
  const int units_log2 = D == 64 ? 3 : 4;
  // The transposing reads at D = 128 span 8 rows of 256 bytes in one pass:
  // Sw<3,4,3> (unit u of row n at u ^ 2(n % 8)) keeps them, the row reads
  // and the row-wise copy conflict-free (tilelab swizzle --tile 64,128
  // --elem-bytes 2 --write-tv '(16,16):(16,1)' '(1,8)' --write-inst
  // ds_write_b128 --read-tv '(16,4):(4,1)' '(1,4)' --read-inst ds_read_b64_tr_b16).
  const Swizzle row_swizzle = tr && D == 128 ? Swizzle(3, 4, 3) : Swizzle(units_log2, 3, units_log2);
  const Swizzle t_swizzle(4, 2, 4);
  s.lds = {{"X row-major (Q in key blocks, K in query blocks)", 64, D, 2, 1, row_swizzle},
           {"X transposed (Q^T / K^T)", D, 64, 2, 1, t_swizzle},
           {"Y row-major (dO in key blocks, V in query blocks)", 64, D, 2, 1, row_swizzle},
           {"Y transposed (dO^T, key blocks only)", D, 64, 2, 1, t_swizzle}};
  if (tr) s.lds = {s.lds[0], s.lds[2]};
  const TVLayout row_copy = make_layout_tv(L({64, 4}, {1, 64}), L({1, 8}, {1, 1}));
  const TVLayout t_copy = make_layout_tv(L({4, 64}, {64, 1}), L({8, 1}, {1, 1}));
  const TVLayout row_operand = make_layout_tv(L({16, 4}, {1, 16}), L({1, 8}, {1, 1}));
  const TVLayout t_operand = make_layout_tv(L({16, 4}, {1, 16}), L({1, 4}, {1, 1}));
  // The transposing read: lane l of block g = l/16 reads row 4g + (l%16)/4,
  // columns 4(l%4)..+4 of a 16 x 16 piece of the row-major tile.
  const TVLayout tr_operand = make_layout_tv(L({16, 4}, {4, 1}), L({1, 4}, {1, 1}));
  // Without transposed writes the copy goes row-wise: chunk t is row t/(D/8), unit t%(D/8).
  const TVLayout row_wise_copy = make_layout_tv(L({256 / (D / 8), D / 8}, {D / 8, 1}), L({1, 8}, {1, 1}));
  if (tr) {
    s.accesses = {{"X: global -> LDS row-major", 0, "ds_write_b128", row_wise_copy, {}, ~0ull},
                  {"Y: global -> LDS row-major", 1, "ds_write_b128", row_wise_copy, {}, ~0ull},
                  {"X: A operand of S / S^T", 0, "ds_read_b128", row_operand, {}, ~0ull},
                  {"Y: A operand of dP / dP^T", 1, "ds_read_b128", row_operand, {}, ~0ull},
                  {"X: transposed A operand of dK^T / dQ^T", 0, "ds_read_b64_tr_b16", tr_operand, {}, ~0ull},
                  {"Y: transposed A operand of dV^T", 1, "ds_read_b64_tr_b16", tr_operand, {}, ~0ull}};
  } else s.accesses = {{"X: global -> LDS row-major", 0, "ds_write_b128", row_copy, {}, ~0ull},
                {"X: global -> LDS transposed", 1, "ds_write_b16", t_copy, {}, ~0ull},
                {"Y: global -> LDS row-major", 2, "ds_write_b128", row_copy, {}, ~0ull},
                {"Y: global -> LDS transposed", 3, "ds_write_b16", t_copy, {}, ~0ull},
                {"X: A operand of S / S^T", 0, "ds_read_b128", row_operand, {}, ~0ull},
                {"Y: A operand of dP / dP^T", 2, "ds_read_b128", row_operand, {}, ~0ull},
                {"X^T: A operand of dK^T / dQ^T", 1, "ds_read_b64", t_operand, {}, ~0ull},
                {"Y^T: A operand of dV^T", 3, "ds_read_b64", t_operand, {}, ~0ull}};
  s.shape_dims = {"BH", "S", "causal"};
  s.switch_dims = {"causal"};
  s.shape_rules = {{"BH >= 1", [](const auto& v) { return positive(v[0]); }}};
  s.example_shapes = {{16, 4096, 1}, {1, 64, 0}, {1, 100, 1}, {2, 200, 0}, {16, 4096, 0}};
  s.work = [D](const std::vector<long long>& v, const std::string& arch) {
    const long long S = v[1], blocks = (S + 63) / 64;
    // Tiles a workgroup visits, averaged over key and query blocks (causal:
    // key block kb sees blocks - kb query tiles, query block qb sees qb + 1).
    const long long tiles = v[2] ? (blocks + 1 + 1) / 2 : blocks;
    // Per tile and wave: key block S and dP 2 x 4 x D/32, dV and dK 2 x 2 x D/16
    // (D/2); query block S^T and dP^T D/4, dQ^T 2 x D/16 (3D/8); averaged.
    const bool k16 = arch == "gfx942";
    const long long mfma = tiles * 4 * (D / 2 + 3 * D / 8) / 2 * (k16 ? 2 : 1);
    const long long tile_bytes = 2LL * 64 * D * 2;  // two tensors of the other side per tile
    return TileWork{v[0] * 2 * blocks, k16 ? "v_mfma_f32_16x16x16_bf16" : "v_mfma_f32_16x16x32_bf16", mfma, false,
                    tiles, tiles * tile_bytes + 2LL * 64 * D * 2 + 2LL * 64 * D * 2 + 64 * 8,
                    v[0] * S * (8LL * D * 2 + 8),
                    // Which tiles each workgroup shares is not described (no whole-chip bound).
                    nullptr, 0};
  };
  return s;
}

KernelSpec preprocess_spec(int D) {
  KernelSpec s;
  s.name = "attention_bwd_prep_d" + std::to_string(D);
  s.source = "attention_bwd/attention_bwd.hip";
  s.summary = "attention backward's preprocessing, D = " + std::to_string(D) +
              ": delta = rowsum(dO o O) per query row, f32 (the first kernel of the attention_bwd pass)";
  s.archs = {"gfx950", "gfx942"};
  s.block_tile = "16 rows per workgroup";
  s.wave_layout = "4 waves x 4 rows";
  s.thread_values = "16 threads per row, D/16 consecutive elements each; the 16 partial sums meet by 4 shuffles";
  s.copy_atom = "global loads of D/16 consecutive bf16";
  s.mfma_atom = "none";
  s.threads_per_block = 256;
  s.shape_dims = {"BH", "S"};
  s.shape_rules = {{"BH >= 1", [](const auto& v) { return positive(v[0]); }}};
  s.example_shapes = {{16, 4096}, {1, 100}, {3, 64}};
  s.work = [D](const std::vector<long long>& v, const std::string&) {
    const long long rows = v[0] * v[1];
    // Workgroup w: rows 16w.. of O and dO in, their 16 deltas out.
    auto tiles = [D](long long w) { return std::vector<GlobalTile>{{tile_key(0, w), 16LL * 2 * D * 2}}; };
    return TileWork{(rows + 15) / 16, "", 0, false, 1, 16LL * (2 * D * 2 + 4), rows * (2LL * D * 2 + 4), tiles, 16 * 4};
  };
  return s;
}
}  // namespace

std::vector<KernelSpec> attention_bwd_suite_specs() {
  return {backward_spec(64, false), backward_spec(128, false), backward_spec(64, true), backward_spec(128, true),
          preprocess_spec(64), preprocess_spec(128)};
}

}  // namespace tilelab::kernels
