#include "sim/timing/cycle_model.hpp"

#include "sim/timing/compute_unit.hpp"
#include "sim/timing/pending_times.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <deque>
#include <limits>
#include <set>

#include "sim/lds/occupancy.hpp"
#include "sim/timing/instruction_timing.hpp"
#include "sim/timing/chip_memory.hpp"
#include "sim/timing/fetch_footprint.hpp"
#include "sim/timing/sqc.hpp"
#include "sim/timing/vector_memory.hpp"

namespace tilelab::timing {

void check_cus(long long cus) {
  if (cus < 0 || cus > kMaxCus)
    throw TimingError("cus must be between 0 (the chip's CUs) and " + std::to_string(kMaxCus));
}

namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();


}  // namespace

// ---- result helpers --------------------------------------------------------

double TimingResult::mfma_utilisation() const {
  const double d = static_cast<double>(cycles) * cus_used * simds_per_cu;
  return d > 0 ? mfma_busy / d : 0;
}
double TimingResult::valu_utilisation() const {
  const double d = static_cast<double>(cycles) * cus_used * simds_per_cu;
  return d > 0 ? valu_busy / d : 0;
}
double TimingResult::lds_utilisation() const {
  const double d = static_cast<double>(cycles) * cus_used * lds_ports_per_cu;
  return d > 0 ? lds_busy / d : 0;
}
double TimingResult::memory_utilisation() const {
  if (xcds > 0) return level_utilisation(hbm_busy, hbm_channels);
  const double d = static_cast<double>(cycles) * cus_used;
  return d > 0 ? memory_busy / d : 0;  // busy: transferring at the CU's share
}
double TimingResult::level_utilisation(double busy, int units) const {
  const double d = static_cast<double>(cycles) * units;
  return d > 0 ? busy / d : 0;
}
std::string TimingResult::limiter() const {
  std::vector<std::pair<double, const char*>> u = {
      {mfma_utilisation(), "MFMA"}, {valu_utilisation(), "VALU"}, {lds_utilisation(), "LDS"}};
  if (xcds > 0) {
    u.push_back({level_utilisation(l2_busy, l2_channels), "L2"});
    u.push_back({level_utilisation(fabric_busy, fabric_links), "fabric"});
    u.push_back({level_utilisation(mall_busy, mall_channels), "MALL"});
    u.push_back({level_utilisation(hbm_busy, hbm_channels), "HBM"});
  } else {
    u.push_back({memory_utilisation(), "global memory"});
  }
  const auto best = std::max_element(u.begin(), u.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return best->first >= 0.5 ? best->second : "latency";
}

// ---- one compute unit ------------------------------------------------------

// ---- sampling --------------------------------------------------------------

namespace {

// A sampled run's totals for the whole chip.  `counts` multiplies what the
// chip adds up (workgroups' instructions, traffic, counters): grid workgroups
// / workgroups simulated.  `busy` multiplies the busy and wave-cycle sums that
// utilisations divide by the simulated CUs and the cycles: 1 for a run
// simulated to its end; with the fast-forward, the workgroups the simulated
// XCD runs / those it ran (its unsimulated rounds keep the timed rounds' rate).
void scale_totals(TimingResult& r, double counts, double busy) {
  r.sample_scale = counts;
  auto scaled = [counts](std::uint64_t v) { return static_cast<std::uint64_t>(std::llround(static_cast<double>(v) * counts)); };
  r.waves = scaled(r.waves);
  r.wave_instructions = scaled(r.wave_instructions);
  r.mfma_flops *= counts;
  r.global_bytes = scaled(r.global_bytes);
  r.hbm_bytes = scaled(r.hbm_bytes);
  r.l1_hits = scaled(r.l1_hits);
  r.l1_misses = scaled(r.l1_misses);
  for (std::uint64_t* v : {&r.icache_hits, &r.icache_misses, &r.scalar_cache_hits, &r.scalar_cache_misses}) *v = scaled(*v);
  ChipCounters& c = r.chip;
  for (std::uint64_t* v : {&c.l2_requests, &c.l2_hits, &c.l2_misses, &c.l2_reads, &c.l2_writes, &c.l2_writebacks,
                           &c.ea_read_requests, &c.ea_write_requests, &c.mall_hits, &c.mall_misses, &c.hbm_bytes})
    *v = scaled(*v);
  for (Counter& k : r.counters)
    if (k.name != "GRBM_GUI_ACTIVE") k.value *= counts;
  auto stretched = [busy](std::uint64_t v) { return static_cast<std::uint64_t>(std::llround(static_cast<double>(v) * busy)); };
  for (double* b : {&r.mfma_busy, &r.valu_busy, &r.lds_busy, &r.memory_busy, &r.l2_busy, &r.fabric_busy, &r.mall_busy, &r.hbm_busy})
    *b *= busy;
  r.wave_cycles = stretched(r.wave_cycles);
  r.issue_cycles = stretched(r.issue_cycles);
  for (std::uint64_t& x : r.stall_cycles) x = stretched(x);
}

// A scaled run's MALL and HBM counters for the chip.  Scaling the lines the
// simulated part read from HBM counts a line that several XCDs (or rounds)
// read once for each; FetchFootprint estimates the chip's fetches, and the
// rest are the MALL hits the other XCDs would have had.  Called after
// scale_totals, before the kernel-end write-back is added.
void estimate_chip_fetches(TimingResult& r, const FetchFootprint& f, double scale, int line_bytes) {
  const std::uint64_t misses = std::min(r.chip.mall_misses, f.chip_fetches(scale));
  const std::uint64_t served = r.chip.mall_misses - misses;
  const std::uint64_t bytes = std::min(r.chip.hbm_bytes, served * static_cast<std::uint64_t>(line_bytes));
  r.chip.mall_misses = misses;
  r.chip.mall_hits += served;
  r.chip.hbm_bytes -= bytes;
  r.hbm_bytes -= std::min(r.hbm_bytes, bytes);
  r.chip_fetches_estimated = true;
  for (Counter& k : r.counters) {
    if (k.name == "MALL_HIT") k.value = static_cast<double>(r.chip.mall_hits);
    if (k.name == "MALL_MISS") k.value = static_cast<double>(r.chip.mall_misses);
    if (k.name == "HBM_BYTES") k.value = static_cast<double>(r.chip.hbm_bytes);
  }
}

// A fast-forwarded run's write-back counters: every line the simulated part
// made dirty is written back once (evicted, or at the end), so the whole grid
// writes back `scale` times as many.  The end's write-back (the time) holds
// only what the L2s can; the lines the untimed rounds evicted are added here,
// to the counters only (their time is in the rounds' extrapolated rate).
void estimate_chip_write_backs(TimingResult& r, const ChipMemory& chip, double scale, int line_bytes) {
  const std::uint64_t lines = static_cast<std::uint64_t>(std::llround(static_cast<double>(chip.l2_lines_dirtied()) * scale));
  if (lines <= r.chip.l2_writebacks) return;
  const std::uint64_t more = lines - r.chip.l2_writebacks, bytes = more * static_cast<std::uint64_t>(line_bytes);
  r.chip.l2_writebacks += more;
  r.chip.ea_write_requests += more;
  r.chip.hbm_bytes += bytes;
  r.hbm_bytes += bytes;
  for (Counter& k : r.counters) {
    if (k.name == "TCC_WRITEBACK" || k.name == "TCC_EA0_WRREQ") k.value += static_cast<double>(more);
    if (k.name == "HBM_BYTES") k.value += static_cast<double>(bytes);
  }
}

// The lines of the kernel's buffers and of its code, in the chip's lines.
std::vector<LineRange> fetch_ranges(const emu::GlobalMemory& memory, const isa::Program& program, int line_bytes) {
  const std::uint64_t line = static_cast<std::uint64_t>(line_bytes);
  auto range = [line](std::uint64_t base, std::uint64_t bytes) {
    return LineRange{base / line, bytes ? (base + bytes - 1) / line - base / line + 1 : 0};
  };
  std::vector<LineRange> out;
  for (const emu::GlobalMemory::Extent& x : memory.extents()) out.push_back(range(x.base, x.bytes));
  if (!program.instructions.empty()) out.push_back(range(kCodeBase, program.instructions.back().pc + 16));
  return out;
}

// GRBM_GUI_ACTIVE: the dispatch's cycles once per XCD (hw-facts: one per XCC).
double gui_active(const TimingResult& r) { return static_cast<double>(r.cycles) * std::max(1, r.xcds); }

// The kernel's end after the last wave: the release writes the dirty L2 lines
// back (ChipMemory::write_back_at_end).  Added after the scaling: it happens
// once per XCD, not per workgroup, so a sampled run counts it `xcds` times.
void add_end_write_back(TimingResult& r, ChipMemory& chip, double xcds, int line_bytes, double dirty_scale) {
  const double hbm_before = chip.hbm_busy(), fabric_before = chip.fabric_busy();
  const auto [done, lines] = chip.write_back_at_end(r.cycles, dirty_scale);
  r.hbm_busy += chip.hbm_busy() - hbm_before;
  r.fabric_busy += chip.fabric_busy() - fabric_before;
  r.memory_busy = r.hbm_busy;
  const std::uint64_t chip_lines = static_cast<std::uint64_t>(std::llround(static_cast<double>(lines) * xcds));
  const std::uint64_t bytes = chip_lines * static_cast<std::uint64_t>(line_bytes);
  r.end_writeback_lines = chip_lines;
  r.end_writeback_cycles = done - r.cycles;
  r.cycles = done;
  r.chip.l2_writebacks += chip_lines;
  r.chip.ea_write_requests += chip_lines;
  r.chip.hbm_bytes += bytes;
  r.hbm_bytes += bytes;
  for (Counter& k : r.counters) {
    if (k.name == "GRBM_GUI_ACTIVE") k.value = gui_active(r);
    if (k.name == "TCC_WRITEBACK" || k.name == "TCC_EA0_WRREQ") k.value += static_cast<double>(chip_lines);
    if (k.name == "HBM_BYTES") k.value += static_cast<double>(bytes);
  }
}

}  // namespace

// The clocks all CUs advance by before they meet again (dispatch()).
constexpr std::uint64_t kQuantumClocks = 256;

// ---- threads ---------------------------------------------------------------
//
// One quantum of every CU on several threads, with the single-threaded run's
// outcome to the bit.  The single-threaded run advances CU 0 through the
// quantum, then CU 1, ...; what one CU does there reaches another only
// through the chip (the L2 and beyond), the queue of workgroups its XCD's
// CUs share, and the run's records.  So the threads take the CUs in order
// and run each through the quantum, with their chip requests deferred (pending_times.hpp) and
// each stopping early before anything that needs the others
// (must_wait_for_others); then, in CU order, each CU's requests go to the
// chip, its pending cycles are settled, a CU that stopped early goes on to the
// quantum's end alone, and its records join the run's.  That hand-over runs
// on whichever thread finishes the next CU in order, beside the others'
// work.  Kernels with global atomics run on one thread: their workgroups
// reach each other through memory within a quantum.
class CycleModel::Quanta {
 public:
  Quanta(CycleModel& model, emu::Emulator& e, std::vector<std::unique_ptr<ComputeUnit>>& units, std::vector<Tally>& tallies)
      : m_(model), units_(units), tallies_(tallies), threads_(static_cast<int>(tallies.size())), sync_(threads_),
        done_(units.size()), live_(units.size()), errors_(units.size()), cursors_(new Cursor[static_cast<std::size_t>(threads_)]) {
    if (threads_ == 1) return;
    main_scope_.emplace(e);
    for (int t = 1; t < threads_; ++t)
      pool_.emplace_back([this, &e, t] {
        emu::Emulator::ThreadScope scope(e);
        for (;;) {
          sync_.arrive_and_wait();
          if (stop_) return;
          phase(t);
          sync_.arrive_and_wait();
        }
      });
  }
  ~Quanta() { stop(); }

  // One quantum of every CU up to `limit`; false once no CU has a wave left.
  bool run(std::uint64_t limit) {
    bool any = false;
    if (threads_ == 1) {
      for (auto& u : units_) {
        any = u->run(limit, tallies_[0], false) || any;
        m_.take_records(*u);
      }
      return any;
    }
    limit_ = limit;
    std::fill(done_.begin(), done_.end(), 0);
    std::fill(errors_.begin(), errors_.end(), nullptr);
    cursor_ = 0, failed_ = false;
    for (int t = 0; t < threads_; ++t) cursors_[static_cast<std::size_t>(t)].next = static_cast<std::size_t>(t);
    sync_.arrive_and_wait();
    phase(0);
    sync_.arrive_and_wait();
    for (const std::exception_ptr& x : errors_)  // the first CU's error, as one thread would meet it
      if (x) std::rethrow_exception(x);
    for (char l : live_) any = any || l;
    return any;
  }

  void stop() {
    if (!pool_.empty()) {
      stop_ = true;
      sync_.arrive_and_wait();
      for (std::thread& t : pool_) t.join();
      pool_.clear();
    }
    main_scope_.reset();
  }

 private:
  // Each thread takes CUs (next_cu) until none is left: the threads stay
  // busy until the quantum's last CUs, and the hand-over in CU order finds
  // the CUs done about in that order.
  void phase(int t) {
    for (std::size_t k; (k = next_cu(t)) < units_.size();) {
      try {
        live_[k] = units_[k]->run(limit_, tallies_[static_cast<std::size_t>(t)], true);
      } catch (...) {
        errors_[k] = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        done_[k] = 1;
      }
      hand_over(t);
    }
  }
  // The CUs done with their part of the quantum, in CU order (one thread at a time).
  void hand_over(int t) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (handing_over_) return;
    handing_over_ = true;
    while (!failed_ && cursor_ < units_.size() && done_[cursor_]) {
      const std::size_t k = cursor_;
      lock.unlock();
      ComputeUnit& u = *units_[k];
      if (!errors_[k]) {
        try {
          u.settle();
          if (u.suspended()) live_[k] = u.run(limit_, tallies_[static_cast<std::size_t>(t)], false);
          m_.take_records(u);
        } catch (...) {
          errors_[k] = std::current_exception();
        }
      }
      lock.lock();
      failed_ = failed_ || errors_[k] != nullptr;
      ++cursor_;
    }
    handing_over_ = false;
  }

  CycleModel& m_;
  std::vector<std::unique_ptr<ComputeUnit>>& units_;
  std::vector<Tally>& tallies_;
  const int threads_;
  std::barrier<> sync_;
  std::vector<std::thread> pool_;
  std::optional<emu::Emulator::ThreadScope> main_scope_;
  bool stop_ = false;
  std::uint64_t limit_ = 0;
  std::mutex mutex_;
  std::vector<char> done_, live_;
  std::vector<std::exception_ptr> errors_;
  std::size_t cursor_ = 0;
  // The CUs a thread takes: its own, t, t + threads, t + 2 threads, ..., in
  // order, then those of the others that they have not taken yet.  A CU thus
  // runs on the same core quantum after quantum, its waves' registers and
  // LDS in that core's caches (gemm_bf16 2048,2048,1024 on two threads: 10%
  // faster than any thread taking the next CU, sim/timing/README.md
  // "Threads").  The CUs are still finished about in CU order, which the
  // hand-over takes them in.
  struct alignas(64) Cursor {  // each on its own cache line
    std::atomic<std::size_t> next{0};
  };
  std::unique_ptr<Cursor[]> cursors_;
  std::size_t next_cu(int t) {
    const std::size_t n = units_.size(), step = static_cast<std::size_t>(threads_);
    for (int i = 0; i < threads_; ++i) {
      Cursor& c = cursors_[static_cast<std::size_t>((t + i) % threads_)];
      const std::size_t k = c.next.fetch_add(step, std::memory_order_relaxed);
      if (k < n) return k;
    }
    return n;
  }
  bool failed_ = false, handing_over_ = false;
};

