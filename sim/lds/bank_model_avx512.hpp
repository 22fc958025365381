// The bank model's vector path: passes of up to 16 lanes analysed with
// AVX-512 conflict detection (one pass per 512-bit register).  Internal to
// sim/lds; BankModel decides when it applies and falls back to the scalar
// path otherwise.  Same results as the scalar path, field by field (tested).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/lds/bank_model.hpp"

namespace tilelab::lds::avx512 {

// One pass laid out for a register: its lanes in ascending order, padded.
struct VectorPass {
  std::array<std::int32_t, 16> lane{};  // lane numbers; padding repeats lane 0 (masked off)
  std::uint64_t mask = 0;               // the pass's lanes as a wave mask
};

// The most passes the vector path takes (more fall back to the scalar path).
inline constexpr int kMaxPasses = 16;

// Whether this CPU runs the vector path (AVX-512 F, CD, BW and VPOPCNTDQ).
bool supported();

// Every pass of `passes` for a power-of-two access width: the unit of lane l
// is addresses[l] >> unit_shift, its bank group unit & group_mask; a pass's
// ways are the most distinct units in one group.  addresses has 32 or 64
// entries.  Fills r.pass[0, passes.size()) and the totals.
void analyze_passes(const std::vector<VectorPass>& passes, std::span<const std::uint32_t> addresses,
                    std::uint64_t active, std::uint32_t unit_shift, std::uint32_t group_mask, int words,
                    Analysis& r);

}  // namespace tilelab::lds::avx512
