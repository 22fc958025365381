// Speed of the functional emulator.
// Targets (issue #6): >= 2 M wave-instructions per second per core on
// gemm_bf16 (MFMA arithmetic included); one v_mfma_f32_16x16x32_bf16 in
// under 1 us.  The scaled f8f6f4 MFMAs and the MX GEMMs are measured beside
// them.  Run: build/bin/bench_emu
#include <benchmark/benchmark.h>

#include "tests/common/run_suite.hpp"
#include "sim/emu/semantics.hpp"

namespace {

using namespace tilelab;

// The whole 512 x 512 x 512 gemm (16 workgroups of 4 waves), inputs and the
// reference comparison excluded from the rate (the time of Emulator::run).
void BM_Gemm512(benchmark::State& state) {
  std::uint64_t instructions = 0;
  double seconds = 0;
  for (auto _ : state) {
    app::FunctionalRun r = testing::run_suite("gemm_bf16", "gfx950", {512, 512, 512}, 1);
    instructions += r.stats.wave_instructions;
    seconds += r.seconds;
    benchmark::DoNotOptimize(r.pass);
  }
  state.counters["wave_instr"] = static_cast<double>(instructions) / static_cast<double>(state.iterations());
  state.counters["dispatch_s"] = seconds / static_cast<double>(state.iterations());
  state.counters["wave_instr_per_s"] = static_cast<double>(instructions) / seconds;
}
BENCHMARK(BM_Gemm512)->Unit(benchmark::kMillisecond);

void BM_MfmaBf16_16x16x32(benchmark::State& state) {
  emu::Op op;
  op.t = emu::parse_text("v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]");
  op.fn = emu::handlers().at(op.t.base);
  emu::Wave w;
  for (int r = 4; r < 12; ++r)
    for (int l = 0; l < 64; ++l) w.vgpr(r)[l] = 0x3F803F80u + static_cast<std::uint32_t>(l);
  emu::Env env;
  for (auto _ : state) {
    op.fn(w, op, env);
    benchmark::DoNotOptimize(w.vgpr(0)[0]);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MfmaBf16_16x16x32);

// The scaled f8f6f4 MFMAs (E4M3 operands, every scale byte 1.0): the
// operand decode, the scales and the product.
void scaled_mfma(benchmark::State& state, const char* text, int regs) {
  emu::Op op;
  op.t = emu::parse_text(text);
  op.fn = emu::handlers().at(op.t.base);
  emu::Wave w;
  for (int r = 16; r < 16 + 2 * regs; ++r)
    for (int l = 0; l < 64; ++l) w.vgpr(r)[l] = 0x38383838u + static_cast<std::uint32_t>(l);
  for (int l = 0; l < 64; ++l) w.vgpr(40)[l] = w.vgpr(41)[l] = 0x7f7f7f7fu;
  emu::Env env;
  for (auto _ : state) {
    op.fn(w, op, env);
    benchmark::DoNotOptimize(w.vgpr(0)[0]);
  }
  state.SetItemsProcessed(state.iterations());
}
void BM_MfmaScale_16x16x128(benchmark::State& state) {
  scaled_mfma(state, "v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[16:23], v[24:31], v[0:3], v40, v41 op_sel_hi:[0,0,0]", 8);
}
BENCHMARK(BM_MfmaScale_16x16x128);
void BM_MfmaScale_32x32x64(benchmark::State& state) {
  scaled_mfma(state, "v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v40, v41 op_sel_hi:[0,0,0]", 8);
}
BENCHMARK(BM_MfmaScale_32x32x64);
void BM_MfmaScaleFp4_16x16x128(benchmark::State& state) {
  scaled_mfma(state, "v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[16:19], v[24:27], v[0:3], v40, v41 op_sel_hi:[0,0,0] cbsz:4 blgp:4", 8);
}
BENCHMARK(BM_MfmaScaleFp4_16x16x128);

// The MX GEMMs at 512^3 with each atom (the time of Emulator::run).
void BM_MxGemm512(benchmark::State& state, const char* kernel) {
  std::uint64_t instructions = 0;
  double seconds = 0;
  for (auto _ : state) {
    app::FunctionalRun r = testing::run_suite(kernel, "gfx950", {512, 512, 512}, 1);
    instructions += r.stats.wave_instructions;
    seconds += r.seconds;
    benchmark::DoNotOptimize(r.pass);
  }
  state.counters["dispatch_s"] = seconds / static_cast<double>(state.iterations());
  state.counters["wave_instr_per_s"] = static_cast<double>(instructions) / seconds;
}
BENCHMARK_CAPTURE(BM_MxGemm512, mxfp8_16x16, "gemm_mxfp8")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MxGemm512, mxfp8_32x32, "gemm_mxfp8_32x32")->Unit(benchmark::kMillisecond);

void BM_VAddF32(benchmark::State& state) {
  emu::Op op;
  op.t = emu::parse_text("v_add_f32_e32 v1, v2, v3");
  op.fn = emu::handlers().at(op.t.base);
  emu::Wave w;
  w.exec = ~0ull;
  emu::Env env;
  for (auto _ : state) {
    op.fn(w, op, env);
    benchmark::DoNotOptimize(w.vgpr(1)[0]);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VAddF32);

}  // namespace

BENCHMARK_MAIN();
