// The microbenchmarks' hosts.  They compute little, so each is checked on
// what it does produce:
//  * lds_read_* / lds_write_*: the pattern is drawn from the seed (stride,
//    XOR swizzle); the conflict cycles the emulated LDS site shows per
//    execution must equal the bank model's count for the lanes' addresses
//    computed here from the kernel's documented formula (so the code makes
//    the accesses its comment says; on the emulator only, where the sites
//    are seen), and lds_write's out[1] (LDS word 0 after the loop) must be
//    what the last write left there.
//  * mfma_*: each wave's checksum (lane 0's acc[0..3] summed; the streams
//    kernel first adds its 4 accumulators) against iters x A·B in double.
//  * pointer_chase: the final index of a chain built here; stream_copy: dst == src.
// Shape (iterations); the kernels' own s_memtime / clock64 readings are not
// compared (the emulator's are instruction counts, not cycles).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "kernels/common/formats.hpp"
#include "hw/emu/emu_device.hpp"
#include "kernels/host.hpp"
#include "sim/arch/arch.hpp"
#include "sim/lds/bank_model.hpp"

namespace tilelab::kernels {

namespace {

struct Pattern {
  int stride = 4, swz_shift = -1;
};

Pattern pattern_of(std::uint64_t seed) {
  static const int strides[] = {4, 8, 16, 64, 128, 256, 12, 36};
  std::mt19937_64 rng(seed);
  Pattern p;
  p.stride = strides[rng() % 8];
  p.swz_shift = static_cast<int>(rng() % 5) - 1;  // -1: no swizzle
  return p;
}

// lds_patterns.hip's lane_address().
std::uint32_t lane_address(int lane, Pattern p, std::uint32_t width) {
  std::uint32_t a = static_cast<std::uint32_t>(lane) * static_cast<std::uint32_t>(p.stride);
  if (p.swz_shift >= 0) a ^= (static_cast<std::uint32_t>(lane) >> p.swz_shift) << 4;
  return (a % 65536) & ~(width - 1);
}

HostLaunch lds_pattern(hw::Device& d, long long iters, std::uint64_t seed, bool write, std::uint32_t width,
                       std::string name = "") {
  const Pattern p = pattern_of(seed);
  const std::uint64_t out = d.allocate(16, "out");
  HostLaunch l;
  l.block = {64, 1, 1};
  l.arguments = {out, static_cast<std::uint32_t>(p.stride), static_cast<std::uint32_t>(p.swz_shift),
                 static_cast<std::uint32_t>(iters)};
  if (name.empty()) name = std::string(write ? "ds_write_b" : "ds_read_b") + std::to_string(8 * width);
  l.bytes = 64.0 * width * static_cast<double>(iters);  // LDS bytes moved
  l.check = [&d, out, iters, p, write, width, name] {
    std::vector<std::uint32_t> addr(64);
    for (int lane = 0; lane < 64; ++lane) addr[static_cast<std::size_t>(lane)] = lane_address(lane, p, width);
    bool agree = true;
    if (const auto* emulated = dynamic_cast<const hw::EmuDevice*>(&d)) {
      arch::Arch a = arch::load_arch(d.info().arch);
      lds::Analysis want = lds::BankModel(a, a.instruction(name)).analyze(addr, ~0ull);
      bool seen = false;
      for (const auto& s : emulated->last_stats().lds_sites)
        if (s.instruction == name && static_cast<long long>(s.executions) == iters) {
          seen = true;
          agree = agree && s.conflict_cycles == static_cast<std::uint64_t>(want.conflict_cycles) * static_cast<std::uint64_t>(iters);
        }
      agree = agree && seen;
    }
    if (write) {  // LDS word 0 after the loop: written by the lanes whose address is 0, last write value + lane
      std::uint64_t got[2];
      d.copy_to_host(got, out, 16);
      long long want_word = -1;
      for (int lane = 0; lane < 64; ++lane)
        if (addr[static_cast<std::size_t>(lane)] == 0) want_word = (iters - 1) + lane;  // the highest such lane lands last
      agree = agree && (want_word < 0 || got[1] == static_cast<std::uint64_t>(static_cast<std::uint32_t>(want_word)));
    }
    Checked r;
    r.max_rel_error = agree ? 0 : INFINITY;
    r.tolerance = 0;
    r.tolerance_why = "exact: the site's conflict cycles equal the bank model's for the documented addresses (stride " +
                      std::to_string(p.stride) + " B, swizzle shift " + std::to_string(p.swz_shift) + ")";
    return r;
  };
  return l;
}

HostLaunch mfma_rate(hw::Device& d, long long iters, std::uint64_t seed, int streams) {
  const float seed_value = 0.25f + static_cast<float>(seed % 8) * 0.125f;
  const int waves = 4;
  const std::uint64_t out = d.allocate(16 * waves, "out");
  HostLaunch l;
  l.block = {256, 1, 1};
  l.arguments = {out, std::bit_cast<std::uint32_t>(seed_value), static_cast<std::uint32_t>(iters)};
  l.flops = 2.0 * 16 * 16 * 32 * waves * streams * static_cast<double>(iters);  // 16x16x32 MFMAs
  l.check = [&d, out, iters, seed_value, streams] {
    std::uint64_t got[2 * waves];
    d.copy_to_host(got, out, sizeof got);
    // Every lane holds A row l%16 = B column l%16 = the same 8 values a_e (and
    // b_e = bf16(seed/2 + e/8)) at k = 8g..8g+7, so every D element is
    // iters x sum over k of a_k b_k; lane 0's checksum sums four of them.
    double dot = 0;
    for (int e8 = 0; e8 < 8; ++e8) {
      double a_e = bf16_to_float(float_to_bf16(seed_value + 0.125f * static_cast<float>(e8)));
      double b_e = bf16_to_float(float_to_bf16(seed_value * 0.5f + 0.125f * static_cast<float>(e8)));
      dot += 4 * a_e * b_e;  // the 4 lane groups hold the same 8 values: K = 32
    }
    // The independent-streams kernel adds its 4 accumulators: 4x the chain's sum.
    const double want = 4 * static_cast<double>(streams) * static_cast<double>(iters) * dot;
    double worst = 0;
    for (int w = 0; w < waves; ++w) {
      float sum = std::bit_cast<float>(static_cast<std::uint32_t>(got[2 * w + 1]));
      worst = std::max(worst, std::fabs(sum - want) / want);
    }
    Checked r;
    r.max_rel_error = worst;
    r.tolerance = 1e-5 * static_cast<double>(iters);
    r.tolerance_why = "f32 accumulation over the chain (about 1e-7 per step) against double";
    return r;
  };
  return l;
}

HostLaunch pointer_chase(hw::Device& d, long long steps, std::uint64_t seed) {
  const std::uint32_t n = 4096;
  std::vector<std::uint32_t> chain(n);
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(seed));
  for (std::uint32_t i = 0; i < n; ++i) chain[order[i]] = order[(i + 1) % n];  // one cycle through every slot
  const std::uint64_t d_chain = upload(d, chain, "chain"), out = d.allocate(16, "out");
  HostLaunch l;
  l.block = {64, 1, 1};
  l.arguments = {d_chain, out, static_cast<std::uint32_t>(steps)};
  l.check = [&d, out, chain, steps] {
    std::uint64_t got[2];
    d.copy_to_host(got, out, 16);
    std::uint32_t next = 0;
    for (long long i = 0; i < steps; ++i) next = chain[next];
    Checked r;
    r.max_rel_error = got[1] == next ? 0 : INFINITY;
    r.tolerance = 0;
    r.tolerance_why = "exact: the index the chain reaches";
    return r;
  };
  return l;
}

HostLaunch stream_copy(hw::Device& d, long long vectors, std::uint64_t seed) {
  const std::size_t bytes = 16 * static_cast<std::size_t>(vectors);
  std::vector<std::uint8_t> src(bytes);
  std::mt19937_64 rng(seed);
  for (auto& b : src) b = static_cast<std::uint8_t>(rng());
  const std::uint64_t d_dst = d.allocate(bytes, "dst"), d_src = upload(d, src, "src");
  // Eight 256-work-item workgroups per CU keep enough loads in flight to
  // reach the memory's bandwidth; the emulator (no CUs) gets two, enough to
  // check the grid-stride loop.
  const int cus = d.info().compute_units;
  const std::uint32_t blocks = cus > 0 ? 8u * static_cast<std::uint32_t>(cus) : 2u;
  HostLaunch l;
  l.grid = {blocks, 1, 1};
  l.block = {256, 1, 1};
  l.arguments = {d_dst, d_src, static_cast<std::uint64_t>(vectors), 256 * blocks};
  l.bytes = 2.0 * static_cast<double>(bytes);
  l.check = [&d, d_dst, src, bytes] {
    std::vector<std::uint8_t> dst(bytes);
    d.copy_to_host(dst.data(), d_dst, bytes);
    Checked r;
    r.max_rel_error = dst == src ? 0 : INFINITY;
    r.tolerance = 0;
    r.tolerance_why = "exact: a copy";
    r.output = dst;
    return r;
  };
  return l;
}

}  // namespace

