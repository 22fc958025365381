// The MX formats: every code of E4M3, E5M2, E2M1 and E8M0 decoded to its
// literal value and encoded back, rounding and saturation against a brute
// force search over all codes, and the block quantizer.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kernels/common/mx_formats.hpp"

using namespace tilelab::kernels;

TEST(MxFormats, LiteralValues) {
  EXPECT_EQ(decode(MxElement::E4M3, 0x7e), 448.f);
  EXPECT_EQ(decode(MxElement::E4M3, 0x08), std::ldexp(1.f, -6));  // smallest normal
  EXPECT_EQ(decode(MxElement::E4M3, 0x01), std::ldexp(1.f, -9));  // smallest subnormal
  EXPECT_EQ(decode(MxElement::E4M3, 0x38), 1.f);
  EXPECT_EQ(decode(MxElement::E4M3, 0xb8), -1.f);
  EXPECT_TRUE(std::isnan(decode(MxElement::E4M3, 0x7f)));
  EXPECT_TRUE(std::isnan(decode(MxElement::E4M3, 0xff)));
  EXPECT_EQ(decode(MxElement::E4M3, 0x78), 256.f);  // e=15 is a normal exponent in E4M3
  EXPECT_EQ(decode(MxElement::E5M2, 0x7b), 57344.f);
  EXPECT_EQ(decode(MxElement::E5M2, 0x7c), INFINITY);
  EXPECT_EQ(decode(MxElement::E5M2, 0xfc), -INFINITY);
  EXPECT_TRUE(std::isnan(decode(MxElement::E5M2, 0x7d)));
  EXPECT_EQ(decode(MxElement::E5M2, 0x01), std::ldexp(1.f, -16));
  EXPECT_EQ(decode(MxElement::E5M2, 0x3c), 1.f);
  const float fp4[8] = {0.f, 0.5f, 1.f, 1.5f, 2.f, 3.f, 4.f, 6.f};
  for (unsigned c = 0; c < 8; ++c) {
    EXPECT_EQ(decode(MxElement::E2M1, c), fp4[c]);
    EXPECT_EQ(decode(MxElement::E2M1, c | 8), -fp4[c]);
  }
  EXPECT_EQ(decode_e8m0(127), 1.f);
  EXPECT_EQ(decode_e8m0(0), std::ldexp(1.f, -127));
  EXPECT_EQ(decode_e8m0(254), std::ldexp(1.f, 127));
  EXPECT_TRUE(std::isnan(decode_e8m0(255)));
}

TEST(MxFormats, EveryCodeRoundTrips) {
  for (MxElement f : {MxElement::E4M3, MxElement::E5M2, MxElement::E2M1}) {
    const unsigned codes = 1u << bits_of(f);
    for (unsigned c = 0; c < codes; ++c) {
      const float v = decode(f, c);
      if (std::isnan(v)) {
        EXPECT_EQ(encode(f, v), (c & (codes / 2)) | 0x7fu) << c;  // the canonical NaN, sign kept
        continue;
      }
      EXPECT_EQ(encode(f, v), c) << "format " << int(f) << " code " << c << " value " << v;
    }
  }
  for (unsigned e = 0; e < 255; ++e) EXPECT_EQ(decode_e8m0(e), std::ldexp(1.0f, int(e) - 127)) << e;
}

TEST(MxFormats, RoundingTiesToEvenAndSaturation) {
  EXPECT_EQ(decode(MxElement::E4M3, encode(MxElement::E4M3, 17.f)), 16.f);  // tie 16|18 -> even mantissa
  EXPECT_EQ(decode(MxElement::E4M3, encode(MxElement::E4M3, 19.f)), 20.f);  // tie 18|20 -> 20
  EXPECT_EQ(decode(MxElement::E4M3, encode(MxElement::E4M3, 1000.f)), 448.f);
  EXPECT_EQ(decode(MxElement::E4M3, encode(MxElement::E4M3, -INFINITY)), -448.f);
  EXPECT_EQ(decode(MxElement::E5M2, encode(MxElement::E5M2, 1e6f)), 57344.f);
  EXPECT_EQ(decode(MxElement::E5M2, encode(MxElement::E5M2, INFINITY)), INFINITY);
  EXPECT_EQ(decode(MxElement::E2M1, encode(MxElement::E2M1, 2.5f)), 2.f);   // tie 2|3
  EXPECT_EQ(decode(MxElement::E2M1, encode(MxElement::E2M1, 5.f)), 4.f);    // tie 4|6
  EXPECT_EQ(decode(MxElement::E2M1, encode(MxElement::E2M1, 0.25f)), 0.f);  // tie 0|0.5
  EXPECT_EQ(decode(MxElement::E2M1, encode(MxElement::E2M1, 0.26f)), 0.5f);
  EXPECT_EQ(decode(MxElement::E2M1, encode(MxElement::E2M1, 7.f)), 6.f);
  EXPECT_EQ(encode(MxElement::E2M1, -0.f), 0x8u);
}

