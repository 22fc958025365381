// Where a line of memory lives below the L1s: which L2 channel of its XCD
// serves it, which HBM stack and which of that stack's channels hold it, and
// which MALL channel (the one beside that HBM channel) caches it.
//
// The hardware's hashes are not public (chip-facts 5 says only "hashed";
// WP3 p.14 shows the stack changing every 4 KiB).  A plain modulo of the
// interleave block puts every power-of-two stride at or above the block
// times the unit count on one unit: AMD's bf16 GEMM with K = 16384 (rows of
// 32 KiB) read all of A from one stack and came out 2.6x slower than at
// K = 16320.  Every choice here is therefore Rau's pseudo-random
// interleaving (B. R. Rau, "Pseudo-randomly interleaved memory", ISCA 1991):
// the block number, read as a polynomial over GF(2), modulo an irreducible
// polynomial of the unit count's degree.  Each unit bit is then an XOR of
// address bits, the kind of function DRAMA (Pessl et al., USENIX Security
// 2016) recovered from real memory controllers.  Its properties: a
// power-of-two stride from an aligned base visits every unit once per
// units-many steps, from any base no unit more than twice; and strides
// near a power of two spread too.  A plain XOR fold of the block's fields
// (tried first) has the first two properties but not the third: 104 MXFP4
// tile streams 1 MiB - 16 KiB apart (K = 16128) put 2.7x the mean load on
// the busiest HBM channel, against 1.07x here.
#pragma once
#include <cstdint>

#include "sim/arch/arch.hpp"

namespace tilelab::timing {

// `value` as a polynomial over GF(2), modulo the irreducible polynomial of
// degree `bits` (1 <= bits <= 16; kIrreducible): a unit in [0, 2^bits).
// Linear over XOR, and for a fixed rest of the value any bits-wide window
// of it, at any position, maps one to one onto the units (x is invertible
// modulo an irreducible polynomial).
std::uint64_t gf2_residue(std::uint64_t value, int bits);

// The bits that number `n` units: the least b with 2^b >= n (0 for n <= 1).
int unit_bits(int n);

class AddressMap {
 public:
  // `m`'s channel and stack counts and interleaves; `line_bytes`: the unit of
  // a line number (timing.l1_line_bytes).
  AddressMap(const arch::MemorySystem& m, int line_bytes);
  // Each in [0, count): l2_channels, hbm_stacks, hbm_channels(), mall_channels.
  int l2_channel(std::uint64_t line) const;
  int hbm_stack(std::uint64_t line) const;
  // Chip-wide: stack * channels_per_stack + the channel inside the stack.
  int hbm_channel(std::uint64_t line) const;
  int mall_channel(std::uint64_t line) const;
  int hbm_channels() const { return stacks_ * per_stack_; }

 private:
  int channel_in_stack(std::uint64_t line) const;
  int line_bytes_, l2_channels_, stacks_, per_stack_, mall_channels_;
  std::uint64_t stack_block_, channel_block_;  // bytes per interleave block
};

}  // namespace tilelab::timing
