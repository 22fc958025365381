// One compute unit of the cycle model: the sequencer that visits one SIMD
// per clock and picks which of its waves issues (s_setprio, then the
// oldest), the waves' wait counters, barriers and workgroup placement, and
// the units it issues to, each a component of its own: the SIMDs' VALU and
// matrix core (simd_unit.hpp), the LDS ports (lds_port.hpp), the vector
// memory path with its L1 (vector_memory.hpp) and beyond it the chip
// (chip_memory.hpp) or the CU's share of memory; the instruction and scalar
// caches (sqc.hpp), whose misses go the same way.
//
// Private to sim/timing: CycleModel (cycle_model.cpp) runs the CUs.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/timing/chip_memory.hpp"
#include "sim/timing/cycle_model.hpp"
#include "sim/timing/dispatcher.hpp"
#include "sim/timing/fast_forward.hpp"
#include "sim/timing/instruction_timing.hpp"
#include "sim/timing/lds_port.hpp"
#include "sim/timing/mfma_hazards.hpp"
#include "sim/timing/pending_times.hpp"
#include "sim/timing/simd_unit.hpp"
#include "sim/timing/sqc.hpp"
#include "sim/timing/vector_memory.hpp"
#include "sim/timing/wait_counters.hpp"

namespace tilelab::timing {

// The run-wide sums the CUs add to, one per thread; added up at the end
// (sums of whole numbers: the order does not change them).
struct alignas(64) Tally {  // one per thread, each on its own cache lines
  double mfma_busy = 0, valu_busy = 0, lds_busy = 0, mfma_flops = 0;
  std::array<std::uint64_t, kReasonCount> stall_cycles{};
  std::uint64_t issue_cycles = 0, wave_cycles = 0, lds_idx_active = 0, lds_conflicts = 0, hazard_count = 0;
  bool unmodelled_lds = false;
  std::vector<PcStats> per_instruction;
};

// A transcendental op's result not yet ready for a dependent op of its wave.
struct PendingWrite {
  VRegs regs;
  std::uint64_t ready;
};

class CycleModel::ComputeUnit {
 public:
  ComputeUnit(CycleModel& model, emu::Emulator& e, emu::GlobalMemory& memory, const emu::Launch& launch,
              std::uint64_t kernarg, const std::vector<InstructionTiming>& table, int cu, int max_workgroups,
              std::unique_ptr<MemoryBeyondL1> beyond, WorkQueue& queue)
      : m_(model), t_(model.arch_.timing), e_(e), memory_(memory), launch_(launch), kernarg_(kernarg), table_(table),
        cu_(cu), max_workgroups_(max_workgroups), simds_(static_cast<std::size_t>(model.arch_.simds_per_cu), Simd(t_)),
        ports_(simds_.size() / static_cast<std::size_t>(t_.simds_per_lds_port), LdsPort(model.arch_)), beyond_(std::move(beyond)), port_(*beyond_, pending_), vmem_(t_, port_, &pending_),
        deferrable_(dynamic_cast<CuPort*>(beyond_.get()) != nullptr), queue_(&queue),
        icache_(t_.instruction_cache_bytes, t_.instruction_cache_ways, t_.sqc_line_bytes, t_.l1_line_bytes),
        kcache_(t_.scalar_cache_bytes, t_.scalar_cache_ways, t_.sqc_line_bytes, t_.l1_line_bytes) {}

  // The CU this thread is simulating (the emulator's observer calls land there), or null.
  static ComputeUnit* current();

  // Places the next workgroup of its queue at cycle `at` if it fits.
  bool place(std::uint64_t at);
  // Replaces every pending cycle by its cycle once the chip has been given this
  // quantum's deferred requests (in CU order: the single-threaded order).
  void settle();
  // Runs every cycle before `limit`; false once no wave is left.
  bool advance(std::uint64_t limit);
  bool live() const { return live_waves_ > 0; }
  // One quantum, up to `limit`, adding to `tally`: beside other CUs
  // (`parallel`: its chip requests deferred, stopping early where
  // must_wait_for_others says) or in CU order.  False once no wave is left.
  bool run(std::uint64_t limit, Tally& tally, bool parallel) {
    tally_ = &tally;
    parallel_ = parallel;
    suspended_ = false;
    port_.set_deferring(parallel && deferrable_);
    set_current(this);
    struct Leave {
      ~Leave() { set_current(nullptr); }
    } leave;
    return advance(limit);
  }
  bool suspended() const { return suspended_; }

