// kernels/: the CPU references against naive double-precision computations,
// the specs' shape rules, and the design check (the gemm's swizzle is what
// makes it conflict-free).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "kernels/attention_bwd/reference.hpp"
#include "kernels/attention_fwd/reference.hpp"
#include "kernels/common/formats.hpp"
#include "kernels/design_check.hpp"
#include "kernels/gemm_bf16/reference.hpp"
#include "kernels/grouped_gemm_bf16/reference.hpp"
#include "kernels/gemm_mxfp8/reference.hpp"
#include "kernels/rmsnorm/reference.hpp"
#include "kernels/topk/reference.hpp"

using namespace tilelab;
using namespace tilelab::kernels;

namespace {
std::vector<std::uint16_t> random_bf16(std::size_t n, std::mt19937_64& rng, float scale = 1.f) {
  std::normal_distribution<float> d(0.f, scale);
  std::vector<std::uint16_t> v(n);
  for (auto& x : v) x = float_to_bf16(d(rng));
  return v;
}
}  // namespace

TEST(Formats, Bf16RoundsToNearestEven) {
  EXPECT_EQ(float_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x3f808000u)), 0x3f80);  // tie, even stays
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x3f818000u)), 0x3f82);  // tie, odd rounds up
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x3f808001u)), 0x3f81);  // above the tie
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x7f7fffffu)), 0x7f80);  // FLT_MAX rounds to +inf
  EXPECT_EQ(float_to_bf16(-0.0f), 0x8000);
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x7f800001u)), 0x7fc0);  // signalling NaN stays NaN, quiet
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    if ((b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0) continue;  // NaN payloads are quietened
    EXPECT_EQ(float_to_bf16(bf16_to_float(static_cast<std::uint16_t>(b))), b);
  }
}

TEST(RmsnormReference, LiteralValues) {
  // x = (3, 4): mean of squares 12.5, y = x / sqrt(12.5) = (0.8485.., 1.1313..)
  // -> bf16 0.84765625 and 1.1328125 (nearest on grids of 2^-8 and 2^-7).
  const std::vector<std::uint16_t> x = {float_to_bf16(3.f), float_to_bf16(4.f)}, g = {0x3f80, 0x3f80};
  std::vector<std::uint16_t> y(2);
  rmsnorm_reference(x.data(), g.data(), 1, 2, 0.f, y.data());
  EXPECT_EQ(bf16_to_float(y[0]), 0.84765625f);
  EXPECT_EQ(bf16_to_float(y[1]), 1.1328125f);
}

TEST(RmsnormReference, MatchesDoublePrecision) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    const int rows = 1 + trial % 5, hidden = 8 * (1 + static_cast<int>(rng() % 2048));
    const float eps = 1e-6f;
    const auto x = random_bf16(static_cast<std::size_t>(rows) * hidden, rng, trial % 2 ? 30.f : 0.5f);
    const auto g = random_bf16(hidden, rng);
    std::vector<std::uint16_t> y(x.size());
    rmsnorm_reference(x.data(), g.data(), rows, hidden, eps, y.data());
    for (int r = 0; r < rows; ++r) {
      double ss = 0;
      for (int i = 0; i < hidden; ++i) ss += std::pow(double(bf16_to_float(x[r * hidden + i])), 2);
      const double rstd = 1.0 / std::sqrt(ss / hidden + eps);
      for (int i = 0; i < hidden; ++i) {
        const double exact = bf16_to_float(x[r * hidden + i]) * rstd * bf16_to_float(g[i]);
        // one bf16 rounding (2^-9 relative) plus fp32 statistics
        ASSERT_NEAR(bf16_to_float(y[r * hidden + i]), exact, std::abs(exact) * 0x1p-8 + 1e-30)
            << "trial " << trial << " row " << r << " i " << i;
      }
    }
  }
}

TEST(TopkReference, LiteralOrderWithTiesNanAndInfinity) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {5, 1, 5, nan, -inf, 3, nan, -inf};
  std::vector<float> v(8);
  std::vector<int> i(8);
  topk_reference(x.data(), 1, 8, 8, v.data(), i.data());
  EXPECT_EQ(i, (std::vector<int>{3, 6, 0, 2, 5, 1, 4, 7}));  // NaNs first, ties by index, -inf last
  EXPECT_EQ(v[2], 5.f);
  EXPECT_EQ(v[7], -inf);
}

TEST(TopkReference, MatchesAFullSort) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 8 * (1 + static_cast<int>(rng() % 512)), k = 1 + static_cast<int>(rng() % std::min(32, n));
    std::vector<float> x(n);
    // Few distinct values (ties everywhere), some NaN and infinities.
    for (auto& e : x) {
      const unsigned r = rng() % 64;
      e = r == 0 ? std::numeric_limits<float>::quiet_NaN() : r == 1 ? -INFINITY : r == 2 ? INFINITY : float(r % 9) - 4;
    }
    std::vector<float> v(k);
    std::vector<int> idx(k);
    topk_reference(x.data(), 1, n, k, v.data(), idx.data());
    // Naive: stable sort of (key, index) pairs, NaN mapped above +inf.
    std::vector<std::pair<double, int>> all;
    for (int j = 0; j < n; ++j) all.push_back({std::isnan(x[j]) ? INFINITY * 2.0 : double(x[j]), j});
    for (auto& a : all)
      if (std::isinf(a.first) && a.first > 0 && std::isnan(x[a.second])) a.first = std::numeric_limits<double>::max();
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
      const double ka = a.first == std::numeric_limits<double>::max() ? INFINITY : a.first;
      const double kb = b.first == std::numeric_limits<double>::max() ? INFINITY : b.first;
      const bool na = a.first == std::numeric_limits<double>::max(), nb = b.first == std::numeric_limits<double>::max();
      if (na != nb) return na;
      return ka > kb;
    });
    for (int j = 0; j < k; ++j) ASSERT_EQ(idx[j], all[j].second) << "trial " << trial << " rank " << j;
  }
}

TEST(GemmReference, LiteralProduct) {
  // A = [[1,2],[3,4]], B = [[5,6],[7,8]]: A·Bᵀ = [[17,23],[39,53]], all exact in bf16.
  auto b = [](float f) { return float_to_bf16(f); };
  const std::vector<std::uint16_t> A = {b(1), b(2), b(3), b(4)}, B = {b(5), b(6), b(7), b(8)};
  std::vector<std::uint16_t> C(4);
  gemm_bf16_reference(A.data(), B.data(), 2, 2, 2, C.data());
  EXPECT_EQ(bf16_to_float(C[0]), 17.f);
  EXPECT_EQ(bf16_to_float(C[1]), 23.f);
  EXPECT_EQ(bf16_to_float(C[2]), 39.f);
  EXPECT_EQ(bf16_to_float(C[3]), 53.f);
}