void CycleModel::take_records(ComputeUnit& u) {
  for (const IssueEvent& e : u.events_)
    if (result_.events.size() < options_.max_events) result_.events.push_back(e);
    else ++result_.events_dropped;
  u.events_.clear();
  for (Hazard& h : u.hazards_)
    if (hazards_.size() < 1000) hazards_.push_back(std::move(h));
  u.hazards_.clear();
  result_.waves_spans.insert(result_.waves_spans.end(), u.spans_.begin(), u.spans_.end());
  u.spans_.clear();
  retired_.insert(retired_.end(), u.retired_.begin(), u.retired_.end());
  u.retired_.clear();
}

int CycleModel::threads_for(const emu::Emulator& e, std::size_t cus) const {
  int t = options_.threads > 0 ? options_.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  t = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(t), std::max<std::size_t>(cus, 1)));
  for (const isa::Instruction& in : e.program().instructions)
    if (in.text.find("atomic") != std::string::npos && in.text.rfind("ds_", 0) != 0) return 1;
  // Deferring needs the chip's fastest answer (an L2 hit, beyond the L1's own
  // latency) to come after the quantum's end (pending_times.hpp); an arch
  // file with a faster L2 runs on one thread.
  if (arch_.has_memory && arch_.memory.l2_latency - arch_.timing.l1_latency < static_cast<int>(kQuantumClocks)) return 1;
  return t;
}

