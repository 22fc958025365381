#include "sim/timing/chip_memory.hpp"

#include "sim/emu/fresh_buffer.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <type_traits>

namespace tilelab::timing {

namespace {

// Buckets kept behind the newest one: requests reach a calendar at most a few
// quanta out of time order (cycle_model.cpp), far less than this.
constexpr std::size_t kKeptBuckets = 8192;

// Spreads consecutive lines (and power-of-two strides) over a cache's sets.
// The hardware's set index is not public (chip-facts 5: "hashed"); this one
// is ours.  Channels and stacks are the address map's.
std::uint64_t fold(std::uint64_t line) { return line ^ (line >> 7) ^ (line >> 13) ^ (line >> 19); }

}  // namespace

// ---- bandwidth ---------------------------------------------------------------

BandwidthCalendar::BandwidthCalendar(double bytes_per_clock, int bucket)
    : rate_(bytes_per_clock), capacity_(bytes_per_clock * bucket), bucket_(bucket) {}

std::uint64_t BandwidthCalendar::reserve(std::uint64_t cycle, double bytes) {
  moved_ += bytes;
  std::uint64_t b = std::max<std::uint64_t>(cycle / static_cast<std::uint64_t>(bucket_), base_);
  const double earliest = static_cast<double>(cycle) + bytes / rate_;
  double left = bytes;
  for (;; ++b) {
    const std::size_t k = static_cast<std::size_t>(b - base_);
    if (k >= used_.size()) used_.resize(k + 1, 0.0);
    const double take = std::min(left, capacity_ - used_[k]);
    if (take > 0) {
      used_[k] += take;
      left -= take;
    }
    if (left <= 1e-9) break;
  }
  // Done where the last byte moved: the bucket's start plus its filled part.
  const std::size_t k = static_cast<std::size_t>(b - base_);
  const double done = static_cast<double>(b * static_cast<std::uint64_t>(bucket_)) + used_[k] / rate_;
  if (used_.size() > 2 * kKeptBuckets) {
    const std::size_t drop = used_.size() - kKeptBuckets;
    used_.erase(used_.begin(), used_.begin() + static_cast<long>(drop));
    base_ += drop;
  }
  return static_cast<std::uint64_t>(std::ceil(std::max(done, earliest)));
}

// ---- a cache's tags ------------------------------------------------------------

// Mapped from the OS (zero pages, faulted in where a set is first touched).
// An array of 8 MiB or more (the MALL's) is aligned to 2 MiB and asks for
// huge pages: its sets are touched all over (the set hash spreads lines), and
// on this project's VM a fault costs about 11 us, so faulting 4 KiB at a time
// had been 4% of an MX GEMM's dispatch.  Where the kernel gives no huge
// pages, it is the same mapping at 4 KiB.
template <class T>
LineCache::Zeroed<T> LineCache::zeroed(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>, "zero bytes must be a valid value");
  const std::size_t bytes = std::max<std::size_t>(n, 1) * sizeof(T);
  const bool huge = bytes >= emu::kHugeWorthIt;
  const std::size_t mapped = huge ? bytes + emu::kHugePage : bytes;
  void* m = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  if (!huge) return Zeroed<T>(static_cast<T*>(m), Unmap{bytes});
  // Keep the 2 MiB-aligned part, give the rest back.
  char* start = static_cast<char*>(m);
  char* aligned =
      reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(start) + emu::kHugePage - 1) & ~(emu::kHugePage - 1));
  if (aligned > start) munmap(start, static_cast<std::size_t>(aligned - start));
  const std::size_t tail = static_cast<std::size_t>(start + mapped - (aligned + bytes));
  if (tail) munmap(aligned + bytes, tail);
  emu::advise_huge_pages(aligned, bytes);  // a hint: refused, it stays 4 KiB pages
  return Zeroed<T>(reinterpret_cast<T*>(aligned), Unmap{bytes});
}

void LineCache::Unmap::operator()(void* p) const { munmap(p, bytes); }

LineCache::LineCache(long long bytes, int line_bytes, int ways)
    : sets_(static_cast<std::uint64_t>(bytes / (static_cast<long long>(line_bytes) * ways))), ways_(ways),
      size_(static_cast<std::size_t>(sets_) * static_cast<std::size_t>(ways)),
      tags_(zeroed<std::uint64_t>(size_)),
      last_use_(zeroed<std::uint64_t>(size_)),
      fills_(zeroed<Fill>(size_)) {}

std::size_t LineCache::set_of(std::uint64_t line) const {
  return static_cast<std::size_t>(fold(line) % sets_) * static_cast<std::size_t>(ways_);
}

