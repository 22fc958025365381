// The microbenchmarks' specs: what each measures.  Their access patterns are
// chosen at launch (stride, swizzle), so they have no fixed designed access.
#include "kernels/spec.hpp"

namespace tilelab::kernels {

namespace {
KernelSpec micro(const std::string& name, const std::string& source, const std::string& summary, int threads,
                 long long lds_bytes, std::vector<std::string> archs = {"gfx950", "gfx942"}) {
  KernelSpec s;
  s.name = name;
  s.source = source;
  s.summary = summary;
  s.archs = std::move(archs);
  s.block_tile = "microbenchmark: one pattern, repeated, timed with s_memtime";
  s.wave_layout = threads == 64 ? "one wave" : std::to_string(threads / 64) + " waves";
  s.thread_values = "chosen at launch";
  s.copy_atom = "-";
  s.mfma_atom = name.rfind("mfma", 0) == 0 ? "v_mfma_f32_16x16x32_bf16" : "none";
  s.threads_per_block = threads;
  if (lds_bytes) s.lds = {{"pattern region", 1, lds_bytes, 1, 1, std::nullopt}};
  s.shape_dims = {"iterations"};
  s.shape_rules = {{"iterations >= 1", [](const auto& v) { return v[0] >= 1; }}};
  s.example_shapes = {{1000}};
  return s;
}
}  // namespace

std::vector<KernelSpec> micro_suite_specs() {
  const std::string lds = "micro/lds_patterns.hip";
  return {micro("lds_read_b32", lds, "LDS read, 32-bit, lane l at (l*stride) ^ swizzle", 64, 65536),
          micro("lds_read_b64", lds, "LDS read, 64-bit", 64, 65536),
          micro("lds_read_b128", lds, "LDS read, 128-bit", 64, 65536),
          micro("lds_write_b32", lds, "LDS write, 32-bit", 64, 65536),
          micro("lds_write_b64", lds, "LDS write, 64-bit", 64, 65536),
          micro("lds_write_b128", lds, "LDS write, 128-bit", 64, 65536),
          micro("lds_read_b64_tr_b16", lds, "LDS transposing read ds_read_b64_tr_b16", 64, 65536, {"gfx950"}),
          micro("mfma_dependent_chain", "micro/mfma_rate.hip", "MFMA latency: a dependent chain", 256, 0),
          micro("mfma_independent_streams", "micro/mfma_rate.hip", "MFMA throughput: 4 independent accumulators", 256, 0),
          micro("pointer_chase", "micro/global_memory.hip", "global-memory load-to-use latency", 64, 0),
          micro("stream_copy", "micro/global_memory.hip", "global-memory bandwidth, 128-bit copy", 256, 0)};
}

}  // namespace tilelab::kernels