// The blocked, threaded reference is the plain triple loop bit for bit: each
// output summed in k order, one f32 rounding per add (shapes around the
// 16-column blocks and the thread split, over 64 rows).
TEST(GemmReference, EqualsThePlainLoopBitForBit) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 10; ++trial) {
    const int M = 1 + static_cast<int>(rng() % 200), N = 1 + static_cast<int>(rng() % 70), K = 1 + static_cast<int>(rng() % 300);
    const auto A = random_bf16(static_cast<std::size_t>(M) * K, rng), B = random_bf16(static_cast<std::size_t>(N) * K, rng);
    std::vector<std::uint16_t> C(static_cast<std::size_t>(M) * N);
    gemm_bf16_reference(A.data(), B.data(), M, N, K, C.data());
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float acc = 0.f;
        for (int k = 0; k < K; ++k) acc += bf16_to_float(A[m * K + k]) * bf16_to_float(B[n * K + k]);
        ASSERT_EQ(C[m * N + n], float_to_bf16(acc)) << "M=" << M << " N=" << N << " K=" << K << " at " << m << "," << n;
      }
  }
}

// Where the order of the adds shows: 2^24 + 1 rounds back to 2^24 in f32, so
// summing 2^24, 1, -2^24 in k order gives 0 and any other order (reversed,
// or 1 - 2^24 first) gives 1.  In the second column block, beside a column
// of plain values; and the MX reference.
TEST(GemmReference, SumsInKOrder) {
  const std::uint16_t one = 0x3f80, big = 0x4b80, minus_big = 0xcb80;  // bf16 1, 2^24, -2^24
  const int N = 17, K = 3;
  std::vector<std::uint16_t> A = {one, one, one}, B(static_cast<std::size_t>(N) * K, one);
  B[16 * K + 0] = big, B[16 * K + 1] = one, B[16 * K + 2] = minus_big;
  std::vector<std::uint16_t> C(N);
  gemm_bf16_reference(A.data(), B.data(), 1, N, K, C.data());
  EXPECT_EQ(C[15], 0x4040);  // 3
  EXPECT_EQ(C[16], 0);
  // MX, K = 96: a = 1 (E5M2 0x3c, scale 2^0) at k = 0, 32, 64; b = 2^8 (0x5c)
  // at scale 2^16 in block 0, 1 at scale 2^0 in block 1, -2^8 (0xdc) at
  // scale 2^16 in block 2: 2^24, 1, -2^24 again.
  std::vector<std::uint8_t> ac(96, 0), as = {127, 127, 127}, bc(96, 0), bs = {143, 127, 143};
  ac[0] = ac[32] = ac[64] = 0x3c;
  bc[0] = 0x5c, bc[32] = 0x3c, bc[64] = 0xdc;
  std::uint16_t c = 0xffff;
  gemm_mx_reference(MxElement::E5M2, ac.data(), as.data(), MxElement::E5M2, bc.data(), bs.data(), 1, 1, 96, &c);
  EXPECT_EQ(c, 0);
}

TEST(GemmReference, MatchesDoublePrecision) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 12; ++trial) {
    const int M = 1 + rng() % 40, N = 1 + rng() % 40, K = 1 + rng() % 700;
    const auto A = random_bf16(static_cast<std::size_t>(M) * K, rng), B = random_bf16(static_cast<std::size_t>(N) * K, rng);
    std::vector<std::uint16_t> C(static_cast<std::size_t>(M) * N);
    gemm_bf16_reference(A.data(), B.data(), M, N, K, C.data());
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        double exact = 0, magnitude = 0;
        for (int k = 0; k < K; ++k) {
          const double p = double(bf16_to_float(A[m * K + k])) * bf16_to_float(B[n * K + k]);
          exact += p;
          magnitude += std::abs(p);
        }
        // bf16 output rounding + fp32 accumulation error bound (K·2^-24·Σ|a·b|)
        const double tol = std::abs(exact) * 0x1p-8 + K * 0x1p-24 * magnitude;
        ASSERT_NEAR(bf16_to_float(C[m * N + n]), exact, tol) << m << "," << n << " K=" << K;
      }
  }
}

TEST(GroupedGemmReference, EachGroupIsItsOwnGemm) {
  std::mt19937_64 rng(13);
  const std::vector<int> group_m = {128, 0, 256, 128};  // an empty group too, as MoE routing gives
  const auto offsets = grouped_gemm_row_offsets(group_m);
  EXPECT_EQ(offsets, (std::vector<int>{0, 128, 128, 384, 512}));
  const int N = 16, K = 64, G = 4;
  const auto A = random_bf16(512 * K, rng), B = random_bf16(static_cast<std::size_t>(G) * N * K, rng);
  std::vector<std::uint16_t> C(512 * N);
  grouped_gemm_bf16_reference(A.data(), B.data(), offsets, N, K, C.data());
  // Naive: row r of stacked C uses the B of the group holding r, in double.
  for (int r = 0; r < 512; ++r) {
    const int g = r < 128 ? 0 : r < 384 ? 2 : 3;
    for (int n = 0; n < N; ++n) {
      double exact = 0, magnitude = 0;
      for (int k = 0; k < K; ++k) {
        const double p = double(bf16_to_float(A[r * K + k])) * bf16_to_float(B[(g * N + n) * K + k]);
        exact += p;
        magnitude += std::abs(p);
      }
      ASSERT_NEAR(bf16_to_float(C[r * N + n]), exact, std::abs(exact) * 0x1p-8 + K * 0x1p-24 * magnitude) << r;
    }
  }
  try {
    grouped_gemm_row_offsets({128, 100});
    FAIL() << "M = 100 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "group 1 has M = 100: grouped_gemm_bf16 needs every M_g % 128 == 0");
  }
}

// The MX reference is also the plain loop over the dequantized operands bit
// for bit (the same blocked, threaded k-order GEMM as gemm_bf16's): shapes
// around the 16-column blocks and over 64 rows, each format against E5M2.
TEST(MxGemmReference, EqualsThePlainLoopBitForBit) {
  std::mt19937_64 rng(19);
  std::normal_distribution<float> d(0.f, 3.f);
  for (MxElement f : {MxElement::E4M3, MxElement::E5M2, MxElement::E2M1}) {
    const int M = 70 + static_cast<int>(rng() % 60), N = 1 + static_cast<int>(rng() % 40), K = 32 * (1 + static_cast<int>(rng() % 8));
    std::vector<float> a(static_cast<std::size_t>(M) * K), b(static_cast<std::size_t>(N) * K);
    for (auto& v : a) v = d(rng);
    for (auto& v : b) v = d(rng) * 0.01f;
    std::vector<std::uint8_t> ac(a.size()), as(a.size() / 32), bc(b.size()), bs(b.size() / 32);
    quantize_mx(f, a.data(), M, K, ac.data(), as.data());
    quantize_mx(MxElement::E5M2, b.data(), N, K, bc.data(), bs.data());
    std::vector<std::uint16_t> C(static_cast<std::size_t>(M) * N);
    gemm_mx_reference(f, ac.data(), as.data(), MxElement::E5M2, bc.data(), bs.data(), M, N, K, C.data());
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float acc = 0.f;
        for (int k = 0; k < K; ++k) {
          const float x = decode(f, ac[m * K + k]) * decode_e8m0(as[m * (K / 32) + k / 32]);
          const float y = decode(MxElement::E5M2, bc[n * K + k]) * decode_e8m0(bs[n * (K / 32) + k / 32]);
          const float p = x * y;
          acc += p;
        }
        ASSERT_EQ(C[m * N + n], float_to_bf16(acc)) << "format " << int(f) << " M=" << M << " N=" << N << " K=" << K;
      }
  }
}