LineCache::Outcome LineCache::access(std::uint64_t line, bool dirty) {
  const std::size_t set = set_of(line);
  const std::uint64_t* tags = &tags_[set];
  ++clock_;
  for (int w = 0; w < ways_; ++w)
    if (tags[w] == line + 1) {
      const std::size_t way = set + static_cast<std::size_t>(w);
      last_use_[way] = clock_;
      Fill& f = fills_[way];
      if (dirty && !f.dirty) ++dirtied_;
      f.dirty = f.dirty || dirty;
      return {true, false, 0, f.asked, f.ready, way};
    }
  const std::uint64_t* used = &last_use_[set];
  int victim = 0;
  for (int w = 1; w < ways_; ++w)
    if (used[w] < used[victim]) victim = w;
  const std::size_t way = set + static_cast<std::size_t>(victim);
  Outcome o;
  o.evicted_dirty = tags_[way] != 0 && fills_[way].dirty;
  o.victim = tags_[way] - 1;  // ~0 for an empty way
  tags_[way] = line + 1;
  last_use_[way] = clock_;
  fills_[way] = Fill{0, 0, dirty};
  if (dirty) ++dirtied_;
  o.way = way;
  return o;
}

void LineCache::fill(const Outcome& o, std::uint64_t asked, std::uint64_t ready) {
  fills_[o.way].asked = asked;
  fills_[o.way].ready = ready;
}

std::uint64_t merged_with_fill(const LineCache::Outcome& o, std::uint64_t cycle, std::uint64_t served) {
  const std::uint64_t early = o.fill_asked > cycle ? o.fill_asked - cycle : 0;
  const std::uint64_t ready = o.fill_ready > early ? o.fill_ready - early : 0;
  return std::max(served, ready);
}

void LineCache::invalidate(std::uint64_t line) {
  const std::size_t set = set_of(line);
  for (int w = 0; w < ways_; ++w) {
    const std::size_t way = set + static_cast<std::size_t>(w);
    if (tags_[way] == line + 1) tags_[way] = 0, last_use_[way] = 0, fills_[way] = Fill{};
  }
}

std::vector<std::uint64_t> LineCache::take_dirty() {
  std::vector<std::uint64_t> out;
  for (std::size_t way = 0; way < size_; ++way)
    if (tags_[way] != 0 && fills_[way].dirty) out.push_back(tags_[way] - 1), fills_[way].dirty = false;
  return out;
}

std::uint64_t LineCache::valid_lines() const {
  std::uint64_t n = 0;
  for (std::size_t way = 0; way < size_; ++way) n += tags_[way] != 0;
  return n;
}

bool LineCache::holds(std::uint64_t line) const {
  const std::uint64_t* tags = &tags_[set_of(line)];
  for (int w = 0; w < ways_; ++w)
    if (tags[w] == line + 1) return true;
  return false;
}

// ---- the chip ------------------------------------------------------------------

CounterWindows::CounterWindows(int xcds, std::size_t max_windows)
    : max_(std::max<std::size_t>(2, max_windows)), windows_(static_cast<std::size_t>(xcds)) {}

CounterWindow& CounterWindows::at(int xcd, std::uint64_t cycle) {
  while (cycle / width_ >= max_) widen();
  std::vector<CounterWindow>& w = windows_[static_cast<std::size_t>(xcd)];
  const std::size_t i = static_cast<std::size_t>(cycle / width_);
  if (i >= w.size()) w.resize(i + 1);
  return w[i];
}

void CounterWindows::widen() {
  for (std::vector<CounterWindow>& w : windows_) {
    std::vector<CounterWindow> merged((w.size() + 1) / 2);
    for (std::size_t i = 0; i < w.size(); ++i) {
      CounterWindow& m = merged[i / 2];
      m.l2_requests += w[i].l2_requests, m.l2_hits += w[i].l2_hits, m.hbm_bytes += w[i].hbm_bytes;
    }
    w = std::move(merged);
  }
  width_ *= 2;
}