  // The observer's side: what the executing instruction touched.
  // Several calls for one instruction (a scratch access: one per dword of
  // the swizzled segment) add up: lines ascending, each once.
  void global_access(const std::uint64_t* a, std::uint64_t active, int bytes) {
    if (lines_.empty()) {
      coalesce(a, active, bytes, t_.l1_line_bytes, lines_);
      return;
    }
    std::vector<LineUse> more, merged;
    coalesce(a, active, bytes, t_.l1_line_bytes, more);
    merged.reserve(lines_.size() + more.size());
    std::size_t i = 0, j = 0;
    while (i < lines_.size() || j < more.size()) {
      if (j == more.size() || (i < lines_.size() && lines_[i].line < more[j].line)) merged.push_back(lines_[i++]);
      else if (i == lines_.size() || more[j].line < lines_[i].line) merged.push_back(more[j++]);
      else merged.push_back({lines_[i].line, lines_[i].bytes + more[j].bytes}), ++i, ++j;
    }
    lines_ = std::move(merged);
  }
  void lds_access(int cycles, int conflicts, bool modelled) {
    lds_cycles_ += modelled ? cycles : 1;  // [?] an LDS op without a phase table: one pass
    lds_conflicts_ += conflicts;
    if (!modelled) tally_->unmodelled_lds = true;
  }
  void scalar_access(std::uint64_t address, int bytes) {
    scalar_addresses_.push_back(address);
    const std::uint64_t last = address + static_cast<std::uint64_t>(bytes) - 1;  // a load across two lines
    if (last / static_cast<std::uint64_t>(t_.sqc_line_bytes) != address / static_cast<std::uint64_t>(t_.sqc_line_bytes))
      scalar_addresses_.push_back(last);
  }
  std::uint64_t now() const { return now_; }
  // The SQC's hits and misses (instruction cache, scalar cache).
  std::array<std::uint64_t, 4> sqc_counts() const {
    return {icache_.hits(), icache_.misses(), kcache_.hits(), kcache_.misses()};
  }

 private:
  // A SIMD as the sequencer sees it: its execution units and its wave slots.
  struct Simd {
    explicit Simd(const arch::Timing& t) : units(t) {}
    SimdUnit units;
    std::vector<int> waves;  // resident, in issue priority order
    bool order_dirty = false;
    int resident = 0;
    std::uint8_t slots_used = 0;  // bit per wave slot
  };
  struct Wave {
    int group = -1, index = 0;  // workgroup (in groups_) and wave within it
    std::uint32_t id = 0;       // in the run
    int simd = 0, slot = 0;
    std::uint64_t age = 0;
    bool live = false, at_barrier = false;
    std::uint64_t start = 0, end = 0;
    std::uint64_t next_try = 0;       // no attempt before this cycle
    std::uint64_t ready = 0;          // s_nop, s_sleep, branch refetch, barrier release
    Reason ready_reason = Reason::none;
    std::uint64_t first_attempt = 0, idle = 0;
    Reason reason = Reason::none;     // why the current instruction waits, since `since`
    std::uint64_t since = 0;
    std::array<std::uint32_t, kReasonCount> split{};
    WaitCounter vm, lgkm;
    std::uint64_t last_vm = 0, last_lds = 0, mfma_done = 0;
    std::vector<PendingWrite> pending;
    std::unique_ptr<MfmaHazards> hazards;
    Kind next_kind = Kind::plain;  // of the instruction at its pc (must_wait_for_others reads it often)
    // The instruction-cache line of its pc and when that line is there (a
    // pending cycle while the chip has not answered).
    std::uint64_t fetch_line = ~std::uint64_t{0}, fetched = 0;
  };
  struct Group {
    emu::Emulator::Workgroup wg;
    std::vector<int> waves;
    int live = 0;
    std::uint64_t end = 0;
    std::uint32_t id = 0;  // in the run, in placement order
    std::uint64_t instructions = 0;  // wave-instructions its waves issued
    GroupId grid_id{};               // its (x, y, z) in the grid
    std::uint64_t start = 0;         // the cycle it was placed
  };

