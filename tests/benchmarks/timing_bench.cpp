// Speed of the cycle model (functional execution included).
// Targets (issue #13): >= 1 M simulated wave-instructions per second per core
// with timing on; gemm_bf16 at 512^3 timed in under a second.  The rate is
// wave-instructions over the timed dispatch's wall time (inputs and the CPU
// reference excluded).  Run: build/bin/bench_timing
#include <benchmark/benchmark.h>

#include "kernels/emulated.hpp"
#include "sim/timing/cycle_model.hpp"

namespace {

using namespace tilelab;

void timed(benchmark::State& state, const char* kernel, const char* arch_name, std::vector<long long> shape) {
  const arch::Arch a = arch::load_arch(arch_name);
  std::uint64_t instructions = 0, cycles = 0;
  double seconds = 0;
  for (auto _ : state) {
    timing::CycleModel model(a);
    kernels::EmulatedRun r = kernels::run_emulated(kernel, arch_name, shape, 1, "", [&](emu::Emulator& e) { model.attach(e); });
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

}  // namespace

BENCHMARK_MAIN();
