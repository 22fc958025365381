// Speed of the code-object path: reading a code object, decoding 100 KB of
// gfx950 machine code with LLVM MC into a Program, and the design check of
// the whole kernel suite (what `tilelab check` does).
//   build/bin/bench_isa
#include <benchmark/benchmark.h>

#include <filesystem>

#include "kernels/design_check.hpp"
#include "sim/isa/decoder.hpp"

using namespace tilelab;

namespace {
std::string object(const std::string& arch, const std::string& name) {
  return std::string(TILELAB_CODE_OBJECTS) + "/" + arch + "/" + name + ".hsaco";
}

// 100 KiB of real gfx950 instructions: the code of every kernel of the suite,
// end to end, repeated (each piece is a whole instruction stream).
std::vector<std::uint8_t> hundred_kib_of_code() {
  std::vector<std::uint8_t> code;
  while (code.size() < 100 * 1024)
    for (const char* n : {"topk", "gemm_bf16", "rmsnorm", "lds_patterns", "mfma_rate", "global_memory"}) {
      const isa::CodeObject co = isa::read_code_object(object("gfx950", n));
      for (const auto& k : co.kernels) {
        const auto c = co.code(k);
        code.insert(code.end(), c.begin(), c.end());
      }
    }
  return code;
}
}  // namespace

static void BM_ReadCodeObject(benchmark::State& state) {
  const std::string f = object("gfx950", "topk");
  for (auto _ : state) benchmark::DoNotOptimize(isa::read_code_object(f));
}
BENCHMARK(BM_ReadCodeObject)->Unit(benchmark::kMicrosecond);

static void BM_Decode100KiB(benchmark::State& state) {
  const auto code = hundred_kib_of_code();
  const isa::Decoder d("gfx950");
  std::size_t insts = 0;
  for (auto _ : state) {
    const isa::Program p = d.decode_bytes(code, 0x1000, "bench", 0);
    insts = p.instructions.size();
    benchmark::DoNotOptimize(p.instructions.data());
  }
  state.counters["bytes"] = static_cast<double>(code.size());
  state.counters["instructions"] = static_cast<double>(insts);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * code.size()));
}
BENCHMARK(BM_Decode100KiB)->Unit(benchmark::kMillisecond);

// Decoder construction (LLVM target objects) is paid once per processor.
static void BM_DecoderSetup(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(isa::Decoder("gfx950"));
}
BENCHMARK(BM_DecoderSetup)->Unit(benchmark::kMillisecond);

static void BM_CheckSuite(benchmark::State& state) {
  for (auto _ : state) {
    for (const std::string name : {"gfx950", "gfx942"}) {
      const arch::Arch a = arch::load_arch(name);
      for (const auto& s : kernels::all_specs()) {
        if (std::find(s.archs.begin(), s.archs.end(), name) == s.archs.end()) continue;
        const isa::CodeObject co =
            isa::read_code_object(object(name, std::filesystem::path(s.source).stem().string()));
        const isa::Kernel& k = co.kernel(s.name);
        benchmark::DoNotOptimize(kernels::design_check(
            s, a,
            kernels::CompiledFacts{k.vgpr_count, k.agpr_count, k.sgpr_count, k.group_segment_fixed_size,
                                   k.private_segment_fixed_size, k.max_flat_workgroup_size}));
      }
    }
  }
}
BENCHMARK(BM_CheckSuite)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