// Nearest by brute force: smallest |x - v| over every finite code, ties to
// the code with an even mantissa (its lowest bit 0), saturating.
TEST(MxFormats, EncodeIsTheNearestCode) {
  std::mt19937_64 rng(99);
  for (MxElement f : {MxElement::E4M3, MxElement::E5M2, MxElement::E2M1}) {
    const MxFormatInfo i = info(f);
    std::uniform_real_distribution<float> mag(-std::log2(i.max_normal) - 12, std::log2(i.max_normal) + 1);
    for (int t = 0; t < 20000; ++t) {
      const float x = (rng() & 1 ? -1.f : 1.f) * std::exp2(mag(rng));
      const float clamped = std::fmin(std::fabs(x), i.max_normal);
      unsigned best = 0;
      float best_d = INFINITY;
      for (unsigned c = 0; c < (1u << (bits_of(f) - 1)); ++c) {
        const float v = decode(f, c);
        if (std::isnan(v) || std::isinf(v)) continue;
        const float d = std::fabs(clamped - v);
        if (d < best_d || (d == best_d && (c & 1) == 0)) {
          best_d = d;
          best = c;
        }
      }
      const unsigned got = encode(f, x) & ((1u << (bits_of(f) - 1)) - 1);
      ASSERT_EQ(got, best) << "format " << int(f) << " x " << x;
    }
  }
}

TEST(MxFormats, BlockQuantizer) {
  EXPECT_EQ(mx_scale_for(MxElement::E4M3, 448.f), 127u);  // floor(log2 448) = 8 = emax
  EXPECT_EQ(mx_scale_for(MxElement::E4M3, 1.f), 119u);    // 2^(0 - 8)
  EXPECT_EQ(mx_scale_for(MxElement::E2M1, 6.f), 127u);    // floor(log2 6) = 2 = emax
  EXPECT_EQ(mx_scale_for(MxElement::E5M2, 0.f), 0u);
  std::mt19937_64 rng(4);
  std::normal_distribution<float> d(0.f, 3.f);
  for (MxElement f : {MxElement::E4M3, MxElement::E5M2, MxElement::E2M1}) {
    const int rows = 3, k = 96;
    std::vector<float> x(rows * k);
    for (auto& v : x) v = d(rng);
    std::vector<std::uint8_t> codes(x.size()), scales(rows * k / 32);
    quantize_mx(f, x.data(), rows, k, codes.data(), scales.data());
    for (int r = 0; r < rows; ++r)
      for (int i = 0; i < k; ++i) {
        const float scale = decode_e8m0(scales[r * (k / 32) + i / 32]);
        const float back = decode(f, codes[r * k + i]) * scale;
        // Re-encoding what the quantizer produced gives the same code (bit-exact round trip).
        EXPECT_EQ(encode(f, back / scale), codes[r * k + i]);
        // The block's largest value keeps its leading bit: no block saturates more than one step.
        EXPECT_LE(std::fabs(back - x[r * k + i]), std::fabs(x[r * k + i]) * 0.5f + scale * info(f).max_normal);
      }
  }
  std::vector<float> bad(32, 1.f);
  bad[5] = NAN;
  std::vector<std::uint8_t> c(32), s(1);
  try {
    quantize_mx(MxElement::E2M1, bad.data(), 1, 32, c.data(), s.data());
    FAIL() << "NaN accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "NaN at row 0, column 5: E2M1 has no NaN");
  }
  EXPECT_THROW(quantize_mx(MxElement::E4M3, bad.data(), 1, 30, c.data(), s.data()), std::invalid_argument);
  const std::uint8_t four[4] = {0x1, 0x7, 0xf, 0x2};
  std::uint8_t packed[2];
  pack_fp4(four, 4, packed);
  EXPECT_EQ(packed[0], 0x71);
  EXPECT_EQ(packed[1], 0x2f);
}