TEST(MxGemmReference, MatchesDoublePrecisionOnQuantizedOperands) {
  std::mt19937_64 rng(17);
  std::normal_distribution<float> d(0.f, 2.f);
  for (MxElement f : {MxElement::E4M3, MxElement::E5M2, MxElement::E2M1}) {
    const int M = 5, N = 7, K = 256;
    std::vector<float> a(M * K), b(N * K);
    for (auto& v : a) v = d(rng);
    for (auto& v : b) v = d(rng) * 100.f;  // a different scale range per operand
    std::vector<std::uint8_t> ac(a.size()), as(M * K / 32), bc(b.size()), bs(N * K / 32);
    quantize_mx(f, a.data(), M, K, ac.data(), as.data());
    quantize_mx(MxElement::E4M3, b.data(), N, K, bc.data(), bs.data());
    std::vector<std::uint16_t> C(M * N);
    gemm_mx_reference(f, ac.data(), as.data(), MxElement::E4M3, bc.data(), bs.data(), M, N, K, C.data());
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        double exact = 0, magnitude = 0;
        for (int k = 0; k < K; ++k) {
          const double p = double(decode(f, ac[m * K + k])) * decode_e8m0(as[m * (K / 32) + k / 32]) *
                           decode(MxElement::E4M3, bc[n * K + k]) * decode_e8m0(bs[n * (K / 32) + k / 32]);
          exact += p;
          magnitude += std::abs(p);
        }
        ASSERT_NEAR(bf16_to_float(C[m * N + n]), exact, std::abs(exact) * 0x1p-8 + K * 0x1p-24 * magnitude);
      }
  }
  // A literal: 128 ones scaled by 2^1 against 128 ones scaled by 2^-3: 128 * 2 * 1/8 = 32.
  std::vector<std::uint8_t> one(128, 0x38), s_a = {128, 128, 128, 128}, s_b = {124, 124, 124, 124};
  std::uint16_t c = 0;
  gemm_mx_reference(MxElement::E4M3, one.data(), s_a.data(), MxElement::E4M3, one.data(), s_b.data(), 1, 1, 128, &c);
  EXPECT_EQ(bf16_to_float(c), 32.f);  // 128 products of 2 * 1/8
  EXPECT_EQ(mx_gemm_shape_error(256, 128, 96), "K = 96 breaks K % 128 == 0 (one MFMA K step, four 32-value scale blocks)");
  EXPECT_EQ(mx_gemm_shape_error(100, 128, 128), "M = 100 breaks M % 128 == 0");
  EXPECT_EQ(mx_gemm_shape_error(128, 128, 128), "");
}

// The attention reference on inputs whose answers are known by hand.
TEST(AttentionReference, LiteralCases) {
  const int S = 4, D = 2;
  auto bf = [](std::initializer_list<float> v) {
    std::vector<std::uint16_t> out;
    for (float x : v) out.push_back(kernels::float_to_bf16(x));
    return out;
  };
  // Q = 0: every score is 0, the weights uniform: O is the mean of the keys
  // in reach, lse = ln(keys in reach).
  const std::vector<std::uint16_t> Q = bf({0, 0, 0, 0, 0, 0, 0, 0}), K = bf({1, 2, 3, 4, 5, 6, 7, 8}),
                                   V = bf({1, 10, 2, 20, 3, 30, 4, 40});
  std::vector<float> O(S * D), lse(S);
  kernels::attention_fwd_reference(Q.data(), K.data(), V.data(), 1, S, D, false, O.data(), lse.data());
  for (int i = 0; i < S; ++i) {
    EXPECT_FLOAT_EQ(O[2 * i], 2.5f);
    EXPECT_FLOAT_EQ(O[2 * i + 1], 25.0f);
    EXPECT_FLOAT_EQ(lse[i], std::log(4.0f));
  }
  kernels::attention_fwd_reference(Q.data(), K.data(), V.data(), 1, S, D, true, O.data(), lse.data());
  for (int i = 0; i < S; ++i) {  // causal: query i sees keys 0..i
    EXPECT_FLOAT_EQ(O[2 * i], (1.0f + static_cast<float>(i + 1)) / 2);
    EXPECT_FLOAT_EQ(lse[i], std::log(static_cast<float>(i + 1)));
  }
  // One dominant key: q = (8, 0), k_2 = (8, 0) and the others 0: score 64/sqrt(2)
  // for key 2, 0 elsewhere, so O ~= v_2 and lse ~= 64/sqrt(2) + ln(1 + 3 e^-45.25).
  const std::vector<std::uint16_t> Q2 = bf({8, 0, 8, 0, 8, 0, 8, 0}), K2 = bf({0, 0, 0, 0, 8, 0, 0, 0});
  kernels::attention_fwd_reference(Q2.data(), K2.data(), V.data(), 1, S, D, false, O.data(), lse.data());
  const double top = 64.0 / std::sqrt(2.0);
  EXPECT_NEAR(O[0], 3.0, 1e-12 * 3);
  EXPECT_NEAR(O[1], 30.0, 1e-12 * 30);
  EXPECT_NEAR(lse[0], top + std::log1p(3 * std::exp(-top)), 1e-5);
}

