// attention_fwd's layout specs: D = 64 and 128 (attention_fwd.hip) and D = 256
// with the head dimension split across wave pairs (attention_fwd_d256.hip).
#include "kernels/spec.hpp"

#include <stdexcept>

#include "layouts/layout.hpp"

namespace tilelab::kernels {

namespace {

// Workgroup w = bh * blocks + b (grid x: query block, y: batch-head) reads its
// own query block (q_rows x D) and its head's K and V in kv_rows-key tiles:
// all of them, or (causal) those up to the end of its query block.
std::function<std::vector<GlobalTile>(long long)> attention_tiles_read(long long S, long long q_rows, long long kv_rows,
                                                                       long long D, bool causal) {
  const long long blocks = S / q_rows, kv_tiles = S / kv_rows;
  return [=](long long w) {
    const long long bh = w / blocks, b = w % blocks;
    const long long seen = causal ? (b + 1) * q_rows / kv_rows : kv_tiles;
    std::vector<GlobalTile> t{{tile_key(0, w), q_rows * D * 2}};
    for (long long k = 0; k < seen; ++k) t.push_back({tile_key(1, bh * kv_tiles + k), 2 * kv_rows * D * 2});
    return t;
  };
}
Layout L(IntTuple shape, IntTuple stride) { return Layout(std::move(shape), std::move(stride)); }

}  // namespace

KernelSpec attention_fwd_spec(int D, const TemplateParams& params) {
  const std::string name = "attention_fwd_d" + std::to_string(D);
  check_params(name, params, {"TILE_Q", "TILE_KV", "PINGPONG", "SETPRIO"});
  // The template's parameters (attention_fwd.hip), the suite's build by
  // default, refused by the rules its static_asserts state.
  const long long tq = param(params, "TILE_Q", 128), kv = param(params, "TILE_KV", 64);
  const bool pingpong = param(params, "PINGPONG", 1) != 0, setprio = param(params, "SETPRIO", 1) != 0;
  if (tq != 64 && tq != 128 && tq != 256) throw std::invalid_argument(name + ": TILE_Q is 64, 128 or 256 (16 query rows per wave)");
  if (kv != 32 && kv != 64 && kv != 128) throw std::invalid_argument(name + ": TILE_KV is 32, 64 or 128");
  if (tq % kv) throw std::invalid_argument(name + ": a causal query block must end on a KV tile: TILE_Q % TILE_KV == 0");
  const long long waves = tq / 16, group = 64 * waves / 2;  // a group (half the waves) stages each tile
  const std::string prio = setprio ? ", s_setprio 1" : "";
  KernelSpec s;
  s.name = name;
  s.source = "attention_fwd/attention_fwd.hip";
  s.summary = "fused attention forward, bf16, D = " + std::to_string(D) +
              ", causal or not, online softmax (fp32), log-sum-exp per row, " +
              (pingpong ? "dual-wave ping-pong" : "one wave group (MFMA and softmax phases take turns)");
  s.archs = {"gfx950", "gfx942"};
  s.block_tile = std::to_string(tq) + " query rows x " + std::to_string(kv) + "-key KV tiles per workgroup (one head)";
  const std::string half = std::to_string(waves / 2);
  s.wave_layout =
      std::to_string(waves) + " waves x 16 query rows; " +
      (pingpong ? "group A (waves 0-" + std::to_string(waves / 2 - 1) + ") and group B (waves " + half + "-" +
                      std::to_string(waves - 1) + ") alternate phases -- while one group issues the MFMAs of a KV tile "
                      "(S^T = K Q^T, O^T += V^T P^T" + prio + ") the other runs the softmax of another tile and stages "
                      "the next K (A) or V (B) tile into LDS" +
                      (waves % 8 ? " (with " + std::to_string(waves) + " waves the two groups sit on different SIMDs)"
                                 : "; waves w and w+" + half + " share a SIMD")
                : "every wave issues the MFMAs of KV tile j (S^T = K Q^T, O^T += V^T P^T" + prio +
                      "), then the softmax of tile j; group A (first half) stages K, group B V");
  s.thread_values =
      "query per lane: lane l owns query l%16 in S^T and O^T; S^T lane l holds keys 16nb + 4(l/16)..+4; O^T lane l "
      "holds d = 16db + 4(l/16)..+4; P^T / Vt use the same key permutation";
  s.copy_atom = "K: 128-bit global load -> ds_write_b128; V: 128-bit global load -> 8 x ds_write_b16 into Vt (transposed)";
  s.mfma_atom = "v_mfma_f32_16x16x32_bf16 (gfx942: two v_mfma_f32_16x16x16_bf16)";
  s.threads_per_block = static_cast<int>(64 * waves);
  s.pipeline_depth = 2;
  const int units_log2 = D == 64 ? 3 : 4;  // 16-byte units per K row: 8 or 16
  // Vt's swizzle, per row length: the first conflict-free one of
  //   tilelab swizzle --arch gfx950 --tile 128,KV --elem-bytes 2
  //     --write-tv '(256/KV,KV):(KV,1)' '(8,1)' --write-inst ds_write_b16
  //     --read-tv '(16,4):(1,16)' '(1,4)' --read-inst ds_read_b64
  // (the 64-key one, Sw<4,2,4>, carried over to 32 and 128 keys conflicts:
  // 2-way on the reads, 32 and 128 cycles per tile).
  const Swizzle vt = kv == 32 ? Swizzle(3, 2, 4) : kv == 64 ? Swizzle(4, 2, 4) : Swizzle(4, 3, 4);
  s.lds = {{"K tile", kv, D, 2, 2, Swizzle(units_log2, 3, D == 64 ? 3 : 4)}, {"Vt tile", D, kv, 2, 2, vt}};
  // One group stages each tile: K chunk t is row t/(D/8), unit t%(D/8);
  // V chunk t is key t%kv, elements 8*(t/kv)..+8 of it, written down Vt's column.
  const TVLayout k_copy = make_layout_tv(L({group / (D / 8), D / 8}, {D / 8, 1}), L({1, 8}, {1, 1}));
  const TVLayout k_operand = make_layout_tv(L({16, 4}, {1, 16}), L({1, 8}, {1, 1}));
  const TVLayout v_copy = make_layout_tv(L({group / kv, kv}, {kv, 1}), L({8, 1}, {1, 1}));
  const TVLayout vt_operand = make_layout_tv(L({16, 4}, {1, 16}), L({1, 4}, {1, 1}));
  s.accesses = {{"K: global -> LDS (group A)", 0, "ds_write_b128", k_copy, {}, ~0ull},
                {"K: MFMA A operand of S^T", 0, "ds_read_b128", k_operand, {}, ~0ull},
                {"V: global -> Vt (group B)", 1, "ds_write_b16", v_copy, {}, ~0ull},
                {"Vt: MFMA A operand of O^T", 1, "ds_read_b64", vt_operand, {}, ~0ull}};
  s.shape_dims = {"BH", "S", "causal"};
  s.switch_dims = {"causal"};
  s.shape_rules = {{"BH >= 1", [](const auto& v) { return v[0] >= 1; }},
                   {"S % " + std::to_string(tq) + " == 0", [tq](const auto& v) { return v[1] % tq == 0; }}};
  // The suite's example problems, S rounded up to the query tile (the suite's build: as they are).
  for (const std::vector<long long>& e :
       std::vector<std::vector<long long>>{{16, 4096, 1}, {1, 128, 0}, {2, 256, 1}, {1, 384, 0}, {16, 4096, 0}})
    s.example_shapes.push_back({e[0], (e[1] + tq - 1) / tq * tq, e[2]});
  s.work = [D, tq, kv, waves](const std::vector<long long>& v, const std::string& arch) {
    const long long S = v[1], blocks = S / tq;
    // KV tiles per workgroup, averaged over the query blocks (causal: block b sees (b+1) tq/kv tiles).
    const long long tiles_total = v[2] ? blocks * (blocks + 1) / 2 * (tq / kv) : blocks * (S / kv);
    const long long tiles = (tiles_total + blocks - 1) / blocks;
    // Per tile and wave: S^T kv/16 x D/32 MFMAs, O^T D/16 x kv/32.
    const bool k16 = arch == "gfx942";
    const long long mfma = tiles * waves * ((kv / 16) * (D / 32) + (D / 16) * (kv / 32)) * (k16 ? 2 : 1);
    const long long tile_bytes = 2LL * kv * D * 2;  // K and V
    TileWork w{v[0] * blocks, k16 ? "v_mfma_f32_16x16x16_bf16" : "v_mfma_f32_16x16x32_bf16", mfma, false, tiles,
               tiles * tile_bytes + 2LL * tq * D * 2 + tq * 4, v[0] * S * (4LL * D * 2 + 4),
               attention_tiles_read(S, tq, kv, D, v[2] != 0), tq * D * 2 + tq * 4};
    return w;
  };
  return s;
}

namespace {

// D = 256 (attention_fwd_d256.hip): 64 query rows, the head dimension split
// across wave pairs, 32-key tiles, partial S^T exchanged through LDS.
KernelSpec attention_d256_spec() {
  KernelSpec s;
  s.name = "attention_fwd_d256";
  s.source = "attention_fwd/attention_fwd_d256.hip";
  s.summary = "fused attention forward, bf16, D = 256 split across wave pairs (S^T halves meet in LDS), causal or not, "
              "online softmax (fp32), log-sum-exp per row, dual-wave ping-pong";
  s.archs = {"gfx950"};  // 80 KiB of LDS; gfx942 has 64 KiB, which the K and Vt stages alone fill
  s.block_tile = "64 query rows x 32-key KV tiles per workgroup (one head), D = 256 in two halves of 128";
  s.wave_layout =
      "8 waves; wave w owns query rows 16rb..+16 (rb = 2(w/4) + (w%4)/2) and D half h = w%2 of O^T; partners w, w^1 "
      "share rows.  MFMA phase (s_setprio 1): O^T_h += Vt[half h] P^T, partial S^T_h = K[:, half h] Q^T[half h], "
      "the partial to the wave's LDS slot; softmax phase (next phase, after the barrier): S^T = own + partner's "
      "partial from LDS, the same softmax in both waves.  Ping-pong: waves w and w+4 share a SIMD, group A (0-3) "
      "and B (4-7) alternate MFMA and softmax phases; A stages K, B stages V (loads issued before its softmax, "
      "LDS writes after it)";
  s.thread_values =
      "query per lane: lane l owns query l%16; S^T lane l holds keys 16nb + 4(l/16)..+4 (nb < 2); O^T lane l holds "
      "d = 128h + 16db + 4(l/16)..+4 (db < 8); exchange slot: lane l's f32x4 of block nb at 1024nb + 16l";
  s.copy_atom = "K: 128-bit global load -> ds_write_b128; V: 128-bit global load -> 8 x ds_write_b16 into Vt (transposed)";
  s.mfma_atom = "v_mfma_f32_16x16x32_bf16";
  s.threads_per_block = 512;
  s.pipeline_depth = 2;
  s.lds = {{"K tile", 32, 256, 2, 2, Swizzle(5, 3, 5)},
           {"Vt tile", 256, 32, 2, 2, Swizzle(2, 3, 4)},
           {"S^T partial slots (one row per wave and 16-key block)", 16, 256, 4, 1, std::nullopt}};
  // K chunk t of one group is row t/32, unit t%32; V chunk t is key t%32, elements 8(t/32)..+8.
  const TVLayout k_copy = make_layout_tv(L({8, 32}, {32, 1}), L({1, 8}, {1, 1}));
  // Lane l reads row 16nb + l%16, unit 16h + 4c + l/16: within the tile, 16 rows x 4 units of 8 elements.
  const TVLayout k_operand = make_layout_tv(L({16, 4}, {1, 16}), L({1, 8}, {1, 1}));
  const TVLayout v_copy = make_layout_tv(L({8, 32}, {32, 1}), L({8, 1}, {1, 1}));
  const TVLayout vt_operand = make_layout_tv(L({16, 4}, {1, 16}), L({1, 4}, {1, 1}));
  const TVLayout slot = make_layout_tv(L({1, 64}, {64, 1}), L({1, 4}, {1, 1}));
  s.accesses = {{"K: global -> LDS (group A)", 0, "ds_write_b128", k_copy, {}, ~0ull},
                {"K: MFMA A operand of the partial S^T", 0, "ds_read_b128", k_operand, {}, ~0ull},
                {"V: global -> Vt (group B)", 1, "ds_write_b16", v_copy, {}, ~0ull},
                {"Vt: MFMA A operand of O^T (this half's d)", 1, "ds_read_b64", vt_operand, {}, ~0ull},
                {"S^T partial -> own slot (MFMA phase)", 2, "ds_write_b128", slot, {}, ~0ull},
                {"S^T partial <- partner's slot (softmax phase)", 2, "ds_read_b128", slot, {}, ~0ull}};
  s.shape_dims = {"BH", "S", "causal"};
  s.switch_dims = {"causal"};
  s.shape_rules = {{"BH >= 1", [](const auto& v) { return v[0] >= 1; }},
                   {"S % 64 == 0", [](const auto& v) { return v[1] % 64 == 0; }}};
  s.example_shapes = {{16, 4096, 1}, {1, 64, 0}, {1, 128, 1}, {2, 192, 0}, {16, 4096, 0}};
  s.work = [](const std::vector<long long>& v, const std::string&) {
    const long long S = v[1], blocks = S / 64;
    // 32-key tiles per workgroup, averaged (causal: block b sees 2(b+1) tiles).
    const long long tiles_total = v[2] ? blocks * (blocks + 1) : blocks * (S / 32);
    const long long tiles = (tiles_total + blocks - 1) / blocks;
    // Per tile and wave: partial S^T 2 x 4 MFMAs, O^T half 8; 8 waves.
    const long long mfma = tiles * 8 * (8 + 8);
    const long long tile_bytes = 2LL * 32 * 256 * 2;  // K and V
    TileWork w{v[0] * blocks, "v_mfma_f32_16x16x32_bf16", mfma, false, tiles,
               tiles * tile_bytes + 2LL * 64 * 256 * 2 + 64 * 4, v[0] * S * (4LL * 256 * 2 + 4),
               attention_tiles_read(S, 64, 32, 256, v[2] != 0), 64LL * 256 * 2 + 64 * 4};
    return w;
  };
  return s;
}
}  // namespace

std::vector<KernelSpec> attention_fwd_suite_specs() {
  return {attention_fwd_spec(64), attention_fwd_spec(128), attention_d256_spec()};
}

}  // namespace tilelab::kernels