ChipMemory::ChipMemory(const arch::Arch& a, int xcds, double share)
    : m_(a.memory), map_(a.memory, a.timing.l1_line_bytes), line_bytes_(a.timing.l1_line_bytes), l1_latency_(a.timing.l1_latency),
      // A sampled run's XCD keeps the whole MALL's capacity: much of what the
      // other XCDs would hold there is the same lines (a GEMM's A rows), so a
      // 1/X share would turn their shared hits into misses (measured on AMD's
      // bf16 GEMM at 8192^3: 1/8 of the capacity put the sampled time 14.5%
      // above the full run's, the whole capacity 4.8%).
      mall_(a.memory.mall_bytes, a.timing.l1_line_bytes, a.memory.mall_ways),
      xcd_counters_(static_cast<std::size_t>(xcds)), windows_(xcds) {
  xcds_.reserve(static_cast<std::size_t>(xcds));
  for (int x = 0; x < xcds; ++x)
    xcds_.push_back(Xcd{LineCache(m_.l2_bytes, line_bytes_, m_.l2_ways),
                        std::vector<BandwidthCalendar>(static_cast<std::size_t>(m_.l2_channels),
                                                       BandwidthCalendar(m_.l2_read_bytes_per_clock)),
                        std::vector<BandwidthCalendar>(static_cast<std::size_t>(m_.l2_channels),
                                                       BandwidthCalendar(m_.l2_write_bytes_per_clock)),
                        BandwidthCalendar(m_.fabric_bytes_per_clock)});
  if (share < 1) {
    // A sampled XCD's share is a pool: which channel or stack its lines live
    // on decides contention only together with the other XCDs' traffic, which
    // a sampled run does not see (a kernel's rows split over XCDs often land
    // each XCD's lines on a few stacks, which the others' lines fill up).
    mall_channels_.assign(1, BandwidthCalendar(m_.mall_channel_bytes_per_clock * m_.mall_channels * share));
    hbm_.assign(1, BandwidthCalendar(arch::hbm_sustained_bytes_per_clock(a) * share));
  } else {
    // Each HBM channel moves its share of the peak less its refresh time
    // (tRFC of every tREFI: arch::hbm_sustained_bytes_per_clock).
    mall_channels_.assign(static_cast<std::size_t>(m_.mall_channels), BandwidthCalendar(m_.mall_channel_bytes_per_clock));
    hbm_.assign(static_cast<std::size_t>(map_.hbm_channels()),
                BandwidthCalendar(arch::hbm_sustained_bytes_per_clock(a) / map_.hbm_channels()));
  }
}

BandwidthCalendar& ChipMemory::hbm_of(std::uint64_t line) {
  return hbm_.size() == 1 ? hbm_[0] : hbm_[static_cast<std::size_t>(map_.hbm_channel(line))];
}

BandwidthCalendar& ChipMemory::mall_of(std::uint64_t line) {
  return mall_channels_.size() == 1 ? mall_channels_[0] : mall_channels_[static_cast<std::size_t>(map_.mall_channel(line))];
}

// An L2 miss: over the XCD's link to the memory-side MALL (its channels sit
// with the line's HBM stack), and on a MALL miss from the line's HBM channel.  The MALL
// keeps what it read from HBM (its allocation policy is not public: an
// assumption) and never a dirty L2 victim.
std::uint64_t ChipMemory::from_memory(int xcd, std::uint64_t cycle, std::uint64_t line) {
  std::uint64_t t = xcds_[static_cast<std::size_t>(xcd)].link.reserve(cycle, line_bytes_);
  t = std::max(t, mall_of(line).reserve(cycle, line_bytes_));
  ChipCounters& c = xcd_counters_[static_cast<std::size_t>(xcd)];
  ++c.ea_read_requests;
  const LineCache::Outcome o = mall_.access(line, false);
  if (o.hit) {
    ++c.mall_hits;
    return merged_with_fill(o, cycle, t + static_cast<std::uint64_t>(m_.mall_latency - l1_latency_));
  }
  ++c.mall_misses;
  if (footprint_) footprint_->fetched(line);
  c.hbm_bytes += static_cast<std::uint64_t>(line_bytes_);
  windows_.at(xcd, cycle).hbm_bytes += static_cast<std::uint64_t>(line_bytes_);
  t = std::max(t, hbm_of(line).reserve(cycle, line_bytes_));
  const std::uint64_t ready = t + static_cast<std::uint64_t>(m_.hbm_latency - l1_latency_);
  mall_.fill(o, cycle, ready);
  return ready;
}

// A dirty line leaving an L2: to HBM through the link; the MALL's copy, now stale, is dropped.
void ChipMemory::write_back(int xcd, std::uint64_t cycle, std::uint64_t line) {
  ChipCounters& c = xcd_counters_[static_cast<std::size_t>(xcd)];
  ++c.l2_writebacks;
  ++c.ea_write_requests;
  c.hbm_bytes += static_cast<std::uint64_t>(line_bytes_);
  windows_.at(xcd, cycle).hbm_bytes += static_cast<std::uint64_t>(line_bytes_);
  xcds_[static_cast<std::size_t>(xcd)].link.reserve(cycle, line_bytes_);
  hbm_of(line).reserve(cycle, line_bytes_);
  mall_.invalidate(line);
}