// The plain loop the forward reference must equal bit for bit: for each
// head and query, each score the sum over d in order, then the softmax and
// P·V in double, as kernels/attention_fwd/reference.hpp defines it.
void plain_attention(const std::vector<std::uint16_t>& Q, const std::vector<std::uint16_t>& K,
                     const std::vector<std::uint16_t>& V, int BH, int S, int D, bool causal, std::vector<float>& O,
                     std::vector<float>& lse) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  std::vector<double> s(S), o(D);
  for (int h = 0; h < BH; ++h) {
    const long head = static_cast<long>(h) * S * D;
    for (int i = 0; i < S; ++i) {
      const int keys = causal ? i + 1 : S;
      double mx = -INFINITY;
      for (int n = 0; n < keys; ++n) {
        double dot = 0;
        for (int d = 0; d < D; ++d)
          dot += double(kernels::bf16_to_float(Q[head + i * D + d])) * kernels::bf16_to_float(K[head + n * D + d]);
        s[n] = dot * scale;
        mx = std::max(mx, s[n]);
      }
      double sum = 0;
      std::fill(o.begin(), o.end(), 0.0);
      for (int n = 0; n < keys; ++n) {
        const double p = std::exp(s[n] - mx);
        sum += p;
        for (int d = 0; d < D; ++d) o[d] += p * kernels::bf16_to_float(V[head + n * D + d]);
      }
      for (int d = 0; d < D; ++d) O[head + i * D + d] = static_cast<float>(o[d] / sum);
      lse[h * S + i] = static_cast<float>(mx + std::log(sum));
    }
  }
}

TEST(AttentionReference, EqualsThePlainLoopBitForBit) {
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 24; ++trial) {
    const int BH = 1 + static_cast<int>(rng() % 5), S = 1 + static_cast<int>(rng() % 70),
              D = 1 + static_cast<int>(rng() % 140);
    const bool causal = rng() % 2;
    const std::size_t n = static_cast<std::size_t>(BH) * S * D;
    const auto Q = random_bf16(n, rng), K = random_bf16(n, rng), V = random_bf16(n, rng);
    std::vector<float> O(n), lse(static_cast<std::size_t>(BH) * S), O_plain(n), lse_plain(lse.size());
    kernels::attention_fwd_reference(Q.data(), K.data(), V.data(), BH, S, D, causal, O.data(), lse.data());
    plain_attention(Q, K, V, BH, S, D, causal, O_plain, lse_plain);
    ASSERT_EQ(std::memcmp(O.data(), O_plain.data(), n * sizeof(float)), 0) << "BH=" << BH << " S=" << S << " D=" << D;
    ASSERT_EQ(std::memcmp(lse.data(), lse_plain.data(), lse.size() * sizeof(float)), 0)
        << "BH=" << BH << " S=" << S << " D=" << D;
  }
}

// Each score is summed in d order, which random inputs hardly show (the
// outputs are rounded to f32): q·k_0 = 2^53 + 1 - 2^53 is 0 in that order
// and 1 in any other that does not add 2^53 and -2^53 first, so every score
// is 0 and lse = ln 8 exactly as the plain loop gives it.  Eight keys: the
// reference's vectorized path over keys.
TEST(AttentionReference, SumsEachScoreInDOrder) {
  const int S = 8, D = 3;
  std::vector<std::uint16_t> Q(S * D, 0), K(S * D, 0), V(S * D, 0);
  const float q[D] = {0x1p27f, 1.f, -0x1p27f}, k[D] = {0x1p26f, 1.f, 0x1p26f};
  for (int d = 0; d < D; ++d) Q[d] = kernels::float_to_bf16(q[d]), K[d] = kernels::float_to_bf16(k[d]);
  for (int n = 0; n < S; ++n) V[n * D] = kernels::float_to_bf16(static_cast<float>(n));
  std::vector<float> O(S * D), lse(S);
  kernels::attention_fwd_reference(Q.data(), K.data(), V.data(), 1, S, D, false, O.data(), lse.data());
  EXPECT_EQ(lse[0], static_cast<float>(std::log(8.0)));
  EXPECT_EQ(O[0], 3.5f);  // the mean of 0..7
}

// The backward reference is the gradient of the loss L = sum(dO o O): against
// central differences of a double-precision forward, for every element of
// Q, K and V, causal and not.  S = 5 (no tile size divides it), D = 4; the
// inputs are bf16 values so the reference reads them exactly; O and lse come
// from the forward reference (f32), so the comparison is at 1e-5 of each
// gradient's scale.
TEST(AttentionReference, BackwardIsTheGradientOfTheForward) {
  const int S = 5, D = 4;
  const std::size_t n = S * D;
  std::mt19937_64 rng(11);
  const std::vector<std::uint16_t> Q = random_bf16(n, rng), K = random_bf16(n, rng), V = random_bf16(n, rng),
                                   dO = random_bf16(n, rng);
  auto values = [](const std::vector<std::uint16_t>& codes) {
    std::vector<double> v;
    for (auto c : codes) v.push_back(kernels::bf16_to_float(c));
    return v;
  };
  for (bool causal : {false, true}) {
    // L(q, k, v) in double.
    auto loss = [&](const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v) {
      const std::vector<double> go = values(dO);
      double L = 0;
      for (int i = 0; i < S; ++i) {
        const int keys = causal ? i + 1 : S;
        std::vector<double> p(static_cast<std::size_t>(keys));
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j < keys; ++j) {
          double dot = 0;
          for (int d = 0; d < D; ++d) dot += q[static_cast<std::size_t>(i * D + d)] * k[static_cast<std::size_t>(j * D + d)];
          p[static_cast<std::size_t>(j)] = dot / std::sqrt(static_cast<double>(D));
          mx = std::max(mx, p[static_cast<std::size_t>(j)]);
        }
        for (auto& x : p) sum += (x = std::exp(x - mx));
        for (int d = 0; d < D; ++d) {
          double o = 0;
          for (int j = 0; j < keys; ++j) o += p[static_cast<std::size_t>(j)] / sum * v[static_cast<std::size_t>(j * D + d)];
          L += go[static_cast<std::size_t>(i * D + d)] * o;
        }
      }
      return L;
    };
    std::vector<float> O(n), lse(S);
    kernels::attention_fwd_reference(Q.data(), K.data(), V.data(), 1, S, D, causal, O.data(), lse.data());
    std::vector<double> dQ(n), dK(n), dV(n);
    kernels::attention_bwd_reference(Q.data(), K.data(), V.data(), O.data(), dO.data(), lse.data(), 1, S, D, causal,
                                     dQ.data(), dK.data(), dV.data());
    const std::vector<double> q0 = values(Q), k0 = values(K), v0 = values(V);
    const double h = 1e-5;
    for (int which = 0; which < 3; ++which) {
      const std::vector<double>& grad = which == 0 ? dQ : which == 1 ? dK : dV;
      double scale = 0;
      for (double g : grad) scale = std::max(scale, std::fabs(g));
      ASSERT_GT(scale, 0.01);
      for (std::size_t e = 0; e < n; ++e) {
        std::vector<double> a[3] = {q0, k0, v0}, b[3] = {q0, k0, v0};
        a[which][e] += h;
        b[which][e] -= h;
        const double numeric = (loss(a[0], a[1], a[2]) - loss(b[0], b[1], b[2])) / (2 * h);
        EXPECT_NEAR(grad[e], numeric, 1e-5 * scale) << "causal " << causal << " tensor " << which << " element " << e;
      }
    }
  }
}

