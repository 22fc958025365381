#include "sim/lds/bank_model_avx512.hpp"

// GCC 12's AVX-512 intrinsics start some results from _mm512_undefined and
// then warn about it (-Wmaybe-uninitialized inside avx512fintrin.h).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <bit>

// Compiled for baseline x86-64 like the rest; only these functions carry the
// AVX-512 target, and BankModel calls them only when supported() says so.
#define TILELAB_AVX512 __attribute__((target("avx512f,avx512cd,avx512bw,avx512vpopcntdq,bmi2")))

namespace tilelab::lds::avx512 {

bool supported() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vpopcntdq") &&
         __builtin_cpu_supports("bmi2");
}

// Per pass, with k = the pass's active lanes (in register order):
//   a lane is the first of its unit when no earlier lane has the same unit
//   (vpconflictd over the units, inactive lanes given unique sentinels);
//   among those first lanes, vpconflictd over the groups (other lanes again
//   given sentinels) counts the earlier ones in the same group: the largest
//   count + 1 is the pass's ways, and the first lanes with no earlier one in
//   their group are its distinct groups (banks = groups x words).
// Two loops: the first has no branches, so the passes' dependency chains
// (two conflict detections and a reduction each) overlap; the second fills
// the analysis.
TILELAB_AVX512 void analyze_passes(const std::vector<VectorPass>& passes, std::span<const std::uint32_t> addresses,
                                   std::uint64_t active, std::uint32_t unit_shift, std::uint32_t group_mask,
                                   int words, Analysis& r) {
  const std::uint32_t* a = addresses.data();
  const bool wave64 = addresses.size() == 64;
  const __m512i r0 = _mm512_loadu_si512(a), r1 = _mm512_loadu_si512(a + 16);
  const __m512i r2 = wave64 ? _mm512_loadu_si512(a + 32) : r0, r3 = wave64 ? _mm512_loadu_si512(a + 48) : r1;
  const __m128i shift = _mm_cvtsi32_si128(static_cast<int>(unit_shift));
  const __m512i groups = _mm512_set1_epi32(static_cast<int>(group_mask));
  const __m512i thirty_two = _mm512_set1_epi32(32);
  // Sentinels never equal a unit or a group: bit 31 set plus the register slot
  // (units are addresses >> 2 or more, so below 2^30).
  const __m512i sentinel = _mm512_or_si512(_mm512_set1_epi32(static_cast<int>(0x80000000u)),
                                           _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  const int n = static_cast<int>(passes.size());
  __mmask16 first[kMaxPasses], group_first[kMaxPasses];
  int ways[kMaxPasses];
  for (int p = 0; p < n; ++p) {
    const VectorPass& vp = passes[static_cast<std::size_t>(p)];
    const __m512i idx = _mm512_loadu_si512(vp.lane.data());
    // Lanes 0-31 from r0:r1, 32-63 from r2:r3 (bit 5 of the lane number picks).
    const __mmask16 upper = _mm512_test_epi32_mask(idx, thirty_two);
    const __m512i addr = _mm512_mask_blend_epi32(upper, _mm512_permutex2var_epi32(r0, idx, r1),
                                                 _mm512_permutex2var_epi32(r2, idx, r3));
    const __mmask16 k = static_cast<__mmask16>(_pext_u64(active, vp.mask));
    const __m512i unit = _mm512_mask_blend_epi32(k, sentinel, _mm512_srl_epi32(addr, shift));
    const __m512i same_unit = _mm512_conflict_epi32(unit);
    first[p] = _mm512_mask_testn_epi32_mask(k, same_unit, same_unit);
    const __m512i group = _mm512_mask_blend_epi32(first[p], sentinel, _mm512_and_si512(unit, groups));
    const __m512i same_group = _mm512_conflict_epi32(group);
    group_first[p] = _mm512_mask_testn_epi32_mask(first[p], same_group, same_group);
    // The busiest group: max over the first lanes of (earlier ones in its group) + 1.
    ways[p] = _mm512_reduce_max_epi32(_mm512_maskz_mov_epi32(first[p], _mm512_popcnt_epi32(same_group))) + 1;
  }
  r.entries = n;
  for (int p = 0; p < n; ++p) {
    const VectorPass& vp = passes[static_cast<std::size_t>(p)];
    Pass& out = r.pass[p];
    out.lanes = vp.mask;
    out.active = vp.mask & active;
    out.banks = 0;
    out.ways = 0;
    if (!out.active) continue;
    out.banks = std::popcount(static_cast<unsigned>(group_first[p])) * words;
    out.ways = ways[p];
    ++r.passes;
    r.cycles += out.ways;
    r.conflict_cycles += out.ways - 1;
    if (out.ways > r.max_ways) r.max_ways = out.ways;
  }
}

}  // namespace tilelab::lds::avx512
