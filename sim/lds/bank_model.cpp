#include "sim/lds/bank_model.hpp"

#include <algorithm>
#include <bit>

#include "sim/lds/bank_model_avx512.hpp"

namespace tilelab::lds {

BankModel::PassLanes BankModel::lanes_of(std::uint64_t mask) {
  PassLanes p;
  p.mask = mask;
  for (std::uint64_t m = mask; m; m &= m - 1) p.lane[p.count++] = static_cast<std::uint8_t>(std::countr_zero(m));
  return p;
}

std::vector<avx512::VectorPass> BankModel::vector_passes(const std::vector<PassLanes>& passes) {
  std::vector<avx512::VectorPass> out;
  for (const auto& p : passes) {
    avx512::VectorPass v;
    v.mask = p.mask;
    for (int k = 0; k < p.count; ++k) v.lane[k] = p.lane[k];
    out.push_back(v);
  }
  return out;
}

BankModel::~BankModel() = default;
BankModel::BankModel(const BankModel&) = default;
BankModel& BankModel::operator=(const BankModel&) = default;

BankModel::BankModel(const arch::Arch& a, const arch::LdsInstruction& ins, Path path)
    : ins_(ins), wave_size_(a.wave_size), period_(ins.bank_period), words_(ins.bytes < 4 ? 1 : ins.bytes / 4) {
  // A 1- or 2-byte access is costed as the 4-byte word that holds it: lanes
  // touching different bytes of one word share it like a broadcast.
  unit_path_ = std::has_single_bit(static_cast<unsigned>(ins.bytes));
  if (unit_path_) {
    unit_shift_ = static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(std::max(ins.bytes, 4))));
    group_mask_ = static_cast<std::uint32_t>(period_ / words_) - 1;
  }
  std::vector<std::uint64_t> phase_mask;
  for (const auto& phase : ins.phases) {
    std::uint64_t m = 0;
    for (int l : phase) m |= std::uint64_t{1} << l;
    phase_mask.push_back(m);
    phase_passes_.push_back(lanes_of(m));
  }
  // Passes when the lanes pair up: each pair_merge set becomes one pass; other phases stay.
  std::uint64_t covered = 0;
  for (const auto& set : ins.pair_merge) {
    std::uint64_t m = 0;
    for (int p : set) m |= phase_mask[p];
    merged_passes_.push_back(lanes_of(m));
    covered |= m;
  }
  if (!ins.pair_merge.empty())
    for (std::uint64_t m : phase_mask)
      if (!(m & covered)) merged_passes_.push_back(lanes_of(m));
  const std::size_t groups = group_mask_ + 1;
  wave_fast_ = unit_path_ && ins.phases.size() * groups <= 64;
  if (wave_fast_)
    for (std::size_t p = 0; p < ins.phases.size(); ++p)
      for (int l : ins.phases[p]) lane_bit_base_[l] = static_cast<std::uint8_t>(p * groups);
  static const bool cpu_has_avx512 = avx512::supported();
  auto fits = [](const std::vector<PassLanes>& ps) {
    for (const auto& p : ps)
      if (p.count > 16) return false;
    return true;
  };
  if (path == Path::fastest && cpu_has_avx512 && unit_path_ && fits(phase_passes_) && fits(merged_passes_) &&
      phase_passes_.size() <= static_cast<std::size_t>(avx512::kMaxPasses) &&
      merged_passes_.size() <= static_cast<std::size_t>(avx512::kMaxPasses)) {
    vector_phases_ = vector_passes(phase_passes_);
    vector_merged_ = vector_passes(merged_passes_);
  }
}

// The warp's active lanes pair up, all by the same rule — lane l with l^1,
// or lane l with l^2 — and the two lanes of every pair read one address.
bool BankModel::lanes_pair_up(std::span<const std::uint32_t> addr, std::uint64_t active) const {
  for (int stride : {1, 2}) {
    bool ok = true;
    for (int l = 0; l < wave_size_ && ok; ++l) {
      int partner = l ^ stride;
      if (partner < l || !((active >> l) & 1) || !((active >> partner) & 1)) continue;
      ok = addr[l] == addr[partner];
    }
    if (ok) return true;
  }
  return false;
}