// The suggestion for a misspelt name: the nearest within max(1, length / 4)
// edits, the first of equals; nothing when every name is further.
TEST(Specs, DidYouMean) {
  const std::vector<std::string> names = {"gemm_bf16", "gemm_mxfp4", "rmsnorm_bf16", "topk_f32", "topk_bf16"};
  EXPECT_EQ(kernels::did_you_mean("gemm_f16", names), " (did you mean 'gemm_bf16'?)");     // one insertion
  EXPECT_EQ(kernels::did_you_mean("rmsnrom_bf16", names), " (did you mean 'rmsnorm_bf16'?)");  // two substitutions
  EXPECT_EQ(kernels::did_you_mean("topk_f16", names), " (did you mean 'topk_bf16'?)");  // 1 edit, where topk_f32 is 2
  EXPECT_EQ(kernels::did_you_mean("gemm_", {"gemm_a", "gemm_b"}), " (did you mean 'gemm_a'?)");  // equals: the first
  EXPECT_EQ(kernels::did_you_mean("nope", {"topk"}), "");  // 2 edits: too many for 4 letters
  EXPECT_EQ(kernels::did_you_mean("GEMM_BF16", names), "");                        // 8 case edits
  EXPECT_EQ(kernels::did_you_mean("softmax", names), "");
  EXPECT_EQ(kernels::did_you_mean("", names), "");
  EXPECT_EQ(kernels::did_you_mean("gemm_bf16", {}), "");
}

TEST(Specs, ShapeRules) {
  const KernelSpec& g = find_spec("gemm_bf16");
  EXPECT_EQ(g.shape_violations({512, 512, 512}), "");
  EXPECT_EQ(g.shape_violations({100, 128, 96}), "gemm_bf16 needs M % 128 == 0; K % 64 == 0");
  EXPECT_EQ(g.shape_violations({128, 128}), "gemm_bf16 takes 3 dimensions (M,N,K), got 2");
  EXPECT_EQ(find_spec("topk_f32").shape_violations({4, 102, 40}), "topk_f32 needs N % 4 == 0 (128-bit vectors); 1 <= k <= 32");
  EXPECT_EQ(find_spec("rmsnorm_bf16").shape_violations({2, 32768}),
            "rmsnorm_bf16 needs hidden <= 16384 (the row stays in registers)");
  // causal is a 0/1 switch: 0 is allowed there, not elsewhere.
  const KernelSpec& a = find_spec("attention_fwd_d64");
  EXPECT_EQ(a.shape_violations({1, 128, 0}), "");
  EXPECT_EQ(a.shape_violations({1, 128, 2}), "causal must be 0 or 1");
  EXPECT_EQ(a.shape_violations({0, 128, 1}), "every dimension must be positive");
  EXPECT_EQ(a.shape_violations({1, 200, 1}), "attention_fwd_d64 needs S % 128 == 0");
  for (const auto& s : all_specs())
    for (const auto& shape : s.example_shapes) EXPECT_EQ(s.shape_violations(shape), "") << s.name;
  EXPECT_THROW(find_spec("gemm_f16"), std::invalid_argument);
}

TEST(DesignCheck, GemmSwizzleRemovesEveryConflict) {
  for (const std::string name : {"gfx950", "gfx942"})
  for (const std::string kernel : {"gemm_bf16", "grouped_gemm_bf16", "gemm_mxfp8", "gemm_mxfp4"}) {
    if (kernel.starts_with("gemm_mx") && name == "gfx942") continue;
    const arch::Arch a = arch::load_arch(name);
    KernelSpec spec = find_spec(kernel);
    const DesignReport clean = design_check(spec, a);
    EXPECT_EQ(clean.conflict_cycles, 0) << name;
    EXPECT_TRUE(clean.problems.empty()) << name;
    ASSERT_EQ(clean.accesses.size(), 4u);
    for (const auto& acc : clean.accesses)  // the tile's bytes / 1 KiB per wave instruction
      EXPECT_EQ(acc.instructions, kernel == "gemm_mxfp4" ? 8 : 16) << acc.what;
    EXPECT_EQ(clean.lds_bytes, kernel == "gemm_mxfp4" ? 32768 : 65536);
    for (auto& b : spec.lds) b.swizzle.reset();
    const DesignReport plain = design_check(spec, a);
    // Unswizzled, the row-wise writes still do not conflict, the operand
    // reads do.  By hand, from the measured phase tables (arch-facts.md):
    //  gfx950, 128-byte rows, ds_read_b128 in 4 passes of 16 lanes, e.g.
    //  lanes 0-3,12-15 (rows 0-3, 12-15, chunk 0) + 20-27: rows r and r+2
    //  share banks (256-byte bank period), so rows 0,2,12,14 put 4 addresses
    //  in banks 0-3: 4-way, 3 conflict cycles per pass, x 4 passes x 16
    //  instructions = 192 per tile, A and B: 384.
    //  gfx942, 128-byte period: 8 passes of 8 lanes, e.g. lanes 0-3 (rows 0-3)
    //  all in banks 0-3: 4-way, 3 x 8 x 16 = 384 per tile: 768.
    //  gemm_mxfp4 on gfx950, 64-byte rows: rows r and r+4 share banks, 2-way:
    //  1 x 4 passes x 8 instructions = 32 per tile: 64.
    EXPECT_EQ(plain.accesses[0].conflict_cycles, 0);
    EXPECT_GT(plain.accesses[2].conflict_cycles, 0);
    EXPECT_EQ(plain.conflict_cycles, kernel == "gemm_mxfp4" ? 64 : name == "gfx950" ? 384 : 768) << name;
    EXPECT_FALSE(plain.problems.empty());
  }
}