HostLaunch micro_host(const std::string& kernel, hw::Device& d, const std::vector<long long>& shape,
                      std::uint64_t seed) {
  const long long n = shape[0];
  if (kernel == "lds_read_b64_tr_b16") return lds_pattern(d, n, seed, false, 8, "ds_read_b64_tr_b16");
  if (kernel.rfind("lds_read_b", 0) == 0 || kernel.rfind("lds_write_b", 0) == 0) {
    bool write = kernel[4] == 'w';
    std::uint32_t width = static_cast<std::uint32_t>(std::stoi(kernel.substr(write ? 11 : 10))) / 8;
    return lds_pattern(d, n, seed, write, width);
  }
  if (kernel.rfind("mfma_", 0) == 0) return mfma_rate(d, n, seed, kernel == "mfma_independent_streams" ? 4 : 1);
  if (kernel == "pointer_chase") return pointer_chase(d, n, seed);
  return stream_copy(d, n, seed);
}

std::vector<HostEntry> micro_suite_hosts() {
#define TILELAB_MICRO(name) {#name, [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return micro_host(#name, d, s, seed); }}
  return {
      TILELAB_MICRO(lds_read_b32),         TILELAB_MICRO(lds_read_b64),  TILELAB_MICRO(lds_read_b128),
      TILELAB_MICRO(lds_read_b64_tr_b16),  TILELAB_MICRO(lds_write_b32), TILELAB_MICRO(lds_write_b64),
      TILELAB_MICRO(lds_write_b128),       TILELAB_MICRO(mfma_dependent_chain),
      TILELAB_MICRO(mfma_independent_streams), TILELAB_MICRO(pointer_chase), TILELAB_MICRO(stream_copy),
  };
#undef TILELAB_MICRO
}

}  // namespace tilelab::kernels