// Distinct words in the busiest bank among `lanes`.  Each lane contributes
// units — its whole access for power-of-two widths (it covers an aligned
// group of banks), else single words — each under its bank group.  The first
// unit seen in a group costs one clock; a different unit in the same group is
// a conflict and goes to a short list that is counted only when there is one.
int BankModel::ways_of(std::uint64_t lanes, std::span<const std::uint32_t> addr, int& banks) const {
  struct Extra {
    std::uint32_t unit;
    int group;
  };
  std::uint32_t first[64];
  Extra extra[64 * 3];
  int n_extra = 0;
  std::uint64_t seen = 0;
  auto add = [&](std::uint32_t u, int g) {
    std::uint64_t bit = std::uint64_t{1} << g;
    if (!(seen & bit)) {
      seen |= bit;
      first[g] = u;
    } else if (first[g] != u) {
      extra[n_extra++] = {u, g};
    }
  };
  if (unit_path_) {
    const std::uint32_t shift = unit_shift_, group_mask = group_mask_;
    for (std::uint64_t m = lanes; m; m &= m - 1) {
      std::uint32_t u = addr[std::countr_zero(m)] >> shift;
      add(u, static_cast<int>(u & group_mask));
    }
  } else {
    for (std::uint64_t m = lanes; m; m &= m - 1) {
      std::uint32_t a = addr[std::countr_zero(m)] / 4;
      for (int w = 0; w < words_; ++w) {
        std::uint32_t word = a + static_cast<std::uint32_t>(w);
        add(word, static_cast<int>(word % static_cast<std::uint32_t>(period_)));
      }
    }
  }
  banks = std::popcount(seen) * (unit_path_ ? words_ : 1);
  if (n_extra == 0) return 1;
  // Distinct extra units per group; each already differs from the group's first.
  int count[64] = {};
  int ways = 1;
  for (int i = 0; i < n_extra; ++i) {
    bool repeat = false;
    for (int j = 0; j < i && !repeat; ++j) repeat = extra[j].group == extra[i].group && extra[j].unit == extra[i].unit;
    if (!repeat && ++count[extra[i].group] + 1 > ways) ways = count[extra[i].group] + 1;
  }
  return ways;
}

// 1 << g for each bank group g: a load is cheaper than a variable shift here.
static constexpr std::array<std::uint64_t, 64> kBit = [] {
  std::array<std::uint64_t, 64> b{};
  for (int g = 0; g < 64; ++g) b[g] = std::uint64_t{1} << g;
  return b;
}();

// The common case first: when no two active lanes of the pass fall in the
// same bank group the pass costs one clock; only otherwise are units compared.
void BankModel::analyze_pass(const PassLanes& p, std::span<const std::uint32_t> addr, std::uint64_t active,
                             Pass& out) const {
  out.lanes = p.mask;
  out.active = p.mask & active;
  out.banks = 0;
  out.ways = 0;
  if (!out.active) return;
  if (unit_path_) {
    const std::uint32_t shift = unit_shift_, group_mask = group_mask_;
    std::uint64_t seen = 0, dup = 0;
    const std::uint32_t* a = addr.data();
    if (out.active == p.mask) {  // every lane of the pass active: no per-lane mask test
      const std::uint8_t* lane = p.lane.data();
      for (int k = 0; k < p.count; ++k) {
        std::uint64_t bit = kBit[(a[lane[k]] >> shift) & group_mask];
        dup |= seen & bit;
        seen |= bit;
      }
    } else {
      for (int k = 0; k < p.count; ++k) {
        unsigned l = p.lane[k];
        std::uint64_t bit = ((active >> l) & 1) << ((a[l] >> shift) & group_mask);
        dup |= seen & bit;
        seen |= bit;
      }
    }
    out.banks = std::popcount(seen) * words_;
    if (!dup) {
      out.ways = 1;
      return;
    }
  }
  count_ways(p, addr, out);
}

// Ways of a pass known to have two lanes in one bank group: keep, per group,
// its first unit and up to three more distinct ones (enough for a 4-way
// conflict); beyond that, or off the unit path, the general count takes over.
void BankModel::count_ways(const PassLanes& p, std::span<const std::uint32_t> addr, Pass& out) const {
  if (unit_path_) {
    const std::uint32_t* a = addr.data();
    constexpr int kKept = 3;
    std::uint32_t first[64], more[64][kKept];
    std::uint8_t n_more[64];
    std::uint64_t placed = 0;
    int ways = 1;
    bool overflow = false;
    for (int k = 0; k < p.count && !overflow; ++k) {
      unsigned l = p.lane[k];
      if (!((out.active >> l) & 1)) continue;
      std::uint32_t u = a[l] >> unit_shift_;
      unsigned g = u & group_mask_;
      std::uint64_t bit = std::uint64_t{1} << g;
      if (!(placed & bit)) {
        placed |= bit;
        first[g] = u;
        n_more[g] = 0;
        continue;
      }
      if (first[g] == u) continue;
      int n = n_more[g], i = 0;
      while (i < n && more[g][i] != u) ++i;
      if (i < n) continue;
      if (n == kKept) {
        overflow = true;
        break;
      }
      more[g][n] = u;
      n_more[g] = static_cast<std::uint8_t>(n + 1);
      if (n + 2 > ways) ways = n + 2;
    }
    if (!overflow) {
      out.banks = std::popcount(placed) * words_;
      out.ways = ways;
      return;
    }
  }
  out.ways = ways_of(out.active, addr, out.banks);
}