// The 32x32x64 atom's operand read: lanes 0-31 take one 16-byte chunk of 32
// consecutive rows (lanes 32-63 the next chunk).  Under the 16x16 atom's
// Sw<3,4,3> on 128-byte rows the chunk's 16-byte bank group is
// 8(r%2) + (c ^ (r%8)), so rows r and r+8, r+24 meet: gfx950's first
// ds_read_b128 pass (lanes 0-3, 12-15, 20-27) holds the pairs {0,24} .. {3,27}
// and {12,20} .. {15,23}, 2-way: 1 conflict cycle per pass, 4 passes x 16
// instructions = 64 per tile, 128 for A and B.  FP4 (64-byte rows, Sw<2,4,3>):
// 32 per tile, 64.  The kernels' Sw<3,4,4> and Sw<2,4,4> remove them all.
TEST(DesignCheck, MxGemm32x32SwizzleRemovesTheOperandConflicts) {
  const arch::Arch a = arch::load_arch("gfx950");
  for (const std::string kernel : {"gemm_mxfp8_32x32", "gemm_mxfp4_32x32"}) {
    KernelSpec spec = find_spec(kernel);
    const bool fp4 = kernel == "gemm_mxfp4_32x32";
    EXPECT_EQ(to_string(*spec.lds[0].swizzle), fp4 ? "Sw<2,4,4>" : "Sw<3,4,4>");
    const DesignReport clean = design_check(spec, a);
    EXPECT_EQ(clean.conflict_cycles, 0) << kernel;
    EXPECT_TRUE(clean.problems.empty()) << kernel;
    for (auto& b : spec.lds) b.swizzle = find_spec(fp4 ? "gemm_mxfp4" : "gemm_mxfp8").lds[0].swizzle;
    const DesignReport sixteen = design_check(spec, a);
    EXPECT_EQ(sixteen.accesses[0].conflict_cycles + sixteen.accesses[1].conflict_cycles, 0) << kernel;
    EXPECT_EQ(sixteen.accesses[2].conflict_cycles, fp4 ? 32 : 64) << kernel;
    EXPECT_EQ(sixteen.conflict_cycles, fp4 ? 64 : 128) << kernel;
  }
  // One K step of 128: 4 waves x 2 x 2 atoms x 2 MFMAs of K 64 = 32 MFMAs of
  // 64 cycles (FP8) or 32 (FP4) on 4 SIMDs: the 16x16x128 tile's 512 and 256.
  const std::vector<long long> one_step{128, 128, 128};
  EXPECT_EQ(design_check(find_spec("gemm_mxfp8_32x32"), a, std::nullopt, one_step).bound->mfma_cycles, 32 * 64 / 4);
  EXPECT_EQ(design_check(find_spec("gemm_mxfp4_32x32"), a, std::nullopt, one_step).bound->mfma_cycles, 32 * 32 / 4);
}

// A design whose cost rests on assumed LDS phases says so, once per
// instruction: the transposing copies of attention backward use ds_write_b16,
// whose phases are assumed on both arches; gfx950's ds_write_b128 is assumed,
// gfx942's is documented, and the reads are measured.
TEST(DesignCheck, AssumedLdsPhasesAreNoted) {
  auto notes_naming = [](const DesignReport& r, const std::string& what) {
    return std::count_if(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(what) != std::string::npos; });
  };
  const DesignReport x = design_check(find_spec("attention_bwd_d64"), arch::load_arch("gfx950"));
  EXPECT_EQ(notes_naming(x, "the phases of ds_write_b16 on gfx950 are not known"), 1);
  EXPECT_EQ(notes_naming(x, "the phases of ds_write_b128 on gfx950 are not known"), 1);
  EXPECT_EQ(notes_naming(x, "ds_read"), 0);
  const DesignReport y = design_check(find_spec("attention_bwd_d64"), arch::load_arch("gfx942"));
  EXPECT_EQ(notes_naming(y, "the phases of ds_write_b16 on gfx942 are not known"), 1);
  EXPECT_EQ(notes_naming(y, "ds_write_b128"), 0);
}

// By hand, gemm_bf16 at 512x512x512 on gfx950: 16 workgroups, 8 K steps;
// per step 4 waves x 32 MFMAs of 16 cycles on 4 SIMDs = 512 cycles; LDS per
// step 2 x 128 (writes) + 2 x 64 (reads) = 384 cycles; global per workgroup
// 2 x 128 x 512 x 2 bytes in + 128 x 128 x 2 out = 294912 bytes.
TEST(DesignCheck, PerTileBoundByHand) {
  const arch::Arch a = arch::load_arch("gfx950");
  const DesignReport r = design_check(find_spec("gemm_bf16"), a, std::nullopt, std::vector<long long>{512, 512, 512});
  ASSERT_TRUE(r.bound);
  EXPECT_EQ(r.bound->work.workgroups, 16);
  EXPECT_EQ(r.bound->mfma_cycles, 8 * 512);
  EXPECT_EQ(r.bound->lds_cycles, 8 * 384);
  EXPECT_EQ(r.bound->work.global_bytes, 294912);
  // 8 TB/s at 1.59 GHz (the clock under load) over the 16 CUs running work is 314 bytes per clock
  // each, more than a CU's L1 moves: 64 bytes per clock (timing figure l1_bytes_per_clock).
  EXPECT_NEAR(r.bound->hbm_bytes_per_clock_per_cu, 64, 1e-9);
  // Perfect reuse: (A + B + C) = (512*512*2)*2 + 512*512*2 bytes over 16 workgroups.
  EXPECT_NEAR(r.bound->global_cycles_reused, (3.0 * 512 * 512 * 2 / 16) / 64, 1e-6);
  EXPECT_EQ(r.bound->limiter, "MFMA");  // 4096 > 1536
  // 4096^3: 1024 workgroups on all 256 CUs, 8e12 / (256 x 1.59e9) = 19.65 bytes per clock each.
  const DesignReport big = design_check(find_spec("gemm_bf16"), a);
  EXPECT_NEAR(big.bound->hbm_bytes_per_clock_per_cu, 8e12 / (256 * 1.59e9), 1e-9);
  EXPECT_EQ(big.bound->limiter, "MFMA");
  try {
    design_check(find_spec("gemm_bf16"), a, std::nullopt, std::vector<long long>{500, 512, 512});
    FAIL() << "bad shape accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "gemm_bf16 needs M % 128 == 0");
  }
  // One K step of 128: 64 scaled MFMAs on 4 SIMDs, 32 cycles each with FP8 operands, 16 with FP4.
  const std::vector<long long> one_step{128, 128, 128};
  EXPECT_EQ(design_check(find_spec("gemm_mxfp8"), a, std::nullopt, one_step).bound->mfma_cycles, 64 * 32 / 4);
  EXPECT_EQ(design_check(find_spec("gemm_mxfp4"), a, std::nullopt, one_step).bound->mfma_cycles, 64 * 16 / 4);
  EXPECT_THROW(design_check(find_spec("stream_copy"), a, std::nullopt, std::vector<long long>{1}),
               std::invalid_argument);
}

