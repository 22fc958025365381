// The portability header every kernel includes.
//
// Two ways a kernel is compiled:
//  * clang targeting amdgcn with no ROCm installed (`-x hip -nogpuinc
//    -nogpulib --cuda-device-only`, what tilelab's build does): no HIP headers
//    exist, so this header defines the few HIP keywords and builtins the
//    kernels use, directly on clang's amdgcn builtins;
//  * ROCm's hipcc (TILELAB_USE_HIP_RUNTIME is defined by the build): the real
//    <hip/hip_runtime.h> provides them.
// AMD-only instructions (MFMA, transpose LDS reads, LDS DMA, s_setprio, sched
// barriers) are reached through the named inline functions at the end, so a
// kernel reads as the algorithm and the instruction choice stays visible.
#pragma once

#if defined(TILELAB_USE_HIP_RUNTIME)
#include <hip/hip_runtime.h>
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __launch_bounds__(n) __attribute__((amdgpu_flat_work_group_size(1, n)))

namespace tilelab_hip_detail {
struct ThreadIdx {
  __device__ unsigned get_x() const { return __builtin_amdgcn_workitem_id_x(); }
  __declspec(property(get = get_x)) unsigned x;
};
struct BlockIdx {
  __device__ unsigned get_x() const { return __builtin_amdgcn_workgroup_id_x(); }
  __device__ unsigned get_y() const { return __builtin_amdgcn_workgroup_id_y(); }
  __declspec(property(get = get_x)) unsigned x;
  __declspec(property(get = get_y)) unsigned y;
};
}  // namespace tilelab_hip_detail
static constexpr tilelab_hip_detail::ThreadIdx threadIdx{};
static constexpr tilelab_hip_detail::BlockIdx blockIdx{};

// A workgroup barrier with the memory ordering HIP's __syncthreads gives:
// every LDS and global write before it is visible to the workgroup after it.
__device__ inline void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#endif

namespace tl {

typedef __bf16 bf16;
typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));
typedef __bf16 bf16x4 __attribute__((ext_vector_type(4)));
typedef unsigned u32x4 __attribute__((ext_vector_type(4)));
typedef unsigned u32x2 __attribute__((ext_vector_type(2)));

constexpr int kWaveSize = 64;

__device__ inline unsigned lane_id() { return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); }

// Cross-lane exchange within a wave: the value lane (lane ^ mask) holds.
// ds_bpermute moves 32-bit words through the LDS crossbar without using LDS.
__device__ inline float shuffle_xor(float v, int mask) {
  int src = (int)(lane_id() ^ (unsigned)mask) << 2;
  return __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute(src, __builtin_bit_cast(int, v)));
}
__device__ inline int shuffle_xor(int v, int mask) {
  int src = (int)(lane_id() ^ (unsigned)mask) << 2;
  return __builtin_amdgcn_ds_bpermute(src, v);
}

// CuTe's Swizzle<B,M,S> on an element offset: XOR the B bits at [M+S, M+S+B)
// into the B bits at [M, M+B).  The same function the layout spec applies.
template <int B, int M, int S>
__device__ inline int swizzle(int offset) {
  return offset ^ (((offset >> (M + S)) & ((1 << B) - 1)) << M);
}

// ---- AMD instructions by name ----

// D = A·B + C for a 16x16 tile, K = 32, bf16 inputs, fp32 accumulators.
// Lane l holds A row (l % 16), k = 8*(l/16) .. +8; B column (l % 16) the same
// k; C/D rows 4*(l/16) .. +4 of column (l % 16).
__device__ inline f32x4 mfma_f32_16x16x32_bf16(bf16x8 a, bf16x8 b, f32x4 c) {
#if defined(__gfx950__)
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0);
#else
  // gfx942 has no K=32 bf16 MFMA: two K=16 steps.  Each lane's eight k values
  // split into halves the same way for A and B, so the sum over k is the same.
  bf16x4 a0 = {a[0], a[1], a[2], a[3]}, a1 = {a[4], a[5], a[6], a[7]};
  bf16x4 b0 = {b[0], b[1], b[2], b[3]}, b1 = {b[4], b[5], b[6], b[7]};
  typedef short s16x4 __attribute__((ext_vector_type(4)));
  c = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(__builtin_bit_cast(s16x4, a0), __builtin_bit_cast(s16x4, b0), c, 0, 0, 0);
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(__builtin_bit_cast(s16x4, a1), __builtin_bit_cast(s16x4, b1), c, 0, 0, 0);
#endif
}

// Raise (1..3) or restore (0) this wave's issue priority.
template <int P>
__device__ inline void set_priority() { __builtin_amdgcn_s_setprio(P); }

// Stop the compiler from moving instructions across this point.
__device__ inline void sched_barrier() { __builtin_amdgcn_sched_barrier(0); }

}  // namespace tl
