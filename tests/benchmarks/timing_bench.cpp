// Speed of the cycle model (functional execution included).
// Targets (issue #13): >= 1 M simulated wave-instructions per second per core
// with timing on; gemm_bf16 at 512^3 timed in under a second.  Issue 25: the
// whole MI355X (chip model, sampled and fast-forwarded as the CLI runs it):
// gemm_bf16 at 8192^3 in at most 60 s, attention forward B16 H16 N8192 D128
// in at most 60 s.  The rate is wave-instructions simulated (not the scaled
// whole-chip count) over the timed dispatch's wall time (inputs and the CPU
// reference excluded).  The Chip benchmarks use every core (Options::threads
// 0); BM_Threads/* compare 1 and 2 threads, the full_* ones fully simulated.
// Run: build/bin/bench_timing [--benchmark_filter=Chip|Threads]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>

#include "kernels/common/k_order_gemm.hpp"
#include "tests/common/run_suite.hpp"
#include "sim/timing/cycle_model.hpp"

namespace {

using namespace tilelab;

void timed(benchmark::State& state, const char* kernel, const char* arch_name, std::vector<long long> shape,
           bool sampled = false, int threads = 1) {
  const arch::Arch a = arch::load_arch(arch_name);
  std::uint64_t instructions = 0, cycles = 0;
  double seconds = 0;
  for (auto _ : state) {
    timing::Options o;
    o.sample = o.fast_forward = sampled;
    o.threads = threads;
    timing::CycleModel model(a, o);
    app::FunctionalRun r = testing::run_suite(kernel, arch_name, shape, 1, "", [&](emu::Emulator& e) { model.attach(e); },
                                                   [&] { return !sampled; });
    instructions += r.stats.wave_instructions;
    seconds += r.seconds;
    cycles = model.result().cycles;
    benchmark::DoNotOptimize(r.pass);
  }
  state.counters["wave_instr"] = static_cast<double>(instructions) / static_cast<double>(state.iterations());
  state.counters["dispatch_s"] = seconds / static_cast<double>(state.iterations());
  state.counters["wave_instr_per_s"] = static_cast<double>(instructions) / seconds;
  state.counters["simulated_cycles"] = static_cast<double>(cycles);
}

void BM_TimedGemm512(benchmark::State& state) { timed(state, "gemm_bf16", "gfx950", {512, 512, 512}); }
BENCHMARK(BM_TimedGemm512)->Unit(benchmark::kMillisecond);

void BM_TimedGemm1024(benchmark::State& state) { timed(state, "gemm_bf16", "gfx950", {1024, 1024, 1024}); }
BENCHMARK(BM_TimedGemm1024)->Unit(benchmark::kMillisecond);

void BM_TimedAttentionCausal(benchmark::State& state) { timed(state, "attention_fwd_d128", "gfx950", {2, 512, 1}); }
BENCHMARK(BM_TimedAttentionCausal)->Unit(benchmark::kMillisecond);

void BM_TimedGemmMxfp4(benchmark::State& state) { timed(state, "gemm_mxfp4", "gfx950", {256, 512, 1024}); }
BENCHMARK(BM_TimedGemmMxfp4)->Unit(benchmark::kMillisecond);

// Threads (issue 25: at least 1.7x from 1 to 2 with the chip model on; the
// result is the same to the bit, a test checks that): each iteration runs
// the launch on one thread and on two, back to back, the order swapped every
// iteration.  This VM's speed drifts by up to 30% within minutes, and a
// process's first launch pays for first touches the next does not, so only
// runs made side by side and in both orders are compared: speedup is the sum
// of the one-thread dispatch times over the two-thread ones.
void BM_Threads(benchmark::State& state, const char* kernel, std::vector<long long> shape, bool sampled) {
  const arch::Arch a = arch::load_arch("gfx950");
  double seconds[2] = {0, 0};
  std::uint64_t instructions = 0, iteration = 0;
  for (auto _ : state) {
    for (int k = 0; k < 2; ++k) {
      const int threads = 1 + ((k + static_cast<int>(iteration)) % 2);
      timing::Options o;
      o.sample = o.fast_forward = sampled;
      o.threads = threads;
      timing::CycleModel model(a, o);
      app::FunctionalRun r = testing::run_suite(kernel, "gfx950", shape, 1, "", [&](emu::Emulator& e) { model.attach(e); },
                                                [] { return false; });
      seconds[threads - 1] += r.seconds;
      if (threads == 1) instructions += r.stats.wave_instructions;
    }
    ++iteration;
  }
  state.counters["one_thread_s"] = seconds[0] / static_cast<double>(iteration);
  state.counters["two_threads_s"] = seconds[1] / static_cast<double>(iteration);
  state.counters["speedup"] = seconds[0] / seconds[1];
  state.counters["one_thread_wave_instr_per_s"] = static_cast<double>(instructions) / seconds[0];
}
// Sampled and fast-forwarded, as the CLI runs them; then fully simulated
// whole-chip grids: attention one workgroup per CU, the GEMMs four rounds.
BENCHMARK_CAPTURE(BM_Threads, sampled_gemm_bf16_4096, "gemm_bf16", {4096, 4096, 4096}, true)
    ->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();
BENCHMARK_CAPTURE(BM_Threads, sampled_attention_causal, "attention_fwd_d128", {64, 4096, 1}, true)
    ->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();
BENCHMARK_CAPTURE(BM_Threads, full_attention, "attention_fwd_d128", {16, 2048, 0}, false)
    ->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();
BENCHMARK_CAPTURE(BM_Threads, full_gemm_bf16, "gemm_bf16", {4096, 4096, 1024}, false)
    ->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();
BENCHMARK_CAPTURE(BM_Threads, full_gemm_mxfp8, "gemm_mxfp8", {4096, 4096, 1024}, false)
    ->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();

// The host side of a --full run: the CPU reference every output is checked
// against (kernels/common/k_order_gemm), at gemm_bf16 2048,2048,1024.
void BM_ReferenceGemm2048x2048x1024(benchmark::State& state) {
  const int M = 2048, N = 2048, K = 1024;
  std::vector<float> a(static_cast<std::size_t>(M) * K), b(static_cast<std::size_t>(N) * K);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1.f, 1.f);
  for (float& x : a) x = value(rng);
  for (float& x : b) x = value(rng);
  std::vector<std::uint16_t> c(static_cast<std::size_t>(M) * N);
  for (auto _ : state) {
    kernels::gemm_in_k_order(
        M, N, K, [&](int m, float* row) { std::copy_n(a.data() + static_cast<std::size_t>(m) * K, K, row); },
        [&](int n, int k) { return b[static_cast<std::size_t>(n) * K + k]; }, c.data());
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP_per_s"] =
      benchmark::Counter(2.0 * M * N * K * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReferenceGemm2048x2048x1024)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ChipGemm8192(benchmark::State& state) { timed(state, "gemm_bf16", "gfx950", {8192, 8192, 8192}, true, 0); }
BENCHMARK(BM_ChipGemm8192)->Unit(benchmark::kSecond)->Iterations(1);

void BM_ChipAttentionB16H16N8192(benchmark::State& state) {
  timed(state, "attention_fwd_d128", "gfx950", {256, 8192, 0}, true, 0);
}
BENCHMARK(BM_ChipAttentionB16H16N8192)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
