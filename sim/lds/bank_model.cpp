#include "sim/lds/bank_model.hpp"

#include <bit>

namespace tilelab::lds {

BankModel::BankModel(const arch::Arch& a, const arch::LdsInstruction& ins)
    : ins_(ins), wave_size_(a.wave_size), period_(ins.bank_period), words_(ins.bytes / 4) {
  unit_path_ = std::has_single_bit(static_cast<unsigned>(ins.bytes));
  phases_ = static_cast<int>(ins.phases.size());
  for (int p = 0; p < phases_; ++p)
    for (int l : ins.phases[p]) phase_mask_[p] |= std::uint64_t{1} << l;
  // Passes when every quad fits: each quad_merge set becomes one pass; other phases stay.
  merged_ = 0;
  std::uint64_t covered = 0;
  for (const auto& set : ins.quad_merge) {
    std::uint64_t m = 0;
    for (int p : set) m |= phase_mask_[p];
    merged_mask_[merged_++] = m;
    covered |= m;
  }
  for (int p = 0; p < phases_ && !ins.quad_merge.empty(); ++p)
    if (!(phase_mask_[p] & covered)) merged_mask_[merged_++] = phase_mask_[p];
}

bool BankModel::quads_fit(std::span<const std::uint32_t> addr, std::uint64_t active) const {
  for (int q = 0; q < wave_size_; q += 4) {
    std::uint32_t first = 0, second = 0;
    int distinct = 0;
    for (int l = q; l < q + 4; ++l) {
      if (!((active >> l) & 1)) continue;
      std::uint32_t a = addr[l];
      if (distinct >= 1 && a == first) continue;
      if (distinct >= 2 && a == second) continue;
      if (++distinct > 2) return false;
      (distinct == 1 ? first : second) = a;
    }
  }
  return true;
}

// Distinct words in the busiest bank among `lanes`.
int BankModel::ways_of(std::uint64_t lanes, std::span<const std::uint32_t> addr, std::uint64_t& banks) const {
  // Each distinct unit (a lane's whole access for power-of-two widths, else a
  // single word) is listed under its bank group; a group's list length is its ways.
  constexpr int kMax = 64 * 4;
  std::uint32_t unit[kMax];
  std::int16_t next[kMax];
  std::int16_t head[64];
  std::uint8_t count[64];
  std::uint64_t used_groups = 0;
  int n = 0, ways = 0;
  const int groups = unit_path_ ? period_ / words_ : period_;
  auto add = [&](std::uint32_t u, int g) {
    if (!((used_groups >> g) & 1)) {
      used_groups |= std::uint64_t{1} << g;
      head[g] = -1;
      count[g] = 0;
    }
    for (int k = head[g]; k >= 0; k = next[k])
      if (unit[k] == u) return;
    unit[n] = u;
    next[n] = head[g];
    head[g] = static_cast<std::int16_t>(n++);
    if (++count[g] > ways) ways = count[g];
  };
  for (std::uint64_t m = lanes; m; m &= m - 1) {
    int l = std::countr_zero(m);
    std::uint32_t a = addr[l];
    if (unit_path_) {
      std::uint32_t u = a / static_cast<std::uint32_t>(ins_.bytes);
      add(u, static_cast<int>(u % static_cast<std::uint32_t>(groups)));
    } else {
      for (int w = 0; w < words_; ++w) {
        std::uint32_t word = a / 4 + static_cast<std::uint32_t>(w);
        add(word, static_cast<int>(word % static_cast<std::uint32_t>(period_)));
      }
    }
  }
  if (unit_path_) {
    std::uint64_t group_banks = (std::uint64_t{1} << words_) - 1;
    banks = 0;
    for (std::uint64_t g = used_groups; g; g &= g - 1) banks |= group_banks << (std::countr_zero(g) * words_);
  } else {
    banks = used_groups;
  }
  return ways;
}

Analysis BankModel::analyze(std::span<const std::uint32_t> addresses, std::uint64_t active) const {
  if (static_cast<int>(addresses.size()) != wave_size_)
    throw ModelError(ins_.name + " takes " + std::to_string(wave_size_) + " lane addresses, got " +
                     std::to_string(addresses.size()));
  std::uint32_t align = ins_.bytes == 12 ? 4u : static_cast<std::uint32_t>(ins_.bytes);
  std::uint64_t lanes_mask = wave_size_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << wave_size_) - 1;
  active &= lanes_mask;
  for (std::uint64_t m = active; m; m &= m - 1) {
    int l = std::countr_zero(m);
    if (addresses[l] % align != 0)
      throw ModelError("lane " + std::to_string(l) + ": address " + std::to_string(addresses[l]) + " is not " +
                       std::to_string(align) + "-byte aligned for " + ins_.name);
  }
  const std::uint64_t* masks = phase_mask_.data();
  int count = phases_;
  if (merged_ && quads_fit(addresses, active)) {
    masks = merged_mask_.data();
    count = merged_;
  }
  Analysis r;
  r.entries = count;
  for (int p = 0; p < count; ++p) {
    Pass& pass = r.pass[p];
    pass.lanes = masks[p];
    pass.active = masks[p] & active;
    if (!pass.active) continue;
    pass.ways = ways_of(pass.active, addresses, pass.banks);
    ++r.passes;
    r.cycles += pass.ways;
    r.conflict_cycles += pass.ways - 1;
    if (pass.ways > r.max_ways) r.max_ways = pass.ways;
  }
  return r;
}

}  // namespace tilelab::lds
