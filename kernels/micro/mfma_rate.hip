// MFMA microbenchmarks, timed with s_memtime around the loop:
//  * mfma_dependent_chain: every MFMA accumulates into the previous one's
//    result, so each waits for the last: iters × latency.
//  * mfma_independent_streams: four accumulators in rotation; with enough
//    independent work in flight the loop runs at the issue rate: throughput.
// Both use v_mfma_f32_16x16x32_bf16 (two K=16 MFMAs on gfx942).
// Output: out[wave * 2] = elapsed ticks, out[wave * 2 + 1] = a checksum.
#include "kernels/common/tilelab_hip.hpp"

namespace {
__device__ inline tl::bf16x8 operand(float seed) {
  tl::bf16x8 v;
#pragma unroll
  for (int e = 0; e < 8; ++e) v[e] = (tl::bf16)(seed + 0.125f * e);
  return v;
}
__device__ inline void write_result(unsigned long long* out, unsigned long long ticks, tl::f32x4 acc) {
  const int wave = (blockIdx.x * 256 + threadIdx.x) / tl::kWaveSize;
  if (tl::lane_id() == 0) {
    out[wave * 2] = ticks;
    out[wave * 2 + 1] = __builtin_bit_cast(unsigned, acc[0] + acc[1] + acc[2] + acc[3]);
  }
}
}  // namespace

extern "C" __global__ __launch_bounds__(256) void mfma_dependent_chain(unsigned long long* out, float seed, int iters TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  const tl::bf16x8 a = operand(seed), b = operand(seed * 0.5f);
  tl::f32x4 acc = {0.f, 0.f, 0.f, 0.f};
  const unsigned long long t0 = __builtin_amdgcn_s_memtime();
  for (int i = 0; i < iters; ++i) acc = tl::mfma_f32_16x16x32_bf16(a, b, acc);
  const unsigned long long t1 = __builtin_amdgcn_s_memtime();
  write_result(out, t1 - t0, acc);
}

extern "C" __global__ __launch_bounds__(256) void mfma_independent_streams(unsigned long long* out, float seed,
                                                                          int iters TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  const tl::bf16x8 a = operand(seed), b = operand(seed * 0.5f);
  tl::f32x4 acc[4] = {};
  const unsigned long long t0 = __builtin_amdgcn_s_memtime();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int s = 0; s < 4; ++s) acc[s] = tl::mfma_f32_16x16x32_bf16(a, b, acc[s]);
  }
  const unsigned long long t1 = __builtin_amdgcn_s_memtime();
  write_result(out, t1 - t0, acc[0] + acc[1] + acc[2] + acc[3]);
}
