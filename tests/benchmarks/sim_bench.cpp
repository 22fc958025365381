// Speed of the LDS bank model and the swizzle search.
// Targets (issue #3): >= 20 M ds_read_b128 wave-instruction analyses per second
// per core; the whole Sw<B,M,S> search for a 64x64 tile in under 100 ms.
// Run: build/bin/bench_sim
#include <benchmark/benchmark.h>

#include <random>

#include "layouts/expr.hpp"
#include "sim/lds/swizzle_search.hpp"

namespace {

using namespace tilelab;

// A mix of patterns: conflict-free, the 4-way MFMA read, broadcast, random.
std::vector<std::vector<std::uint32_t>> patterns() {
  std::vector<std::vector<std::uint32_t>> p(4, std::vector<std::uint32_t>(64));
  std::mt19937 rng(3);
  for (int l = 0; l < 64; ++l) {
    p[0][l] = 16u * l;
    p[1][l] = 128u * (l % 16) + 16u * (l / 16);
    p[2][l] = 4096u;
    p[3][l] = 16u * (rng() % 1024);
  }
  return p;
}

void BM_DsReadB128(benchmark::State& state) {
  arch::Arch a = arch::load_arch("gfx950");
  lds::BankModel model(a, a.instruction("ds_read_b128"));
  auto p = patterns();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(model.analyze(p[i], ~std::uint64_t{0}).conflict_cycles);
    i = (i + 1) & 3;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DsReadB128);

// One pattern at a time: 0 conflict-free, 1 MFMA 4-way, 2 broadcast, 3 random.
void BM_DsReadB128Pattern(benchmark::State& state) {
  arch::Arch a = arch::load_arch("gfx950");
  lds::BankModel model(a, a.instruction("ds_read_b128"));
  auto p = patterns()[state.range(0)];
  for (auto _ : state) benchmark::DoNotOptimize(model.analyze(p, ~std::uint64_t{0}).conflict_cycles);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DsReadB128Pattern)->DenseRange(0, 3);

void BM_Lds128Sm90(benchmark::State& state) {
  arch::Arch a = arch::load_arch("sm90");
  lds::BankModel model(a, a.instruction("LDS.128"));
  auto p = patterns();
  for (auto& v : p) v.resize(32);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(model.analyze(p[i], 0xffffffffu).conflict_cycles);
    i = (i + 1) & 3;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Lds128Sm90);

void BM_SwizzleSearch64x64(benchmark::State& state) {
  arch::Arch a = arch::load_arch("gfx950");
  lds::BankModel w(a, a.instruction("ds_write_b128")), r(a, a.instruction("ds_read_b128"));
  auto L = [](const char* s) { return std::get<Layout>(evaluate(s)); };
  TVLayout wtv = make_layout_tv(L("(8,8):(8,1)"), L("(1,8):(1,1)"));
  TVLayout rtv = make_layout_tv(L("(16,4):(1,16)"), L("(1,8):(1,1)"));
  for (auto _ : state) benchmark::DoNotOptimize(lds::search_swizzles({wtv, &w}, {rtv, &r}, 64, 64, 2).evaluated);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SwizzleSearch64x64)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