// The whole-chip bound of gemm_bf16 at 4096^3 on gfx950, worked by hand:
// 1024 workgroups, 128 per XCD on its 32 CUs; XCD 0 runs workgroups 0, 8, ...,
// 1016: tile rows 0..31, tile columns 0, 8, 16, 24.
TEST(DesignCheck, WholeChipBoundByHand) {
  const arch::Arch a = arch::load_arch("gfx950");
  const DesignReport r = design_check(find_spec("gemm_bf16"), a);
  ASSERT_TRUE(r.chip);
  const ChipBound& c = *r.chip;
  EXPECT_EQ(c.workgroups, 1024);
  EXPECT_EQ(c.xcds, 8);
  EXPECT_EQ(c.cus_per_xcd, 32);
  ASSERT_EQ(c.levels.size(), 6u);
  auto level = [&](const std::string& name) {
    for (const LevelBound& l : c.levels)
      if (l.level == name) return l;
    ADD_FAILURE() << name;
    return LevelBound{};
  };
  // MFMA: 128 workgroups x 32768 cycles x 4 SIMDs over 32 CUs x 4 SIMDs.
  EXPECT_DOUBLE_EQ(level("MFMA").cycles, 128.0 * 32768 * 4 / (32 * 4));
  // LDS: 24576 passes each; 2 ports per CU, a pass in 256 B / 128 B per clock = 2 clocks: 1 pass per clock per CU.
  EXPECT_DOUBLE_EQ(level("LDS").cycles, 128.0 * 24576 / 32);
  // L2: each workgroup reads an A and a B panel of 128 x 4096 bf16 (1 MiB each) at 16 x 128 B/clk,
  // and writes 128 x 128 bf16 at 16 x 64 B/clk.
  EXPECT_DOUBLE_EQ(level("L2").bytes, 128.0 * (2 * 1048576 + 32768));
  EXPECT_DOUBLE_EQ(level("L2").cycles, 128.0 * 2 * 1048576 / 2048);
  // Fabric: 32 A panels and 4 B panels once, and the 128 C tiles, at 1024 B/clk.
  EXPECT_DOUBLE_EQ(level("fabric").bytes, 36.0 * 1048576 + 128 * 32768);
  EXPECT_DOUBLE_EQ(level("fabric").cycles, (36.0 * 1048576 + 128 * 32768) / 1024);
  // MALL: 8 XCDs x 36 MiB at 128 channels x 64 B/clk.
  EXPECT_DOUBLE_EQ(level("MALL").bytes, 8 * 36.0 * 1048576);
  EXPECT_DOUBLE_EQ(level("MALL").cycles, 8 * 36.0 * 1048576 / 8192);
  // HBM: A, B and C once at 8 TB/s and 1.59 GHz.
  EXPECT_DOUBLE_EQ(level("HBM").bytes, 3.0 * 4096 * 4096 * 2);
  EXPECT_NEAR(level("HBM").cycles, 3.0 * 4096 * 4096 * 2 / (8e12 / 1.59e9), 1e-6);
  EXPECT_EQ(c.limiter, "MFMA");  // the first of MFMA and L2, both 131072
  EXPECT_DOUBLE_EQ(c.cycles, 131072 + a.memory.launch_cycles);
  // Causal attention: a query block reads only the key tiles up to its end, so
  // the MALL sees fewer bytes than without the mask; one head's K and V per XCD.
  const std::vector<long long> causal{8, 512, 1}, full{8, 512, 0};
  const DesignReport ca = design_check(find_spec("attention_fwd_d128"), a, std::nullopt, causal);
  const DesignReport fa = design_check(find_spec("attention_fwd_d128"), a, std::nullopt, full);
  ASSERT_TRUE(ca.chip && fa.chip);
  // 8 heads x 4 query blocks = 32 workgroups; XCD x runs query block x % 4 of heads x/4 .. (every 2nd head).
  // Without the mask every XCD reads 4 heads' K and V (4 x 2 x 512 x 128 x 2 B) and 4 query blocks.
  EXPECT_DOUBLE_EQ(fa.chip->levels[4].bytes, 8 * (4 * 2.0 * 512 * 128 * 2 + 4 * 128.0 * 128 * 2));
  EXPECT_LT(ca.chip->levels[4].bytes, fa.chip->levels[4].bytes);
  // No tile description: no whole-chip bound.
  EXPECT_FALSE(design_check(find_spec("attention_bwd_d64"), a).chip);
  TileWork none = r.bound->work;
  none.tiles_read = nullptr;
  EXPECT_THROW(chip_bound(none, a, 4, 1, 1), std::invalid_argument);
}

TEST(DesignCheck, CodeObjectDisagreementIsAProblem) {
  const arch::Arch a = arch::load_arch("gfx950");
  const KernelSpec& spec = find_spec("gemm_bf16");
  const DesignReport r = design_check(spec, a, CompiledFacts{128, 0, 20, 32768, 0, 256});
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0], "the code object uses 32768 bytes of LDS, the spec designs 65536");
  EXPECT_THROW(design_check(find_spec("lds_read_b64_tr_b16"), arch::load_arch("gfx942")), std::invalid_argument);
}

// A template's spec with no parameters designs what the suite's build is:
// every field the check reads, and the check's whole report, are the same.
TEST(VariantSpec, NoParametersIsTheSuitesBuild) {
  for (const std::string name : {"gfx950", "gfx942"})
    for (const std::string kernel : {"gemm_bf16", "attention_fwd_d64", "attention_fwd_d128", "gemm_mxfp4",
                                     "gemm_mxfp4_32x32", "gemm_mxfp8", "gemm_mxfp8_32x32"}) {
      if (kernel.starts_with("gemm_mx") && name == "gfx942") continue;
      const arch::Arch a = arch::load_arch(name);
      const KernelSpec& built = find_spec(kernel);
      const KernelSpec variant = variant_spec(kernel, {});
      EXPECT_EQ(variant.block_tile, built.block_tile) << kernel;
      EXPECT_EQ(variant.wave_layout, built.wave_layout) << kernel;
      EXPECT_EQ(variant.example_shapes, built.example_shapes) << kernel;
      for (const auto& shape : built.example_shapes) {
        const DesignReport x = design_check(built, a, std::nullopt, shape), y = design_check(variant, a, std::nullopt, shape);
        EXPECT_EQ(x.lds_bytes, y.lds_bytes);
        EXPECT_EQ(x.conflict_cycles, y.conflict_cycles);
        EXPECT_EQ(x.bound->mfma_cycles, y.bound->mfma_cycles) << kernel;
        EXPECT_EQ(x.bound->lds_cycles, y.bound->lds_cycles) << kernel;
        EXPECT_EQ(x.bound->work.global_bytes, y.bound->work.global_bytes) << kernel;
        EXPECT_EQ(x.chip->cycles, y.chip->cycles) << kernel;
      }
    }
}

