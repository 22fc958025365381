// Global-memory microbenchmarks:
//  * pointer_chase: one lane follows next = chain[next] `steps` times; each
//    load depends on the last, so elapsed / steps is the load-to-use latency
//    of whichever level the chain's footprint lands in (the host builds the
//    chain: stride and footprint pick L2, MALL or HBM).
//  * stream_copy: dst = src with 128-bit loads and stores, grid-stride; bytes
//    moved / time is the achievable bandwidth.
#include "kernels/common/tilelab_hip.hpp"

extern "C" __global__ __launch_bounds__(64) void pointer_chase(const unsigned* __restrict__ chain,
                                                              unsigned long long* out,
                                                              int steps TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  if (threadIdx.x != 0) return;
  unsigned next = 0;
  const unsigned long long t0 = tl::core_clock();
  for (int i = 0; i < steps; ++i) {
    tl::opaque(next);  // keep the index in a vector register: a vector load, not a scalar-cache one
    next = chain[next];
  }
  const unsigned long long t1 = tl::core_clock();
  out[0] = t1 - t0;
  out[1] = next;
}

extern "C" __global__ __launch_bounds__(256) void stream_copy(tl::u32x4* __restrict__ dst,
                                                             const tl::u32x4* __restrict__ src, long n_vectors,
                                                             int grid_threads TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  for (long i = blockIdx.x * 256L + threadIdx.x; i < n_vectors; i += grid_threads) dst[i] = src[i];
}