std::uint64_t ChipMemory::request(int xcd, std::uint64_t cycle, std::uint64_t line, int bytes, bool store) {
  Xcd& x = xcds_[static_cast<std::size_t>(xcd)];
  ChipCounters& c = xcd_counters_[static_cast<std::size_t>(xcd)];
  bytes_beyond_l1_ += static_cast<std::uint64_t>(bytes);
  ++c.l2_requests;
  CounterWindow& window = windows_.at(xcd, cycle);
  ++window.l2_requests;
  const std::size_t channel = static_cast<std::size_t>(map_.l2_channel(line));
  // Write-allocate without a fill: the written bytes make the line dirty (the
  // L2 keeps byte masks; a partial line is merged when it is written back).
  const LineCache::Outcome o = x.l2.access(line, store);
  ++(o.hit ? c.l2_hits : c.l2_misses);
  if (o.hit) ++window.l2_hits;
  if (o.evicted_dirty) write_back(xcd, cycle, o.victim);
  const int to_l2 = m_.l2_latency - l1_latency_;  // the L2 hit round trip beyond the L1's own latency
  if (store) {
    ++c.l2_writes;
    return x.write[channel].reserve(cycle, bytes) + static_cast<std::uint64_t>(to_l2);
  }
  ++c.l2_reads;
  const std::uint64_t delivered = x.read[channel].reserve(cycle, bytes) + static_cast<std::uint64_t>(to_l2);
  if (o.hit) return merged_with_fill(o, cycle, delivered);
  const std::uint64_t ready = std::max(delivered, from_memory(xcd, cycle, line));
  x.l2.fill(o, cycle, ready);
  return ready;
}

std::uint64_t ChipMemory::l2_lines() const {
  return static_cast<std::uint64_t>(m_.l2_bytes) / static_cast<std::uint64_t>(line_bytes_);
}

bool ChipMemory::l2s_filled(double fraction) const {
  for (const Xcd& x : xcds_)
    if (static_cast<double>(x.l2.valid_lines()) < fraction * static_cast<double>(l2_lines())) return false;
  return true;
}

std::pair<std::uint64_t, std::uint64_t> ChipMemory::write_back_at_end(std::uint64_t cycle, double dirty_scale) {
  std::uint64_t done = cycle, lines = 0;
  for (std::size_t x = 0; x < xcds_.size(); ++x) {
    ChipCounters& c = xcd_counters_[x];
    auto write = [&](std::uint64_t line) {
      ++c.l2_writebacks, ++c.ea_write_requests, ++lines;
      c.hbm_bytes += static_cast<std::uint64_t>(line_bytes_);
      const std::uint64_t link = xcds_[x].link.reserve(cycle, line_bytes_);
      const std::uint64_t written = std::max(link, hbm_of(line).reserve(cycle, line_bytes_));
      done = std::max(done, written);
      windows_.at(static_cast<int>(x), written).hbm_bytes += static_cast<std::uint64_t>(line_bytes_);
    };
    const double valid = static_cast<double>(xcds_[x].l2.valid_lines());
    const std::vector<std::uint64_t> dirty = xcds_[x].l2.take_dirty();
    for (std::uint64_t line : dirty) {
      write(line);
      mall_.invalidate(line);
    }
    // Lines the unsimulated rounds would have left dirty: consecutive line
    // numbers, so that they spread over the channels as a stream does.
    const double share = valid > 0 ? static_cast<double>(dirty.size()) / valid : 0;
    const double wanted = std::min(static_cast<double>(dirty.size()) * dirty_scale, static_cast<double>(l2_lines()) * share);
    for (std::uint64_t i = dirty.size(); static_cast<double>(i) < wanted; ++i) write(i);
  }
  return {done, lines};
}

std::uint64_t ChipMemory::l2_lines_dirtied() const {
  std::uint64_t n = 0;
  for (const Xcd& x : xcds_) n += x.l2.dirtied();
  return n;
}

ChipCounters ChipMemory::counters() const {
  ChipCounters sum;
  for (const ChipCounters& c : xcd_counters_) {
    sum.l2_requests += c.l2_requests, sum.l2_hits += c.l2_hits, sum.l2_misses += c.l2_misses;
    sum.l2_reads += c.l2_reads, sum.l2_writes += c.l2_writes, sum.l2_writebacks += c.l2_writebacks;
    sum.ea_read_requests += c.ea_read_requests, sum.ea_write_requests += c.ea_write_requests;
    sum.mall_hits += c.mall_hits, sum.mall_misses += c.mall_misses, sum.hbm_bytes += c.hbm_bytes;
  }
  return sum;
}

namespace {
double busy(const std::vector<BandwidthCalendar>& units) {
  double b = 0;
  for (const BandwidthCalendar& u : units) b += u.bytes_moved() / u.bytes_per_clock();
  return b;
}
}  // namespace

double ChipMemory::l2_busy() const {
  double b = 0;
  for (const Xcd& x : xcds_) b += busy(x.read) + busy(x.write);
  return b;
}
double ChipMemory::mall_busy() const { return busy(mall_channels_); }
double ChipMemory::hbm_busy() const { return busy(hbm_); }
double ChipMemory::fabric_busy() const {
  double b = 0;
  for (const Xcd& x : xcds_) b += x.link.bytes_moved() / x.link.bytes_per_clock();
  return b;
}

}  // namespace tilelab::timing