// One pass over the wave: `seen` collects each lane's (phase, group) bit,
// `dup` the bits seen twice.
template <unsigned Shift>
void BankModel::scan_wave(const std::uint32_t* a, std::uint64_t& seen, std::uint64_t& dup) const {
  const std::uint8_t* base = lane_bit_base_.data();
  const std::uint32_t mask = group_mask_;
#pragma GCC unroll 8
  for (int l = 0; l < wave_size_; ++l) {
    std::uint64_t bit = std::uint64_t{1} << (base[l] + ((a[l] >> Shift) & mask));
    dup |= seen & bit;
    seen |= bit;
  }
}

Analysis BankModel::analyze(std::span<const std::uint32_t> addresses, std::uint64_t active) const {
  if (static_cast<int>(addresses.size()) != wave_size_)
    throw ModelError(ins_.name + " takes " + std::to_string(wave_size_) + " lane addresses, got " +
                     std::to_string(addresses.size()));
  std::uint32_t align = ins_.bytes == 12 ? 4u : static_cast<std::uint32_t>(ins_.bytes);
  std::uint64_t lanes_mask = wave_size_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << wave_size_) - 1;
  active &= lanes_mask;
  std::uint32_t misaligned = 0;
  if (active == lanes_mask) {
    for (int l = 0; l < wave_size_; ++l) misaligned |= addresses[l];  // vectorizes
  } else {
    for (std::uint64_t m = active; m; m &= m - 1) misaligned |= addresses[std::countr_zero(m)];
  }
  if (misaligned & (align - 1))
    for (std::uint64_t m = active; m; m &= m - 1) {
      int l = std::countr_zero(m);
      if (addresses[l] % align != 0)
        throw ModelError("lane " + std::to_string(l) + ": address " + std::to_string(addresses[l]) + " is not " +
                         std::to_string(align) + "-byte aligned for " + ins_.name);
    }
  const std::vector<PassLanes>& passes =
      !merged_passes_.empty() && lanes_pair_up(addresses, active) ? merged_passes_ : phase_passes_;
  Analysis r;
  if (vector_path()) {
    avx512::analyze_passes(&passes == &phase_passes_ ? vector_phases_ : vector_merged_, addresses, active,
                           unit_shift_, group_mask_, words_, r);
    return r;
  }
  // The common case in one loop over the wave: every lane active and no two
  // lanes of a phase in one bank group, so every pass costs one clock.
  if (wave_fast_ && &passes == &phase_passes_ && active == lanes_mask) {
    std::uint64_t seen = 0, dup = 0;
    switch (unit_shift_) {  // a constant shift lets the compiler keep the loop tight
      case 2: scan_wave<2>(addresses.data(), seen, dup); break;
      case 3: scan_wave<3>(addresses.data(), seen, dup); break;
      default: scan_wave<4>(addresses.data(), seen, dup); break;
    }
    // Phases whose slice of `dup` is empty cost one clock; only the others
    // are looked at lane by lane.
    const std::uint32_t groups = group_mask_ + 1;
    const std::uint64_t slice = groups == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << groups) - 1;
    r.entries = static_cast<int>(passes.size());
    for (int p = 0; p < r.entries; ++p) {
      Pass& pass = r.pass[p];
      if ((dup >> (p * groups)) & slice) {
        pass.lanes = pass.active = passes[p].mask;
        count_ways(passes[p], addresses, pass);
      } else {
        pass.lanes = pass.active = passes[p].mask;
        pass.banks = std::popcount((seen >> (p * groups)) & slice) * words_;
        pass.ways = 1;
      }
      ++r.passes;
      r.cycles += pass.ways;
      r.conflict_cycles += pass.ways - 1;
      if (pass.ways > r.max_ways) r.max_ways = pass.ways;
    }
    return r;
  }
  r.entries = static_cast<int>(passes.size());
  for (int p = 0; p < r.entries; ++p) {
    Pass& pass = r.pass[p];
    analyze_pass(passes[p], addresses, active, pass);
    if (!pass.ways) continue;
    ++r.passes;
    r.cycles += pass.ways;
    r.conflict_cycles += pass.ways - 1;
    if (pass.ways > r.max_ways) r.max_ways = pass.ways;
  }
  return r;
}

}  // namespace tilelab::lds
