#include "sim/timing/compute_unit.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <limits>

namespace tilelab::timing {

namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

std::string hex(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

thread_local CycleModel::ComputeUnit* tl_current = nullptr;

}  // namespace

CycleModel::ComputeUnit* CycleModel::ComputeUnit::current() { return tl_current; }
void CycleModel::ComputeUnit::set_current(ComputeUnit* u) { tl_current = u; }

void CycleModel::ComputeUnit::fail(std::uint32_t index, const std::string& what) const {
  const isa::Instruction& in = e_.program().instructions[index];
  throw TimingError(e_.kernel().name + " pc " + hex(in.pc) + " (" + in.text + "): " + what);
}

void CycleModel::ComputeUnit::sort_simd(Simd& s) {
  std::sort(s.waves.begin(), s.waves.end(), [&](int a, int b) {
    const Wave &x = waves_[static_cast<std::size_t>(a)], &y = waves_[static_cast<std::size_t>(b)];
    const int px = groups_[static_cast<std::size_t>(x.group)].wg.waves[static_cast<std::size_t>(x.index)].priority;
    const int py = groups_[static_cast<std::size_t>(y.group)].wg.waves[static_cast<std::size_t>(y.index)].priority;
    return px != py ? px > py : x.age < y.age;  // s_setprio first, then the oldest [?] (direction not documented)
  });
  s.order_dirty = false;
}

// Places the next workgroup of the queue if it fits (at most max_workgroups_
// resident; waves spread over the SIMDs with the fewest resident waves).
bool CycleModel::ComputeUnit::place(std::uint64_t at) {
  if (queue_->empty() || resident_groups_ >= max_workgroups_) return false;
  const GroupId id = queue_->take();
  groups_.push_back(Group{e_.start_workgroup(launch_, kernarg_, id), {}, 0, 0,
                          static_cast<std::uint32_t>(m_.workgroups_placed_++)});
  Group& g = groups_.back();
  g.grid_id = id;
  g.start = at;
  const int gi = static_cast<int>(groups_.size() - 1);
  ++resident_groups_;
  for (int n = 0; n < static_cast<int>(g.wg.waves.size()); ++n) {
    Simd* best = &simds_[0];
    for (Simd& s : simds_)
      if (s.resident < best->resident) best = &s;
    Wave w;
    w.group = gi, w.index = n;
    w.id = static_cast<std::uint32_t>(m_.waves_placed_++);
    w.simd = static_cast<int>(best - simds_.data());
    w.slot = std::countr_one(best->slots_used);
    if (w.slot >= m_.arch_.wave_slots_per_simd) throw TimingError("internal: no free wave slot on a SIMD");
    best->slots_used = static_cast<std::uint8_t>(best->slots_used | (1u << w.slot));
    w.age = age_++;
    w.live = true;
    w.start = w.next_try = w.first_attempt = w.since = at;
    w.hazards = std::make_unique<MfmaHazards>(t_);
    w.next_kind = table_[g.wg.waves[static_cast<std::size_t>(n)].pc].kind;
    fetch_instruction(w, g.wg.waves[static_cast<std::size_t>(n)].pc, at);
    waves_.push_back(std::move(w));
    const int wi = static_cast<int>(waves_.size() - 1);
    best->waves.push_back(wi);
    best->order_dirty = true;
    ++best->resident;
    g.waves.push_back(wi);
    ++g.live, ++live_waves_;
  }
  return true;
}

// The first cycle >= from at which some SIMD's visit finds a wave that may issue.
std::uint64_t CycleModel::ComputeUnit::next_cycle(std::uint64_t from) {
  std::uint64_t best = kNever;
  const std::uint64_t n = simds_.size();
  for (std::size_t s = 0; s < simds_.size(); ++s) {
    std::uint64_t earliest = kNever;
    for (int wi : simds_[s].waves) earliest = std::min(earliest, waves_[static_cast<std::size_t>(wi)].next_try);
    if (earliest == kNever) continue;
    earliest = std::max(earliest, from);
    const std::uint64_t at = simd_at(earliest);  // this SIMD's next visit:
    earliest += at <= s ? s - at : s + n - at;
    best = std::min(best, earliest);
  }
  return best;
}

void CycleModel::ComputeUnit::note(Wave& w, Reason r, std::uint64_t c) {
  if (w.reason != Reason::none) w.split[static_cast<std::size_t>(w.reason)] += static_cast<std::uint32_t>(c - w.since);
  w.reason = r;
  w.since = c;
}

std::pair<Reason, std::uint64_t> CycleModel::ComputeUnit::blocked(Wave& w, const InstructionTiming& it, std::uint64_t c) {
  if (w.at_barrier) return {Reason::barrier, kNever};
  if (c < w.ready) return {w.ready_reason, w.ready};
  if (c < w.fetched) return {Reason::idle, w.fetched};  // its instruction is not in the cache yet
  const Simd& s = simds_[static_cast<std::size_t>(w.simd)];
  switch (it.kind) {
    case Kind::waitcnt: {
      const std::uint64_t vm = it.vmcnt < 0 ? c : w.vm.until_at_most(static_cast<std::size_t>(it.vmcnt), c);
      const std::uint64_t lgkm = it.lgkmcnt < 0 ? c : w.lgkm.until_at_most(static_cast<std::size_t>(it.lgkmcnt), c);
      if (vm > c && vm >= lgkm) return {Reason::waitcnt_vm, vm};
      if (lgkm > c) return {Reason::waitcnt_lgkm, lgkm};
      return {Reason::none, c};
    }
    default: break;
  }
  for (const PendingWrite& p : w.pending)
    if (p.ready > c)
      for (const VRegs& r : it.vregs.reads)
        if (r.overlaps(p.regs)) return {Reason::dependency, p.ready};
  switch (it.kind) {
    case Kind::valu:
    case Kind::trans:
    case Kind::mfma: return s.units.busy(it, c);
    case Kind::smem:
      if (w.lgkm.count(c) >= static_cast<std::size_t>(t_.lgkmcnt_max))
        return {Reason::waitcnt_lgkm, w.lgkm.until_at_most(static_cast<std::size_t>(t_.lgkmcnt_max - 1), c)};
      break;
    case Kind::lds: {
      if (w.lgkm.count(c) >= static_cast<std::size_t>(t_.lgkmcnt_max))
        return {Reason::waitcnt_lgkm, w.lgkm.until_at_most(static_cast<std::size_t>(t_.lgkmcnt_max - 1), c)};
      const std::uint64_t room = ports_[static_cast<std::size_t>(lds_port_of(m_.arch_, w.simd))].room(lds_port_side(m_.arch_, w.simd), c);
      if (room > c) return {Reason::busy_lds, room};
      break;
    }
    case Kind::vmem_load:
    case Kind::vmem_store:
    case Kind::lds_dma: {
      if (w.vm.count(c) >= static_cast<std::size_t>(t_.vmcnt_max))
        return {Reason::waitcnt_vm, w.vm.until_at_most(static_cast<std::size_t>(t_.vmcnt_max - 1), c)};
      if (ta_free_ > c) return {Reason::busy_vmem, ta_free_};
      if (it.kind != Kind::vmem_store) {
        const std::uint64_t room = vmem_.room_for(c, t_.l1_line_bytes);
        if (room > c) return {Reason::busy_vmem, room};
      }
      break;
    }
    default: break;
  }
  return {Reason::none, c};
}

std::uint64_t CycleModel::ComputeUnit::lds_timing(Wave& w, std::uint64_t c) {
  LdsPort& p = ports_[static_cast<std::size_t>(lds_port_of(m_.arch_, w.simd))];
  const int passes = std::max(1, lds_cycles_);
  const LdsPort::Service served = p.serve(lds_port_side(m_.arch_, w.simd), c, passes);
  tally_->lds_busy += static_cast<double>(served.clocks);
  tally_->lds_idx_active += static_cast<std::uint64_t>(passes);
  tally_->lds_conflicts += static_cast<std::uint64_t>(lds_conflicts_);
  const std::uint64_t done = std::max(served.data_back, w.last_lds);  // a wave's LDS results return in order
  w.last_lds = done;
  w.lgkm.push(done);
  return done;
}

// A scalar load: its lines from the scalar cache (a miss through the L2),
// then the cache's own latency (timing.smem_latency).
std::uint64_t CycleModel::ComputeUnit::smem_timing(std::uint64_t c) {
  CycleMax data(&pending_);
  data.add(c);
  for (std::uint64_t a : scalar_addresses_) data.add(kcache_.fetch(a, c, port_));
  return data.finish(static_cast<std::uint64_t>(t_.smem_latency));
}

// Code lives at kCodeBase + its offset in the code object (sqc.hpp).  A wave whose next instruction is on a new instruction-cache line asks for
// it when it issues the one before (or, its first, when it is placed).
void CycleModel::ComputeUnit::fetch_instruction(Wave& w, std::uint32_t index, std::uint64_t c) {
  const std::uint64_t address = kCodeBase + e_.program().instructions[index].pc;
  const std::uint64_t line = address / static_cast<std::uint64_t>(t_.sqc_line_bytes);
  if (line == w.fetch_line) return;
  w.fetch_line = line;
  w.fetched = icache_.fetch(address, c, port_, t_.instruction_prefetch_lines);
}

std::uint64_t CycleModel::ComputeUnit::vmem_timing(Wave& w, const InstructionTiming& it, std::uint64_t c) {
  const std::uint64_t start = std::max(c, ta_free_);
  ta_free_ = start + static_cast<std::uint64_t>(t_.vmem_issue_cycles);
  const bool store = it.kind == Kind::vmem_store;
  CycleMax in_order(&pending_);  // vmcnt returns in order
  in_order.add(vmem_.access(ta_free_, lines_, store));
  in_order.add(w.last_vm);
  const std::uint64_t done = in_order.finish(0);
  w.last_vm = done;
  w.vm.push(done);
  return done;
}

void CycleModel::ComputeUnit::release_barrier(Group& g, std::uint64_t c) {
  for (int wi : g.waves) {
    Wave& o = waves_[static_cast<std::size_t>(wi)];
    if (!o.live || !o.at_barrier) continue;
    o.at_barrier = false;
    o.ready = std::max(o.ready, c + static_cast<std::uint64_t>(t_.barrier_cycles));
    o.ready_reason = Reason::barrier;
    o.next_try = std::max(c, o.next_try == kNever ? c : o.next_try);
  }
}

void CycleModel::ComputeUnit::finish(Wave& w, std::uint64_t c) {
  Group& g = groups_[static_cast<std::size_t>(w.group)];
  // The wave's slot is free once its memory operations are back and its last
  // MFMA has left the matrix core (s_endpgm does not cut an MFMA short).
  const std::uint64_t drained = std::max({c + static_cast<std::uint64_t>(t_.issue_period), w.vm.last(), w.lgkm.last()});
  w.end = std::max(drained, w.mfma_done);
  tally_->stall_cycles[static_cast<std::size_t>(Reason::waitcnt_vm)] += drained - c - static_cast<std::uint64_t>(t_.issue_period);
  tally_->stall_cycles[static_cast<std::size_t>(Reason::busy_mfma)] += w.end - drained;
  w.live = false;
  w.next_try = kNever;
  Simd& s = simds_[static_cast<std::size_t>(w.simd)];
  std::erase(s.waves, static_cast<int>(&w - waves_.data()));
  --s.resident;
  s.slots_used = static_cast<std::uint8_t>(s.slots_used & ~(1u << w.slot));
  spans_.push_back({w.id, g.id,
                                     static_cast<std::uint16_t>(cu_), static_cast<std::uint8_t>(w.simd),
                                     static_cast<std::uint8_t>(w.slot), w.start, w.end});
  tally_->wave_cycles += w.end - w.start;
  g.end = std::max(g.end, w.end);
  last_end_ = std::max(last_end_, w.end);
  --live_waves_;
  if (--g.live == 0) {
    --resident_groups_;
    retired_.push_back({g.grid_id, g.start, g.end, g.instructions});
    // Its register files go back to the process's spares (emu::VectorFile),
    // which the next workgroup placed below takes, already mapped.
    g.wg.waves.clear();
    g.wg.waves.shrink_to_fit();
    g.wg.lds.clear();
    g.wg.lds.shrink_to_fit();
    while (place(g.end)) {
    }
  }
}

void CycleModel::ComputeUnit::issue(Wave& w, const InstructionTiming& it, std::uint64_t c) {
  Group& g = groups_[static_cast<std::size_t>(w.group)];
  emu::Wave& ew = g.wg.waves[static_cast<std::size_t>(w.index)];
  const std::uint32_t index = ew.pc;
  if (!it.why_untimed.empty()) fail(index, it.why_untimed);
  note(w, Reason::none, c);
  const std::uint64_t pc = e_.program().instructions[index].pc;
  const VectorUse& vu = it.vregs;
  if (!vu.reads.empty() || !vu.writes.empty() || vu.has_srcc || vu.writes_exec) {
    const std::size_t before = hazards_.size();
    w.hazards->check(vu, pc, c, w.id, hazards_);
    tally_->hazard_count += hazards_.size() - before;
    if (hazards_.size() > 1000) hazards_.resize(1000);  // the run keeps the first thousand, counts all
  }

  lines_.clear();
  scalar_addresses_.clear();
  lds_cycles_ = lds_conflicts_ = 0;
  now_ = c;
  e_.step(memory_, g.wg, w.index);
  w.next_kind = ew.done ? Kind::plain : table_[ew.pc].kind;
  if (!ew.done) fetch_instruction(w, ew.pc, c);
  ++instructions_;
  ++g.instructions;

  const std::uint64_t period = static_cast<std::uint64_t>(t_.issue_period);
  Simd& s = simds_[static_cast<std::size_t>(w.simd)];
  std::uint64_t complete = c + period;
  Tally& r = *tally_;
  switch (it.kind) {
    case Kind::valu:
    case Kind::trans: {
      const SimdUnit::ValuIssue v = s.units.issue_valu(it, c);
      r.valu_busy += v.held;
      w.hazards->issued(vu, pc, c);  // a VGPR or EXEC write a later MFMA must wait for
      complete = v.ready;
      if (complete > c + period) {
        std::erase_if(w.pending, [&](const PendingWrite& p) { return p.ready <= c; });
        for (const VRegs& d : vu.writes) w.pending.push_back({d, complete});
      }
      break;
    }
    case Kind::mfma:
      // The MFMA takes the VALU's issue slot; the VALU takes other ops from
      // the slots the co-issue rules give (instruction_timing.cpp).
      complete = s.units.issue_mfma(it, c);
      r.mfma_busy += it.mfma_cycles;
      r.mfma_flops += it.flops;
      w.mfma_done = complete;
      w.hazards->issued(vu, pc, c);
      break;
    case Kind::smem:
      complete = smem_timing(c);
      w.lgkm.push(complete);
      break;
    case Kind::lds: complete = lds_timing(w, c); break;
    case Kind::vmem_load:
    case Kind::vmem_store:
    case Kind::lds_dma: complete = vmem_timing(w, it, c); break;
    case Kind::branch:
      if (ew.pc != index + 1) {  // taken: the instruction buffer refills
        w.ready = c + static_cast<std::uint64_t>(t_.branch_taken_cycles);
        w.ready_reason = Reason::idle;
      }
      break;
    case Kind::nop:
      w.ready = c + period * static_cast<std::uint64_t>(std::min(it.count, 15) + 1);
      w.ready_reason = Reason::dependency;
      break;
    case Kind::sleep:
      w.ready = c + static_cast<std::uint64_t>(t_.sleep_cycles) * static_cast<std::uint64_t>(it.count);
      w.ready_reason = Reason::sleep;
      break;
    case Kind::setprio: s.order_dirty = true; break;
    default: break;
  }

  // The thread-trace record of this instruction.  Cycles not attributed to a
  // reason (an unaligned first attempt waiting for its SIMD's visit) count as
  // arbitration for the issue slot.
  const std::uint32_t stall = static_cast<std::uint32_t>(c - w.first_attempt);
  std::uint32_t attributed = 0;
  for (std::uint32_t x : w.split) attributed += x;
  if (stall > attributed) w.split[static_cast<std::size_t>(Reason::arbitration)] += stall - attributed;
  std::size_t dominant = 0;
  for (std::size_t k = 1; k < w.split.size(); ++k)
    if (w.split[k] > w.split[dominant]) dominant = k;
  const Reason reason = stall ? static_cast<Reason>(dominant) : Reason::none;
  PcStats& ps = r.per_instruction[index];
  ++ps.hits;
  ps.latency += stall + period;
  ps.stall += stall;
  ps.idle += w.idle;
  for (std::size_t k = 0; k < w.split.size(); ++k) {
    ps.stall_by_reason[k] += w.split[k];
    r.stall_cycles[k] += w.split[k];
  }
  r.stall_cycles[static_cast<std::size_t>(Reason::idle)] += w.idle;
  r.issue_cycles += period;
  if (m_.options_.max_events) events_.push_back({w.id, index, reason, stall, static_cast<std::uint32_t>(w.idle), c, complete});
  w.split.fill(0);

  // The next instruction's first attempt.
  const std::uint64_t next = c + period;
  if (w.ready_reason == Reason::idle && w.ready > next) {
    w.first_attempt = w.ready;
    w.idle = w.ready - next;
  } else {
    w.first_attempt = next;
    w.idle = 0;
  }
  w.since = w.first_attempt;
  w.next_try = w.first_attempt;

  if (it.kind == Kind::barrier && ew.at_barrier) {  // waits, unevaluated, until the last wave arrives
    w.at_barrier = true;
    w.next_try = kNever;
    w.reason = Reason::barrier;
  }
  if (it.kind == Kind::barrier || it.kind == Kind::endpgm) {  // the last arrival (or an ending wave) releases the others
    bool released = false;
    for (int wi : g.waves) {
      const Wave& o = waves_[static_cast<std::size_t>(wi)];
      if (o.live && o.at_barrier && !g.wg.waves[static_cast<std::size_t>(o.index)].at_barrier) released = true;
    }
    if (released || (it.kind == Kind::barrier && !ew.at_barrier)) {
      release_barrier(g, c);
      if (it.kind == Kind::barrier) {
        w.ready = std::max(w.ready, c + static_cast<std::uint64_t>(t_.barrier_cycles));
        w.ready_reason = Reason::barrier;
      }
    }
  }
  if (ew.done) finish(w, c);
}

// Beside other CUs, whether this SIMD's visit at c needs what only the
// single-threaded order has: a wave ending (its end waits on the chip, and
// its slot takes the next workgroup from the queue the XCD's CUs share), or
// a wait whose reason compares a cycle the chip has not given with another
// past the quantum's end (vmcnt against lgkmcnt).  The CU then stops before
// the visit and goes on in CU order once the chip has its requests.
bool CycleModel::ComputeUnit::must_wait_for_others(std::uint64_t c) {
  const Simd& s = simds_[simd_at(c)];
  for (int wi : s.waves) {
    Wave& w = waves_[static_cast<std::size_t>(wi)];
    if (!w.live || w.next_try > c || (w.next_kind != Kind::endpgm && w.next_kind != Kind::waitcnt)) continue;
    if (w.next_kind == Kind::endpgm) return true;
    const InstructionTiming& it = table_[groups_[static_cast<std::size_t>(w.group)].wg.waves[static_cast<std::size_t>(w.index)].pc];
    // (at most n outstanding only from limit_ on: more than n are not back before it)
    if (it.vmcnt >= 0 && it.lgkmcnt >= 0 && !w.at_barrier && c >= w.ready &&
        w.vm.at_least(limit_) > static_cast<std::size_t>(it.vmcnt) &&
        w.lgkm.at_least(limit_) > static_cast<std::size_t>(it.lgkmcnt) && (w.vm.has_pending() || w.lgkm.has_pending()))
      return true;
  }
  return false;
}

void CycleModel::ComputeUnit::settle() {
  if (pending_.empty()) return;
  pending_.flush(*beyond_);
  vmem_.settle(pending_);
  icache_.settle(pending_);
  kcache_.settle(pending_);
  for (const Simd& s : simds_)  // the resident waves (an ended wave's times were all known at its end)
    for (int wi : s.waves) {
      Wave& w = waves_[static_cast<std::size_t>(wi)];
      w.vm.settle(pending_);
      w.lgkm.settle(pending_);
      w.last_vm = pending_.value(w.last_vm);
      w.fetched = pending_.value(w.fetched);
    }
  for (IssueEvent& e : events_) e.complete = pending_.value(e.complete);
  pending_.clear();
}

void CycleModel::ComputeUnit::slot(std::uint64_t c) {
  Simd& s = simds_[simd_at(c)];
  if (s.order_dirty) sort_simd(s);
  unsigned used = 0;  // issue classes taken in this slot
  slot_order_.assign(s.waves.begin(), s.waves.end());  // a wave ending in this slot leaves s.waves
  for (int wi : slot_order_) {
    Wave& w = waves_[static_cast<std::size_t>(wi)];
    if (!w.live || w.next_try > c) continue;
    const emu::Wave& ew = groups_[static_cast<std::size_t>(w.group)].wg.waves[static_cast<std::size_t>(w.index)];
    const InstructionTiming& it = table_[ew.pc];
    const auto [why, until] = blocked(w, it, c);
    if (until > c) {
      if (why != w.reason) note(w, why, c);
      // Beside other CUs, a wait past the quantum's end may rest on a
      // pending cycle: the wave looks again in the next quantum, with the
      // cycles known (it finds the same reason and cycle then).
      w.next_try = parallel_ && until >= limit_ ? limit_ : until;
      continue;
    }
    const unsigned bit = it.unit == Unit::none ? 0u : 1u << static_cast<unsigned>(it.unit);
    if (used & bit) {
      if (w.reason != Reason::arbitration) note(w, Reason::arbitration, c);
      w.next_try = c + static_cast<std::uint64_t>(t_.issue_period);
      continue;
    }
    used |= bit;
    issue(w, it, c);
  }
}

bool CycleModel::ComputeUnit::advance(std::uint64_t limit) {
  if (live_waves_ == 0) return false;
  limit_ = limit;
  for (std::uint64_t c = next_cycle(next_); live_waves_ > 0; c = next_cycle(c + 1)) {
    if (c == kNever)
      throw TimingError(e_.kernel().name + " on CU " + std::to_string(cu_) +
                        ": no wave can make progress (every live wave waits at a barrier no other wave will reach)");
    if (c >= limit || (parallel_ && must_wait_for_others(c))) {
      suspended_ = c < limit;
      next_ = c;
      return true;
    }
    slot(c);
  }
  busy_cycles_ = last_end_;
  return false;
}

}  // namespace tilelab::timing
