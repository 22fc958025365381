// The f8f6f4 element decode (sim/emu/mx_decode): the AVX-512 path and the
// scalar tables give the same floats, to the bit, for every code, shift and
// block scale; spot values from the OCP MX specification (v1.0, §5.3).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/emu/float_bits.hpp"
#include "sim/emu/mx_decode.hpp"

namespace tilelab {
namespace {

using emu::MxFormat;

std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }

constexpr int width(MxFormat f) { return f == MxFormat::e2m1 ? 4 : 8; }

// Registers of `rows` lanes whose slot s, row i holds code(s, i) (the other
// bits of each register are those of the neighbouring slots).
template <class Code>
std::vector<std::uint32_t> pack(MxFormat f, int rows, Code code) {
  const int w = width(f), per_register = 32 / w;
  std::vector<std::uint32_t> words(static_cast<std::size_t>(8 * rows), 0);
  for (int s = 0; s < 32; ++s)
    for (int i = 0; i < rows; ++i)
      words[static_cast<std::size_t>(rows * (s / per_register) + i)] |= code(s, i) << (w * (s % per_register));
  return words;
}

void decode(MxFormat f, const std::vector<std::uint32_t>& words, int rows, const int k[32], const float* factor,
            float* out, bool vector) {
  const std::uint32_t* registers[8];
  for (int r = 0; r < 8; ++r) registers[r] = words.data() + rows * r;
  emu::decode_mx_slots(f, registers, rows, k, factor, out, vector);
}

// Every code of `format` in every slot (so at every field position of a
// register), through `vector` or not, against decode_f8f6f4.
void check_every_code(MxFormat f, bool vector) {
  const int codes = 1 << width(f), rows = 16;
  int k[32];
  for (int s = 0; s < 32; ++s) k[s] = 31 - s;  // out of slot order, as the FP8 layout is
  for (int first = 0; first < codes; first += rows) {
    auto code = [&](int s, int i) { return static_cast<std::uint32_t>((first + i + 7 * s) % codes); };
    float out[32 * rows];
    decode(f, pack(f, rows, code), rows, k, nullptr, out, vector);
    for (int s = 0; s < 32; ++s)
      for (int i = 0; i < rows; ++i)
        ASSERT_EQ(bits(out[rows * k[s] + i]), bits(emu::decode_f8f6f4(static_cast<int>(f), code(s, i))))
            << "format " << static_cast<int>(f) << " slot " << s << " code " << code(s, i);
  }
}

TEST(MxDecode, EveryCodeOnBothPaths) {
  for (MxFormat f : {MxFormat::e4m3, MxFormat::e5m2, MxFormat::e2m1})
    for (bool vector : {false, true}) check_every_code(f, vector);
}

TEST(MxDecode, SpecValues) {
  struct Case {
    MxFormat format;
    std::uint32_t code;
    float value;
  };
  const Case cases[] = {
      {MxFormat::e4m3, 0x7e, 448.0f},        {MxFormat::e4m3, 0x01, 0x1p-9f},  {MxFormat::e4m3, 0x08, 0x1p-6f},
      {MxFormat::e4m3, 0x07, 7 * 0x1p-9f},   {MxFormat::e4m3, 0xb8, -1.0f},    {MxFormat::e4m3, 0x80, -0.0f},
      {MxFormat::e5m2, 0x7b, 57344.0f},      {MxFormat::e5m2, 0x01, 0x1p-16f}, {MxFormat::e5m2, 0x7c, INFINITY},
      {MxFormat::e5m2, 0xfc, -INFINITY},     {MxFormat::e5m2, 0x3c, 1.0f},     {MxFormat::e2m1, 0x7, 6.0f},
      {MxFormat::e2m1, 0x1, 0.5f},           {MxFormat::e2m1, 0xa, -1.0f},
  };
  int k[32];
  for (int s = 0; s < 32; ++s) k[s] = s;
  for (const Case& c : cases) {
    float out[32 * 16];
    decode(c.format, pack(c.format, 16, [&](int, int) { return c.code; }), 16, k, nullptr, out, true);
    EXPECT_EQ(bits(out[16 * 3 + 5]), bits(c.value)) << "code " << c.code;
  }
  for (std::uint32_t nan : {0x7fu, 0xffu}) {  // E4M3's two NaNs
    float out[32 * 16];
    decode(MxFormat::e4m3, pack(MxFormat::e4m3, 16, [&](int, int) { return nan; }), 16, k, nullptr, out, true);
    EXPECT_TRUE(std::isnan(out[0]));
  }
}

// Random registers and block scales (every E8M0 code, NaN too), 16 and 32
// rows: the two paths agree on every product.  Fixed seed, 3,000 groups.
TEST(MxDecode, ScaledPathsAgree) {
  std::mt19937 rng(20261206);
  for (int n = 0; n < 3000; ++n) {
    const MxFormat f = n % 3 == 0 ? MxFormat::e4m3 : n % 3 == 1 ? MxFormat::e5m2 : MxFormat::e2m1;
    const int rows = n % 4 < 2 ? 16 : 32, K = 2048 / rows;
    std::vector<std::uint32_t> words(static_cast<std::size_t>(8 * rows));
    for (std::uint32_t& w : words) w = rng();
    std::vector<float> factor(static_cast<std::size_t>(K / 32 * rows));
    for (float& x : factor) x = emu::decode_e8m0(rng() & 0xff);
    int k[32];
    const int g = static_cast<int>(rng() % static_cast<std::uint32_t>(64 / rows));
    for (int s = 0; s < 32; ++s) k[s] = s < 16 ? 16 * g + s : K / 2 + 16 * g + s - 16;
    const bool scaled = n % 2 == 0;
    std::vector<float> scalar(static_cast<std::size_t>(K * rows), 0.0f), vector = scalar;
    decode(f, words, rows, k, scaled ? factor.data() : nullptr, scalar.data(), false);
    decode(f, words, rows, k, scaled ? factor.data() : nullptr, vector.data(), true);
    for (std::size_t i = 0; i < scalar.size(); ++i) ASSERT_EQ(bits(scalar[i]), bits(vector[i])) << "group " << n << " at " << i;
  }
}

}  // namespace
}  // namespace tilelab
