// TopK: the k largest values of each row (k <= 32) and their indices, in
// descending order.  Order: a larger value first; NaN ranks above every number
// (as torch.topk does); equal values (and NaNs) in increasing index order, so
// ties are broken by the lower index.
//
// One workgroup (256 threads = 4 waves) per row.  Pass 1: each thread scans
// its part of the row with 128-bit loads and keeps its own 32 best (value,
// index) pairs in registers, sorted, inserted by a branch-free shift network.
// Pass 2: k rounds of a workgroup argmax over the threads' list heads (wave
// shuffles, then the 4 wave winners through LDS); the winning thread pops its
// head.  Thread t reads vectors t, t + 256, ... so a thread sees its elements
// in increasing index order, which is what makes "first seen wins a tie" the
// lower-index rule.  Layout spec: spec.cpp.  Shapes: N % 8 == 0, N <= 65536.
#include "kernels/common/tilelab_hip.hpp"

namespace {
constexpr int kThreads = 256;
constexpr int kMaxK = 32;
constexpr int kWaves = kThreads / tl::kWaveSize;

// Does (va, ia) come before (vb, ib) in the output order?
__device__ inline bool ranks_before(float va, int ia, float vb, int ib) {
  const bool na = va != va, nb = vb != vb;
  if (na || nb) return na && (!nb || ia < ib);
  return va > vb || (va == vb && ia < ib);
}

struct Best {
  float value[kMaxK];
  int index[kMaxK];

  __device__ void clear() {
#pragma unroll
    for (int j = 0; j < kMaxK; ++j) {
      value[j] = -__builtin_inff();
      index[j] = 0x7fffffff;  // ranks after every real element, -inf included
    }
  }
  // Insert keeping the list sorted; the last entry falls off.
  __device__ void insert(float v, int i) {
#pragma unroll
    // Slot j takes slot j-1's entry when v ranks before that one (the list
    // shifts down), else v itself when v ranks before slot j's entry.  Slot 0
    // has nothing above it.  (The emulator caught an earlier version that
    // wrote v into slot 0 unconditionally; increasing inputs hid it.)
    for (int j = kMaxK - 1; j >= 0; --j) {
      const bool above_prev = j > 0 && ranks_before(v, i, value[j - 1], index[j - 1]);
      const bool above_this = ranks_before(v, i, value[j], index[j]);
      const float pv = j > 0 ? value[j - 1] : v;
      const int pi = j > 0 ? index[j - 1] : i;
      value[j] = above_prev ? pv : (above_this ? v : value[j]);
      index[j] = above_prev ? pi : (above_this ? i : index[j]);
    }
  }
  __device__ void pop() {
#pragma unroll
    for (int j = 0; j < kMaxK - 1; ++j) {
      value[j] = value[j + 1];
      index[j] = index[j + 1];
    }
    value[kMaxK - 1] = -__builtin_inff();
    index[kMaxK - 1] = 0x7fffffff;
  }
};

template <class Elem, class Vec, int kVec>
__device__ void topk_row(const Elem* __restrict__ in, Elem* __restrict__ values, int* __restrict__ indices,
                         int rows, int n, int k) {
  __shared__ float win_value[2][kWaves];
  __shared__ int win_index[2][kWaves];
  const int row = blockIdx.x;
  if (row >= rows) return;
  const int t = threadIdx.x;
  const Vec* x = reinterpret_cast<const Vec*>(in + (long)row * n);

  Best best;
  best.clear();
  for (int v = t; v < n / kVec; v += kThreads) {
    const Vec data = x[v];
    // Not unrolled: eight inlined 32-stage networks raise the register count
    // from 138 to 245 VGPRs and spill to scratch.
#pragma unroll 1
    for (int e = 0; e < kVec; ++e) best.insert((float)data[e], v * kVec + e);
  }

  for (int round = 0; round < k; ++round) {
    float wv = best.value[0];
    int wi = best.index[0];
#pragma unroll
    for (int mask = tl::kWaveSize / 2; mask > 0; mask >>= 1) {
      const float ov = tl::shuffle_xor(wv, mask);
      const int oi = tl::shuffle_xor(wi, mask);
      if (ranks_before(ov, oi, wv, wi)) { wv = ov; wi = oi; }
    }
    const int slot = round & 1;  // two slot sets: one barrier per round suffices
    if (tl::lane_id() == 0) {
      win_value[slot][t / tl::kWaveSize] = wv;
      win_index[slot][t / tl::kWaveSize] = wi;
    }
    __syncthreads();
    wv = win_value[slot][0];
    wi = win_index[slot][0];
#pragma unroll
    for (int w = 1; w < kWaves; ++w)
      if (ranks_before(win_value[slot][w], win_index[slot][w], wv, wi)) { wv = win_value[slot][w]; wi = win_index[slot][w]; }
    if (best.index[0] == wi) best.pop();
    if (t == 0) {
      values[(long)row * k + round] = (Elem)wv;
      indices[(long)row * k + round] = wi;
    }
  }
}
}  // namespace

typedef float f32x4v __attribute__((ext_vector_type(4)));

extern "C" __global__ __launch_bounds__(kThreads) void topk_f32(const float* __restrict__ in, float* __restrict__ values,
                                                               int* __restrict__ indices, int rows, int n, int k TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  topk_row<float, f32x4v, 4>(in, values, indices, rows, n, k);
}

extern "C" __global__ __launch_bounds__(kThreads) void topk_bf16(const tl::bf16* __restrict__ in,
                                                                tl::bf16* __restrict__ values,
                                                                int* __restrict__ indices, int rows, int n, int k TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  topk_row<tl::bf16, tl::bf16x8, 8>(in, values, indices, rows, n, k);
}