namespace {

// When the first round (the first `capacity` workgroups to retire) ended:
// those placed later are timed for a periodic fast-forward (the first
// round's start in step, on cold caches).
std::uint64_t first_round_end(const std::vector<TimedGroup>& retired, std::uint64_t capacity) {
  std::vector<std::uint64_t> ends;
  for (const TimedGroup& g : retired) ends.push_back(g.end);
  std::nth_element(ends.begin(), ends.begin() + static_cast<std::ptrdiff_t>(capacity - 1), ends.end());
  return ends[capacity - 1];
}

}  // namespace

// ---- the model -------------------------------------------------------------

CycleModel::CycleModel(const arch::Arch& a, Options o) : arch_(a), options_(std::move(o)) {
  if (!a.has_timing)
    throw TimingError(a.file + " has no [timing] part: the cycle model needs its figures (see sim/arch/gfx950.toml)");
}

CycleModel::~CycleModel() = default;

void CycleModel::attach(emu::Emulator& e) {
  e.set_scheduler(this);
  e.set_observer(this);
}

void CycleModel::global_access(const std::uint64_t* a, std::uint64_t active, int bytes, bool) {
  if (ComputeUnit* u = ComputeUnit::current()) u->global_access(a, active, bytes);
}
void CycleModel::lds_access(int cycles, int conflicts, bool modelled) {
  if (ComputeUnit* u = ComputeUnit::current()) u->lds_access(cycles, conflicts, modelled);
}
void CycleModel::scalar_access(std::uint64_t address, int bytes) {
  if (ComputeUnit* u = ComputeUnit::current()) u->scalar_access(address, bytes);
}
std::uint64_t CycleModel::clock() const { return ComputeUnit::current() ? ComputeUnit::current()->now() : 0; }


