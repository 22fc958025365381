#include "sim/timing/simd_unit.hpp"

#include <algorithm>

namespace tilelab::timing {

std::pair<Reason, std::uint64_t> SimdUnit::busy(const InstructionTiming& it, std::uint64_t c) const {
  switch (it.kind) {
    case Kind::valu:
    case Kind::trans: {
      const std::uint64_t free = it.pk_f32 ? std::max(valu_free_, pk_valu_free_) : valu_free_;
      if (free > c) return {Reason::busy_valu, free};
      break;
    }
    case Kind::mfma:
      if (xdl_free_ > c) return {Reason::busy_mfma, xdl_free_};
      if (valu_free_ > c) return {Reason::busy_valu, valu_free_};
      break;
    default: break;
  }
  return {Reason::none, c};
}

SimdUnit::ValuIssue SimdUnit::issue_valu(const InstructionTiming& it, std::uint64_t c) {
  // A transcendental holds the VALU for trans_cycles (a reduced rate); its
  // result reaches a dependent op trans_latency later, a plain op's after
  // valu_latency (or its own hold, if longer).
  const bool trans = it.kind == Kind::trans;
  const int held = trans ? t_->trans_cycles : t_->valu_cycles;
  valu_free_ = c + static_cast<std::uint64_t>(held);
  pk_valu_free_ = std::max(pk_valu_free_, valu_free_);
  const int latency = trans ? t_->trans_latency : std::max(t_->valu_latency, held);
  return {held, c + static_cast<std::uint64_t>(latency)};
}

std::uint64_t SimdUnit::issue_mfma(const InstructionTiming& it, std::uint64_t c) {
  const std::uint64_t period = static_cast<std::uint64_t>(t_->issue_period);
  xdl_free_ = c + static_cast<std::uint64_t>(it.mfma_cycles);
  valu_free_ = c + static_cast<std::uint64_t>(it.valu_slot) * period;
  pk_valu_free_ = c + static_cast<std::uint64_t>(it.pk_valu_slot) * period;
  return xdl_free_;
}

}  // namespace tilelab::timing
