// Matrix instructions (MFMA) and the AGPR moves.
//
// Operand layouts are the ISA's (arch-facts, "Operand layouts"): for an
// R x R x K instruction with R = 16 or 32, G = 64 / R lane groups and
// P = K / G values per lane, lane l holds A[l % R][P*(l/R) + p] and
// B[P*(l/R) + p][l % R] for p = 0..P-1 (packed low half first); D/C element
// (i, j) is in lane j + R*((i/4) % G), register (i % 4) + 4*(i / (4*G)).
//
// Arithmetic: products of bf16 / f16 values are exact in f32; each output is
// C plus the K products added one at a time in k order, rounding to nearest
// even after each add.  The hardware's internal summation order is not
// documented [?]; results can differ from it in the last bits of large-K sums.
#include <bit>

#include "sim/emu/float_bits.hpp"
#include "sim/emu/semantics.hpp"

namespace tilelab::emu {
namespace {

using u32 = std::uint32_t;

const Operand& O(const Op& op, int i) { return op.t.ops[static_cast<std::size_t>(i)]; }

enum class Elem { bf16, f16 };

template <Elem E>
float element(u32 word, int half) {
  auto h = static_cast<std::uint16_t>(word >> (16 * half));
  return E == Elem::bf16 ? bf16_to_f32(h) : f16_to_f32(h);
}

// acc[i][j] += sum_k a[i][k] * b[k][j], k in order; j innermost so the
// compiler vectorises across the output row.
template <int R, int K>
__attribute__((target_clones("avx512f", "avx2", "default"))) void multiply(const float (&a)[R][K],
                                                                           const float (&b)[K][R],
                                                                           float (&acc)[R][R]) {
  for (int i = 0; i < R; ++i)
    for (int k = 0; k < K; ++k) {
      float x = a[i][k];
      for (int j = 0; j < R; ++j) acc[i][j] += x * b[k][j];
    }
}

template <int R, int K, Elem E>
void mfma(Wave& w, const Op& op, Env&) {
  constexpr int G = 64 / R, P = K / G;
  const Modifiers& m = op.t.mods;
  if (m.cbsz || m.abid || m.blgp)
    throw EmuError("MFMA broadcast modifiers (cbsz/abid/blgp) are not implemented");
  float a[R][K], b[K][R], acc[R][R];
  const Operand &A = O(op, 1), &B = O(op, 2), &C = O(op, 3), &D = O(op, 0);
  for (int l = 0; l < kLanes; ++l)
    for (int p = 0; p < P; ++p) {
      int k = P * (l / R) + p;
      a[l % R][k] = element<E>(vector_reg(w, A, p / 2)[l], p % 2);
      b[k][l % R] = element<E>(vector_reg(w, B, p / 2)[l], p % 2);
    }
  auto lane_of = [](int i, int j) { return j + R * ((i / 4) % G); };
  auto reg_of = [](int i) { return (i % 4) + 4 * (i / (4 * G)); };
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < R; ++j)
      acc[i][j] = C.loc == Loc::Const ? as_f32(C.bits32()) : as_f32(vector_reg(w, C, reg_of(i))[lane_of(i, j)]);
  multiply<R, K>(a, b, acc);
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < R; ++j) vector_reg(w, D, reg_of(i))[lane_of(i, j)] = bits_of(acc[i][j]);
}

void accvgpr_move(Wave& w, const Op& op, Env&) {
  u32 tmp[kLanes];
  const u32* s = lanes_u32(w, O(op, 1), tmp);
  u32* d = vector_reg(w, O(op, 0));
  for (std::uint64_t ex = w.exec; ex; ex &= ex - 1) d[std::countr_zero(ex)] = s[std::countr_zero(ex)];
}

}  // namespace

void add_mfma_ops(HandlerTable& t) {
  t["v_mfma_f32_16x16x32_bf16"] = mfma<16, 32, Elem::bf16>;  // gfx950
  t["v_mfma_f32_16x16x16_bf16"] = mfma<16, 16, Elem::bf16>;  // gfx90a+ (the _1k form)
  t["v_mfma_f32_32x32x16_bf16"] = mfma<32, 16, Elem::bf16>;  // gfx950
  t["v_mfma_f32_32x32x8_bf16"] = mfma<32, 8, Elem::bf16>;
  t["v_mfma_f32_16x16x32_f16"] = mfma<16, 32, Elem::f16>;
  t["v_mfma_f32_16x16x16_f16"] = mfma<16, 16, Elem::f16>;
  t["v_mfma_f32_32x32x16_f16"] = mfma<32, 16, Elem::f16>;
  t["v_mfma_f32_32x32x8_f16"] = mfma<32, 8, Elem::f16>;
  t["v_accvgpr_write_b32"] = accvgpr_move;
  t["v_accvgpr_read_b32"] = accvgpr_move;
  t["v_accvgpr_mov_b32"] = accvgpr_move;
}

}  // namespace tilelab::emu
