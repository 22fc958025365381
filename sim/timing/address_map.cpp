#include "sim/timing/address_map.hpp"

#include <algorithm>
#include <bit>

namespace tilelab::timing {

namespace {
// An irreducible polynomial over GF(2) of each degree 1-16 (its x^degree
// term included), the low-weight ones of the standard tables (x^8: AES's).
constexpr std::uint32_t kIrreducible[17] = {
    0,       0x3,     0x7,     0xb,     0x13,    0x25,    0x43,    0x83,   0x11b,
    0x211,   0x409,   0x805,   0x1053,  0x201b,  0x4443,  0x8003,  0x1002d};
}  // namespace

std::uint64_t gf2_residue(std::uint64_t value, int bits) {
  if (bits <= 0) return 0;
  const std::uint64_t poly = kIrreducible[bits];
  for (int top = static_cast<int>(std::bit_width(value)) - 1; top >= bits; --top)
    if ((value >> top) & 1) value ^= poly << (top - bits);
  return value;
}

int unit_bits(int n) {
  int b = 0;
  while ((1LL << b) < n) ++b;
  return b;
}

namespace {
// A unit out of `n`: the residue for a power of two; otherwise a wider
// residue modulo n (close to even for the counts arch files use).
int unit_of(std::uint64_t block, int n) {
  if (n <= 1) return 0;
  const int bits = unit_bits(n);
  if ((1 << bits) == n) return static_cast<int>(gf2_residue(block, bits));
  return static_cast<int>(gf2_residue(block, std::min(bits + 8, 16)) % static_cast<std::uint64_t>(n));
}
}  // namespace

AddressMap::AddressMap(const arch::MemorySystem& m, int line_bytes)
    : line_bytes_(line_bytes), l2_channels_(m.l2_channels), stacks_(std::max(1, m.hbm_stacks)),
      per_stack_(std::max(1, m.hbm_channels_per_stack)), mall_channels_(std::max(1, m.mall_channels)),
      stack_block_(static_cast<std::uint64_t>(std::max(line_bytes, m.hbm_interleave_bytes))),
      channel_block_(static_cast<std::uint64_t>(std::max(line_bytes, m.hbm_channel_interleave_bytes))) {}

int AddressMap::l2_channel(std::uint64_t line) const { return unit_of(line, l2_channels_); }

int AddressMap::hbm_stack(std::uint64_t line) const {
  return unit_of(line * static_cast<std::uint64_t>(line_bytes_) / stack_block_, stacks_);
}

// The channel blocks inside one stack block are spread over the stack's
// channels; the higher address bits count too, so that a stride of whole
// stack blocks does not keep to one channel of each stack.
int AddressMap::channel_in_stack(std::uint64_t line) const {
  const std::uint64_t address = line * static_cast<std::uint64_t>(line_bytes_);
  return unit_of(address / channel_block_, per_stack_);
}

int AddressMap::hbm_channel(std::uint64_t line) const { return hbm_stack(line) * per_stack_ + channel_in_stack(line); }

// The MALL's channels sit with the HBM stacks (WP3 p.11: 16 per stack on
// MI300X), each in front of channels of its stack.
int AddressMap::mall_channel(std::uint64_t line) const {
  const int per_stack = std::max(1, mall_channels_ / stacks_);
  return hbm_stack(line) * per_stack + channel_in_stack(line) % per_stack;
}

}  // namespace tilelab::timing