emu::Scheduler::Ran CycleModel::dispatch(emu::Emulator& e, emu::GlobalMemory& memory, const emu::Launch& launch,
                                         std::uint64_t kernarg) {
  started_ = std::chrono::steady_clock::now();
  result_ = TimingResult{};
  hazards_.clear();
  hazard_count_ = 0;
  lds_idx_active_ = lds_conflicts_ = 0;
  workgroups_placed_ = waves_placed_ = 0;
  unmodelled_lds_ = false;
  retired_.clear();
  const std::vector<InstructionTiming> table = instruction_timing(e, arch_);
  per_instruction_.assign(table.size(), PcStats{});

  // Occupancy of this code object: workgroups resident on one CU.
  const isa::Kernel& k = e.kernel();
  lds::KernelResources res;
  res.vgprs = std::max(1, k.vgpr_count);
  res.agprs = k.agpr_count;
  res.sgprs = std::clamp(k.sgpr_count, 1, arch_.registers.max_sgprs);  // a rounded count beyond what a wave addresses
  res.lds_bytes = e.lds_bytes();
  res.workgroup_size = static_cast<int>(launch.block[0] * launch.block[1] * launch.block[2]);
  int per_cu = 0;
  try {
    per_cu = lds::occupancy(arch_, res).workgroups_per_cu;
  } catch (const std::exception& x) {
    throw TimingError(k.name + ": occupancy: " + x.what());
  }
  if (per_cu < 1) throw TimingError(k.name + ": one workgroup does not fit on a CU (registers, LDS or waves)");

  const int cus = options_.cus > 0 ? options_.cus : arch::chip_cus(arch_);
  const bool chip = arch_.has_memory;
  // With the chip: linear workgroup id i goes to XCD i mod X [I: chip-facts 3],
  // and within the XCD to whichever of its CUs has room first (no rounds).
  // CU c belongs to XCD c mod X, as many XCDs as CUs up to the chip's.
  // Without it: workgroups dealt to the CUs round robin, each CU its own queue.
  const int xcds = chip ? std::min(cus, arch::chip_xcds(arch_)) : cus;
  std::vector<WorkQueue> queues = deal_workgroups(launch.grid, xcds);
  const std::uint64_t n = static_cast<std::uint64_t>(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  // Sampling: XCD 0 alone when the grid fills the chip (Options).  Its queue
  // holds the most workgroups (ceil(n / X)), so its time is the chip's.
  const bool sampled = chip && options_.sample && xcds > 1 && n >= static_cast<std::uint64_t>(cus) &&
                       (options_.sample_only.empty() || options_.sample_only == k.name);
  const int simulated_xcds = sampled ? 1 : xcds;
  workgroups_total_ = sampled ? queues[0].items.size() : n;

  TimingResult& r = result_;
  r.arch = arch_.name;
  r.clock_mhz = arch_.timing.clock_mhz;
  for (const arch::TimingFigure& f : arch_.timing.figures)
    if (f.name == "clock_mhz") r.clock_status = arch::to_string(f.status);
  r.cus = cus;
  r.xcds = chip ? xcds : 0;
  r.simds_per_cu = arch_.simds_per_cu;
  r.lds_ports_per_cu = arch_.simds_per_cu / arch_.timing.simds_per_lds_port;
  const std::uint64_t busy_cus = std::min<std::uint64_t>(n, static_cast<std::uint64_t>(cus));
  r.memory_share = arch::memory_bytes_per_clock_per_cu(arch_, static_cast<double>(busy_cus));
  std::unique_ptr<ChipMemory> chip_memory =
      chip ? std::make_unique<ChipMemory>(arch_, simulated_xcds, 1.0 / (xcds / simulated_xcds)) : nullptr;
  std::unique_ptr<FetchFootprint> footprint =
      chip ? std::make_unique<FetchFootprint>(fetch_ranges(memory, e.program(), arch_.timing.l1_line_bytes)) : nullptr;
  if (chip) chip_memory->track_fetches(footprint.get());
  std::vector<std::unique_ptr<ComputeUnit>> units;
  std::vector<int> queue_of;  // per simulated CU, the queue it takes from
  for (int cu = 0; cu < cus; ++cu) {
    if (sampled && cu % xcds != 0) continue;  // not on XCD 0
    queue_of.push_back(cu % xcds);
    std::unique_ptr<MemoryBeyondL1> beyond;
    if (chip) beyond = std::make_unique<CuPort>(*chip_memory, sampled ? 0 : cu % xcds);
    else beyond = std::make_unique<CuShareOfMemory>(r.memory_share, arch_.timing.memory_latency);
    units.push_back(std::make_unique<ComputeUnit>(*this, e, memory, launch, kernarg, table, cu, per_cu, std::move(beyond),
                                                  queues[static_cast<std::size_t>(cu % xcds)]));
  }
  // The launch: every CU takes a workgroup in turn while any has room, so
  // that an XCD's first workgroups spread over its CUs.
  const std::uint64_t launch_at = chip ? static_cast<std::uint64_t>(arch_.memory.launch_cycles) : 0;
  r.launch_cycles = launch_at;
  for (bool placed = true; placed;) {
    placed = false;
    for (auto& u : units) placed = u->place(launch_at) || placed;
  }
  // All CUs advance together, one quantum at a time, so that they meet in
  // the L2s, the MALL and HBM at about the same simulated time.  The order
  // within a quantum is fixed (CU 0 first): the same inputs give the same run.
  constexpr std::uint64_t kQuantum = kQuantumClocks;
  // The fast-forward: a grid of at least kMinRoundsTimed + 2 rounds is timed
  // until the simulated L2s are nearly full (their steady state: a streaming
  // kernel's written lines start to be evicted to HBM only then) and at
  // least kMinRoundsTimed rounds have retired, at most kMaxRoundsTimed; if
  // its workgroups are alike the rest is extrapolated (extrapolated_end),
  // else it runs in full.
  constexpr std::uint64_t kMinRoundsTimed = 3, kMaxRoundsTimed = 8;
  const std::uint64_t capacity = units.size() * static_cast<std::uint64_t>(per_cu);
  bool fast_forward = options_.fast_forward && chip && workgroups_total_ >= (kMinRoundsTimed + 2) * capacity;
  std::uint64_t end_extrapolated = 0, rounds_timed = 0;
  std::optional<ScheduledEnd> periodic;  // the fast-forward of a periodic grid, when it was one
  bool irregular = false;                // the workgroups differ: only a periodic fast-forward may apply
  std::uint64_t next_attempt = 0;        // retired workgroups before the next try at it
  auto last_report = std::chrono::steady_clock::now();
  const int threads = threads_for(e, units.size());
  std::vector<Tally> tallies(static_cast<std::size_t>(threads));
  for (Tally& t : tallies) t.per_instruction.assign(table.size(), PcStats{});
  Quanta quanta(*this, e, units, tallies);
  {
    for (std::uint64_t limit = launch_at + kQuantum;; limit += kQuantum) {
      if (limit > options_.max_cycles + kQuantum)
        throw TimingError("the launch is still running after " + std::to_string(options_.max_cycles) +
                          " simulated cycles (--max-cycles raises the bound)");
      if (!quanta.run(limit)) break;
      if (fast_forward && retired_.size() >= std::max(kMinRoundsTimed * capacity, next_attempt)) {
        const std::uint64_t rounds = retired_.size() / capacity;
        if (workgroups_total_ < (rounds + 2) * capacity) {
          fast_forward = false;  // too few rounds left to be worth it: run to the end
        } else if (rounds >= kMaxRoundsTimed || chip_memory->l2s_filled(0.9) || irregular) {
          rounds_timed = rounds;
          if (!irregular) {
            std::vector<std::pair<std::uint64_t, std::uint64_t>> ends;
            for (const TimedGroup& g : retired_) ends.push_back({g.end, g.instructions});
            end_extrapolated = extrapolated_end(std::move(ends), capacity, rounds, workgroups_total_);
            irregular = end_extrapolated == 0;
          }
          if (irregular && rounds < kMaxRoundsTimed) {
            // Workgroups that differ vary more from one to the next than
            // alike ones: their kinds are timed over kMaxRoundsTimed rounds.
            next_attempt = kMaxRoundsTimed * capacity;
          } else if (irregular) {  // not alike: alike by one coordinate of their id?
            std::vector<ResidentGroup> resident;  // by the index of their CU among `units`
            for (std::size_t ui = 0; ui < units.size(); ++ui)
              for (const ComputeUnit::Group& g : units[ui]->groups_)
                if (g.live > 0) resident.push_back({g.grid_id, static_cast<int>(ui), g.start});
            periodic = scheduled_end(retired_, resident, queues, queue_of, per_cu,
                                     first_round_end(retired_, capacity), limit);
            if (periodic) end_extrapolated = periodic->end;
            // Not yet every kind timed after the first round: try again half a round later.
            next_attempt = retired_.size() + std::max<std::uint64_t>(1, capacity / 2);
          }
          if (end_extrapolated) break;
          fast_forward = irregular;
        }
      }
      if (options_.progress) {
        const auto t = std::chrono::steady_clock::now();
        if (t - last_report > std::chrono::seconds(1)) {
          last_report = t;
          Progress p;
          p.workgroups = workgroups_total_;
          std::uint64_t done = 0, instructions = 0;
          for (const WorkQueue& q : queues) done += q.next;
          for (auto& u : units) done -= static_cast<std::uint64_t>(u->resident_groups_), instructions += u->instructions_;
          p.workgroups_done = done;
          p.cycles = limit;
          p.wave_instructions = instructions;
          p.seconds = std::chrono::duration<double>(t - started_).count();
          options_.progress(p);
        }
      }
    }
  }
  quanta.stop();
  for (const Tally& t : tallies) {  // sums of whole numbers: the threads' order does not matter
    r.mfma_busy += t.mfma_busy, r.valu_busy += t.valu_busy, r.lds_busy += t.lds_busy, r.mfma_flops += t.mfma_flops;
    for (std::size_t k = 0; k < t.stall_cycles.size(); ++k) r.stall_cycles[k] += t.stall_cycles[k];
    r.issue_cycles += t.issue_cycles, r.wave_cycles += t.wave_cycles;
    lds_idx_active_ += t.lds_idx_active, lds_conflicts_ += t.lds_conflicts, hazard_count_ += t.hazard_count;
    unmodelled_lds_ = unmodelled_lds_ || t.unmodelled_lds;
    for (std::size_t i = 0; i < table.size(); ++i) {
      PcStats& a = per_instruction_[i];
      const PcStats& b = t.per_instruction[i];
      a.hits += b.hits, a.latency += b.latency, a.stall += b.stall, a.idle += b.idle;
      for (std::size_t k = 0; k < a.stall_by_reason.size(); ++k) a.stall_by_reason[k] += b.stall_by_reason[k];
    }
  }
  std::uint64_t instructions = 0, busy = 0;
  for (auto& u : units) {
    ComputeUnit& unit = *u;
    instructions += unit.instructions_;
    if (unit.waves_.empty()) continue;
    r.cycles = std::max(r.cycles, unit.last_end_);
    busy += unit.busy_cycles_;
    ++r.cus_used;
    r.waves += unit.waves_.size();
    r.l1_hits += unit.vmem_.l1_hits();
    r.l1_misses += unit.vmem_.l1_misses();
    const std::array<std::uint64_t, 4> sqc = unit.sqc_counts();
    r.icache_hits += sqc[0], r.icache_misses += sqc[1], r.scalar_cache_hits += sqc[2], r.scalar_cache_misses += sqc[3];
    r.memory_busy += unit.beyond_->busy_cycles();
    r.global_bytes += unit.beyond_->bytes_moved();
  }
  r.workgroups = workgroups_placed_;
  r.simulated_workgroups = workgroups_placed_;
  if (end_extrapolated) {
    r.fast_forwarded = true;
    if (periodic) r.fast_forward_axis = periodic->axis;
    r.simulated_cycles = r.cycles;
    r.cycles = std::max(end_extrapolated, r.cycles);
  }
  std::sort(r.waves_spans.begin(), r.waves_spans.end(),
            [](const WaveSpan& a, const WaveSpan& b) { return a.wave < b.wave; });
  if (chip) {
    const ChipCounters c = chip_memory->counters();
    r.chip = c;
    r.chip_per_xcd = chip_memory->per_xcd();
    r.l2_busy = chip_memory->l2_busy();
    r.mall_busy = chip_memory->mall_busy();
    r.hbm_busy = chip_memory->hbm_busy();
    r.fabric_busy = chip_memory->fabric_busy();
    r.l2_channels = arch_.memory.l2_channels * simulated_xcds;
    r.mall_channels = sampled ? 1 : arch_.memory.mall_channels;  // a sampled XCD's share is one pool
    r.hbm_channels = sampled ? 1 : arch_.memory.hbm_stacks * arch_.memory.hbm_channels_per_stack;
    r.fabric_links = simulated_xcds;
    r.hbm_bytes = c.hbm_bytes;
    r.memory_busy = r.hbm_busy;  // "global memory" is HBM with the chip model
  }
  r.wave_instructions = instructions;
  r.per_instruction = per_instruction_;
  r.hazard_count = hazard_count_;
  r.hazards = hazards_;

  // Counters in AMD's names and units (docs/facts/hw-facts.md), summed over the CUs.
  std::uint64_t valu = 0, mfma = 0, salu = 0, smem = 0, vmem = 0, ldsn = 0, all = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const std::uint64_t h = per_instruction_[i].hits;
    all += h;
    switch (table[i].kind) {
      case Kind::valu: case Kind::trans: valu += h; break;
      case Kind::mfma: valu += h, mfma += h; break;
      case Kind::salu: salu += h; break;
      case Kind::smem: smem += h; break;
      case Kind::lds: ldsn += h; break;
      case Kind::vmem_load: case Kind::vmem_store: case Kind::lds_dma: vmem += h; break;
      default: break;
    }
  }
  auto add = [&](const char* name, const char* unit, double v) { r.counters.push_back({name, unit, v}); };
  add("GRBM_GUI_ACTIVE", "cycles (summed over XCDs, as the hardware counts it)", gui_active(r));
  add("SQ_WAVES", "waves", static_cast<double>(r.waves));
  add("SQ_INSTS", "instructions", static_cast<double>(all));
  add("SQ_INSTS_VALU", "instructions (MFMA included)", static_cast<double>(valu));
  add("SQ_INSTS_MFMA", "instructions", static_cast<double>(mfma));
  add("SQ_INSTS_SALU", "instructions", static_cast<double>(salu));
  add("SQ_INSTS_SMEM", "instructions", static_cast<double>(smem));
  add("SQ_INSTS_VMEM", "instructions", static_cast<double>(vmem));
  add("SQ_INSTS_LDS", "instructions", static_cast<double>(ldsn));
  add("SQ_LDS_IDX_ACTIVE", "cycles", static_cast<double>(lds_idx_active_));
  add("SQ_LDS_BANK_CONFLICT", "cycles", static_cast<double>(lds_conflicts_));
  add("SQ_BUSY_CYCLES", "cycles (summed over CUs)", static_cast<double>(busy));
  add("SQ_WAVE_CYCLES", "quad-cycles", static_cast<double>(r.wave_cycles) / 4);
  add("SQ_VALU_MFMA_BUSY_CYCLES", "cycles (summed over SIMDs)", r.mfma_busy);
  add("SQC_ICACHE_HITS", "wave fetches", static_cast<double>(r.icache_hits));
  add("SQC_ICACHE_MISSES", "wave fetches", static_cast<double>(r.icache_misses));
  add("SQC_DCACHE_HITS", "scalar-load lines", static_cast<double>(r.scalar_cache_hits));
  add("SQC_DCACHE_MISSES", "scalar-load lines", static_cast<double>(r.scalar_cache_misses));
  add("TCP_TOTAL_CACHE_ACCESSES", "lines", static_cast<double>(r.l1_hits + r.l1_misses));
  add("TCP_TCC_READ_REQ", "lines", static_cast<double>(r.l1_misses));
  if (chip) {
    add("TCC_REQ", "requests (lines)", static_cast<double>(r.chip.l2_requests));
    add("TCC_HIT", "requests", static_cast<double>(r.chip.l2_hits));
    add("TCC_MISS", "requests", static_cast<double>(r.chip.l2_misses));
    add("TCC_READ", "requests", static_cast<double>(r.chip.l2_reads));
    add("TCC_WRITE", "requests", static_cast<double>(r.chip.l2_writes));
    add("TCC_WRITEBACK", "lines", static_cast<double>(r.chip.l2_writebacks));
    add("TCC_EA0_RDREQ", "requests (128 B lines)", static_cast<double>(r.chip.ea_read_requests));
    add("TCC_EA0_WRREQ", "requests (128 B lines)", static_cast<double>(r.chip.ea_write_requests));
    add("MALL_HIT", "lines (tilelab's name: not a gfx950 counter)", static_cast<double>(r.chip.mall_hits));
    add("MALL_MISS", "lines (tilelab's name: not a gfx950 counter)", static_cast<double>(r.chip.mall_misses));
    add("HBM_BYTES", "bytes (tilelab's name)", static_cast<double>(r.chip.hbm_bytes));
  }

  if (r.mfma_busy > 0) r.mfma_flops_per_busy_clock = r.mfma_flops / r.mfma_busy;  // before any scaling
  // Workgroups' worth of work simulated: the retired ones and the parts of
  // those still resident when the fast-forward stopped the run.
  double ran_workgroups = static_cast<double>(r.simulated_workgroups);
  if (periodic) {  // the simulated share of every workgroup's instructions
    ran_workgroups = static_cast<double>(workgroups_total_) * static_cast<double>(instructions) / periodic->instructions;
  } else if (end_extrapolated) {
    double per_group = 0;
    for (const TimedGroup& x : retired_) per_group += static_cast<double>(x.instructions);
    per_group /= static_cast<double>(retired_.size());
    ran_workgroups = static_cast<double>(instructions) / per_group;
  }
  if (sampled || end_extrapolated) {
    const double ran = ran_workgroups;
    if (sampled) r.sampled_xcds = simulated_xcds;
    r.workgroups = n;
    scale_totals(r, static_cast<double>(n) / ran, static_cast<double>(workgroups_total_) / ran);
    if (chip) estimate_chip_fetches(r, *footprint, static_cast<double>(n) / ran, arch_.timing.l1_line_bytes);
    const std::uint64_t threads = std::uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
    r.waves = n * ((threads + static_cast<std::uint64_t>(arch_.wave_size) - 1) / static_cast<std::uint64_t>(arch_.wave_size));
  }

  if (chip) {  // a fast-forwarded run's L2s hold the dirty lines of the rounds it timed: scaled to the rounds it did not
    add_end_write_back(r, *chip_memory, sampled ? static_cast<double>(xcds) / simulated_xcds : 1.0, arch_.timing.l1_line_bytes,
                       end_extrapolated ? static_cast<double>(workgroups_total_) / std::max(1.0, ran_workgroups) : 1.0);
    if (end_extrapolated)
      estimate_chip_write_backs(r, *chip_memory, static_cast<double>(n) / std::max(1.0, ran_workgroups), arch_.timing.l1_line_bytes);
    r.counter_window = chip_memory->windows().width();
    r.xcd_windows = chip_memory->windows().per_xcd();
  }

  // The figures this run stood on that are not public.
  for (const arch::TimingFigure& f : arch_.timing.figures)
    if (f.status == arch::Status::kAssumed) r.assumptions.push_back("timing." + f.name + " (" + f.source + ")");
  std::set<std::string> lds_seen;
  for (std::size_t i = 0; i < table.size(); ++i)
    if (per_instruction_[i].hits && table[i].kind == Kind::lds) lds_seen.insert(e.op(i).t.base);
  for (const arch::LdsInstruction& li : arch_.instructions)
    if (li.status == arch::Status::kAssumed && lds_seen.count(li.name))
      r.assumptions.push_back("LDS passes of " + li.name + " (" + li.source + ")");
  if (unmodelled_lds_) r.assumptions.push_back("LDS instructions without a phase table cost one pass each");
  if (!lds_seen.empty())
    r.assumptions.push_back("each SIMD of an LDS port holds at most an equal share of the port's FIFO");
  std::uint64_t policy_hits = 0;
  for (std::size_t i = 0; i < table.size(); ++i)
    if (table[i].cache_policy) policy_hits += per_instruction_[i].hits;
  if (policy_hits)
    r.assumptions.push_back(std::to_string(policy_hits) +
                            " executed memory instructions carry cache-policy bits (nt/sc0/sc1): timed as plain "
                            "accesses (the model does not apply them; chip-facts 5 has the ISA's table)");
  r.assumptions.push_back("each CU has its own instruction and scalar cache (the hardware shares each between two CUs: "
                          "the second CU of a pair pays its own cold misses)");
  if (chip) {
    for (const arch::TimingFigure& f : arch_.memory.figures)
      if (f.status == arch::Status::kAssumed) r.assumptions.push_back("memory." + f.name + " (" + f.source + ")");
    r.assumptions.push_back("where a line lives (L2 channel, HBM stack and channel, MALL channel) is Rau's pseudo-random interleave of its address (address_map.hpp), and the cache set index tilelab's (the hardware's hashes are not public)");
    r.assumptions.push_back("the MALL keeps every line it reads from HBM (its allocation policy is not public)");
    r.assumptions.push_back("workgroup i runs on XCD i mod " + std::to_string(r.xcds) +
                            " [I], on the first of its CUs with room; CUs advance together in 256-clock quanta");
    r.assumptions.push_back("the kernel's end releases at agent scope: every dirty L2 line is written back to HBM "
                            "within the kernel's time [I: the release is buffer_wbl2, chip-facts 5]");
    if (r.fast_forwarded && periodic)
      r.assumptions.push_back(std::string("fast-forward: the grid's workgroups differ, but each one's work is set by its ") +
                              "xyz"[periodic->axis] + " coordinate (same wave-instructions within 1%); after " +
                              std::to_string(rounds_timed) + " rounds of " + std::to_string(capacity) +
                              " workgroups the rest are dealt to the CUs in the dispatcher's order, each taking the mean "
                              "time its kind took after the first round (simulated to cycle " +
                              std::to_string(r.simulated_cycles) + ")");
    else if (r.fast_forwarded)
      r.assumptions.push_back("fast-forward: the grid's workgroups are alike (same wave-instructions within 1%), so after " +
                              std::to_string(rounds_timed) + " rounds of " + std::to_string(capacity) +
                              " workgroups (the L2s nearly full) the rest follow at the rate of rounds 2-" +
                              std::to_string(rounds_timed) +
                              " (simulated to cycle " + std::to_string(r.simulated_cycles) + ")");
    if (sampled)
      r.assumptions.push_back("sampled: XCD 0 simulated (" + std::to_string(r.simulated_workgroups) + " of " +
                              std::to_string(n) + " workgroups) with 1/" + std::to_string(xcds) +
                              " of the MALL's and HBM's bandwidth and the MALL's whole capacity; the other XCDs taken "
                              "to be like it (a line XCDs share is fetched from HBM by XCD 0 alone); totals scaled; "
                              "--full simulates every XCD");
  } else {
    r.assumptions.push_back("wave launch takes no cycles; CUs share nothing (each has its share of memory bandwidth)");
  }

  Ran ran;
  ran.workgroups = workgroups_placed_;  // what ran (a sampled run's totals are scaled)
  ran.waves = waves_placed_;
  ran.wave_instructions = instructions;
  return ran;
}

}  // namespace tilelab::timing