  std::uint64_t next_cycle(std::uint64_t from);
  bool must_wait_for_others(std::uint64_t c);
  void slot(std::uint64_t c);
  std::pair<Reason, std::uint64_t> blocked(Wave& w, const InstructionTiming& it, std::uint64_t c);
  void note(Wave& w, Reason r, std::uint64_t c);
  void issue(Wave& w, const InstructionTiming& it, std::uint64_t c);
  std::uint64_t lds_timing(Wave& w, std::uint64_t c);
  std::uint64_t vmem_timing(Wave& w, const InstructionTiming& it, std::uint64_t c);
  std::uint64_t smem_timing(std::uint64_t c);
  void fetch_instruction(Wave& w, std::uint32_t index, std::uint64_t c);
  void finish(Wave& w, std::uint64_t c);
  void release_barrier(Group& g, std::uint64_t c);
  void sort_simd(Simd& s);
  [[noreturn]] void fail(std::uint32_t index, const std::string& what) const;
  static void set_current(ComputeUnit* u);

  CycleModel& m_;
  const arch::Timing& t_;
  emu::Emulator& e_;
  emu::GlobalMemory& memory_;
  const emu::Launch& launch_;
  std::uint64_t kernarg_;
  const std::vector<InstructionTiming>& table_;
  int cu_, max_workgroups_;
  std::vector<Simd> simds_;
  // The SIMD whose issue slot cycle c is (c mod SIMDs; a mask for the usual
  // power of two: a 64-bit division per SIMD was half of next_cycle()).
  std::size_t simd_at(std::uint64_t c) const {
    const std::uint64_t n = simds_.size();
    return static_cast<std::size_t>((n & (n - 1)) == 0 ? c & (n - 1) : c % n);
  }
  std::vector<LdsPort> ports_;
  PendingTimes pending_;                   // this quantum's pending cycles (threads only)
  std::unique_ptr<MemoryBeyondL1> beyond_;  // the CU's way into the chip (or its memory share)
  DeferringPort port_;                     // beyond_, deferred while the CU runs beside others
  VectorMemory vmem_;
  bool deferrable_;                        // beyond_ is the shared chip (a CU's own memory share needs no deferring)
  std::uint64_t ta_free_ = 0;               // the CU's address unit (TA) takes the next VMEM instruction
  std::vector<Wave> waves_;
  std::deque<Group> groups_;
  WorkQueue* queue_;
  SqcCache icache_, kcache_;                  // instructions, scalar data
  std::vector<std::uint64_t> scalar_addresses_;  // the executing s_load's lines
  std::uint64_t next_ = 0;  // the next cycle to look at
  int resident_groups_ = 0, live_waves_ = 0;
  std::uint64_t now_ = 0, age_ = 0, last_end_ = 0, busy_cycles_ = 0;
  // Threads: where this CU's run-wide sums go (its thread's), whether it runs
  // beside others (its chip requests deferred), the quantum's end, whether it
  // stopped early for the others (must_wait_for_others).
  Tally* tally_ = nullptr;
  bool parallel_ = false, suspended_ = false;
  std::uint64_t limit_ = 0;
  // What this quantum added to the run's ordered records, handed to the run
  // in CU order (CycleModel::take_records).
  std::vector<IssueEvent> events_;
  std::vector<Hazard> hazards_;
  std::vector<WaveSpan> spans_;
  std::vector<TimedGroup> retired_;
  // what the executing instruction touched
  std::vector<LineUse> lines_;
  // slot()'s copy of its SIMD's waves (kept: a copy per slot was an allocation per slot)
  std::vector<int> slot_order_;
  int lds_cycles_ = 0, lds_conflicts_ = 0;
  std::uint64_t instructions_ = 0;
  friend class CycleModel;
};

}  // namespace tilelab::timing