// Variants by hand.  gemm_bf16 256x256 over 8 waves (2 x 4): 512 threads;
// 2 stages of two 256 x 64 bf16 tiles = 131072 bytes; each wave owns
// 128 x 64 of C = 8 x 4 MFMA tiles, 2 MFMAs (K = 32) each per 64-deep K
// step.  attention d128 with TILE_Q 64, TILE_KV 32: 4 waves, 2 stages of K
// (32 x 128) and Vt (128 x 32) bf16 = 32768 bytes; Vt rows of 8 units of 8
// bytes, permuted by d % 8 (Sw<3,2,3>).
TEST(VariantSpec, TilesWavesAndLdsFollowTheParameters) {
  const arch::Arch a = arch::load_arch("gfx950");
  const KernelSpec g = variant_spec("gemm_bf16", {{"TILE_M", 256}, {"TILE_N", 256}, {"WAVES_M", 2}, {"WAVES_N", 4}});
  EXPECT_EQ(g.threads_per_block, 512);
  EXPECT_EQ(g.lds_bytes(), 131072);
  EXPECT_EQ(g.shape_violations({512, 384, 64}), "gemm_bf16 needs N % 256 == 0");
  const DesignReport r = design_check(g, a, std::nullopt, std::vector<long long>{512, 512, 128});
  EXPECT_EQ(r.conflict_cycles, 0);
  EXPECT_EQ(r.bound->work.workgroups, 4);
  EXPECT_EQ(r.bound->work.mfma_per_workgroup, 2 * 8 * (8 * 4) * 2);  // 2 K steps
  // The suite's 128x128 tile does 128 MFMAs per K step: a quarter of the work in a quarter of the tile.
  const DesignReport small = design_check(find_spec("gemm_bf16"), a, std::nullopt, std::vector<long long>{512, 512, 128});
  EXPECT_EQ(small.bound->work.mfma_per_workgroup * small.bound->work.workgroups,
            r.bound->work.mfma_per_workgroup * r.bound->work.workgroups);
  const KernelSpec plain = variant_spec("gemm_bf16", {{"SWIZZLE", 0}});
  EXPECT_EQ(design_check(plain, a).conflict_cycles, 384);  // DesignCheck.GemmSwizzleRemovesEveryConflict's figure

  const KernelSpec t = variant_spec("attention_fwd_d128", {{"TILE_Q", 64}, {"TILE_KV", 32}});
  EXPECT_EQ(t.threads_per_block, 256);
  EXPECT_EQ(t.lds_bytes(), 32768);
  EXPECT_EQ(to_string(*t.lds[1].swizzle), "Sw<3,2,4>");
  EXPECT_EQ(design_check(t, a).conflict_cycles, 0);
  EXPECT_EQ(t.shape_violations({1, 96, 0}), "attention_fwd_d128 needs S % 64 == 0");
  // Causal at S = 256: query blocks 0..3 see 2, 4, 6, 8 KV tiles of 32 (20 in all, 5 per block);
  // per tile and wave S^T 2 x 4 MFMAs and O^T 8 x 1: 16 x 4 waves x 5 = 320.
  const DesignReport c = design_check(t, a, std::nullopt, std::vector<long long>{1, 256, 1});
  EXPECT_EQ(c.bound->work.workgroups, 4);
  EXPECT_EQ(c.bound->work.mfma_per_workgroup, 320);
}

// The MX template: MXFP8 256 x 128 over 8 waves (2 x 4): 512 threads; two
// stages of 256 and 128 rows of 128 bytes = 98304 bytes of LDS (the
// compiled variant's, tilelab compile); each wave owns 128 x 32 of C = 8 x 2
// tiles of 16 (one MFMA per K step each) or 4 x 1 of 32 (two each).
TEST(VariantSpec, MxTilesFollowTheParameters) {
  const arch::Arch a = arch::load_arch("gfx950");
  const TemplateParams p{{"TILE_M", 256}, {"TILE_N", 128}, {"WAVES_M", 2}, {"WAVES_N", 4}};
  const KernelSpec s16 = variant_spec("gemm_mxfp8", p), s32 = variant_spec("gemm_mxfp8_32x32", p);
  EXPECT_EQ(s16.threads_per_block, 512);
  EXPECT_EQ(s16.lds_bytes(), 98304);
  EXPECT_EQ(s16.shape_violations({256, 256, 128}), "");
  EXPECT_EQ(s16.shape_violations({128, 256, 128}), "gemm_mxfp8 needs M % 256 == 0");
  const std::vector<long long> one_step{256, 128, 128};
  EXPECT_EQ(design_check(s16, a, std::nullopt, one_step).bound->work.mfma_per_workgroup, 8 * 8 * 2);
  EXPECT_EQ(design_check(s32, a, std::nullopt, one_step).bound->work.mfma_per_workgroup, 8 * 4 * 1 * 2);
  EXPECT_EQ(design_check(s16, a).conflict_cycles, 0);
  EXPECT_EQ(variant_spec("gemm_mxfp4", p).lds_bytes(), 49152);  // 64-byte rows
}

TEST(VariantSpec, RefusesWhatTheTemplateRefuses) {
  auto message = [](const std::string& kernel, const TemplateParams& p) {
    try {
      variant_spec(kernel, p);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("gemm_bf16", {{"WAVES_M", 3}, {"WAVES_N", 1}}),
            "gemm_bf16: each wave's piece of C must be whole 16x16 MFMA tiles");
  EXPECT_EQ(message("gemm_bf16", {{"WAVES_M", 8}, {"WAVES_N", 4}}), "gemm_bf16: 1 to 16 waves (WAVES_M x WAVES_N)");
  EXPECT_EQ(message("gemm_bf16", {{"TILE_Q", 64}}),
            "gemm_bf16 has no parameter 'TILE_Q' (it takes TILE_M, TILE_N, WAVES_M, WAVES_N, SWIZZLE)");
  EXPECT_EQ(message("attention_fwd_d64", {{"TILE_Q", 64}, {"TILE_KV", 128}}),
            "attention_fwd_d64: a causal query block must end on a KV tile: TILE_Q % TILE_KV == 0");
  EXPECT_EQ(message("attention_fwd_d64", {{"TILE_KV", 48}}), "attention_fwd_d64: TILE_KV is 32, 64 or 128");
  EXPECT_EQ(message("rmsnorm_bf16", {}).substr(0, 31), "rmsnorm_bf16 is not a template ");
  EXPECT_EQ(message("gemm_f16", {}).substr(0, 56), "no kernel named 'gemm_f16' (did you mean 'gemm_bf16'?) (");
  EXPECT_EQ(message("softmax", {}).substr(0, 30), "no kernel named 'softmax' (the");
  EXPECT_TRUE(has_variant_spec("gemm_bf16"));
  EXPECT_FALSE(has_variant_spec("attention_fwd_d256"));
  EXPECT_EQ(message("gemm_mxfp4", {{"TILE_M", 32}, {"TILE_N", 128}, {"WAVES_M", 1}, {"WAVES_N", 4}}),
            "gemm_mxfp4: the threads must move the A and B tiles in whole 16-byte chunks");
  EXPECT_EQ(message("gemm_mxfp8_32x32", {{"WAVES_M", 8}}),
            "gemm_mxfp8: each wave's piece of C must be whole 32x32 pieces (both atoms fit)");
}
