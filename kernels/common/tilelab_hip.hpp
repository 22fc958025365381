// The portability header every kernel includes.
//
// Two ways a kernel is compiled:
//  * clang targeting amdgcn with no ROCm installed (`-x hip -nogpuinc
//    -nogpulib --cuda-device-only`, what tilelab's build does): no HIP headers
//    exist, so this header defines the few HIP keywords and builtins the
//    kernels use, directly on clang's amdgcn builtins;
//  * ROCm's hipcc (TILELAB_USE_HIP_RUNTIME is defined by the build): the real
//    <hip/hip_runtime.h> provides them;
//  * clang in CUDA mode for NVIDIA (`-x cuda --cuda-device-only -nocudainc
//    -nocudalib`, PTX for sm_90): the same keywords on clang's nvvm builtins,
//    a wave is a warp of 32.  Kernels that use only what both vendors have
//    (rmsnorm, the stream copy, the pointer chase) build this way unchanged.
// AMD-only instructions (MFMA, transpose LDS reads, LDS DMA, s_setprio, sched
// barriers) are reached through the named inline functions at the end (not
// in the NVIDIA build), so a kernel reads as the algorithm and the
// instruction choice stays visible.
#pragma once

#if defined(TILELAB_USE_HIP_RUNTIME)
#include <hip/hip_runtime.h>
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#if defined(__NVPTX__)
#define __launch_bounds__(n) __attribute__((launch_bounds(n)))
#else
#define __launch_bounds__(n) __attribute__((amdgpu_flat_work_group_size(1, n)))
#endif

namespace tilelab_hip_detail {
#if defined(__NVPTX__)
__device__ inline unsigned thread_x() { return __nvvm_read_ptx_sreg_tid_x(); }
__device__ inline unsigned block_x() { return __nvvm_read_ptx_sreg_ctaid_x(); }
__device__ inline unsigned block_y() { return __nvvm_read_ptx_sreg_ctaid_y(); }
#else
__device__ inline unsigned thread_x() { return __builtin_amdgcn_workitem_id_x(); }
__device__ inline unsigned block_x() { return __builtin_amdgcn_workgroup_id_x(); }
__device__ inline unsigned block_y() { return __builtin_amdgcn_workgroup_id_y(); }
#endif
struct ThreadIdx {
  __device__ unsigned get_x() const { return thread_x(); }
  __declspec(property(get = get_x)) unsigned x;
};
struct BlockIdx {
  __device__ unsigned get_x() const { return block_x(); }
  __device__ unsigned get_y() const { return block_y(); }
  __declspec(property(get = get_x)) unsigned x;
  __declspec(property(get = get_y)) unsigned y;
};
}  // namespace tilelab_hip_detail
static constexpr tilelab_hip_detail::ThreadIdx threadIdx{};
static constexpr tilelab_hip_detail::BlockIdx blockIdx{};

// A workgroup barrier with the memory ordering HIP's __syncthreads gives:
// every LDS and global write before it is visible to the workgroup after it.
// (In CUDA mode clang has __syncthreads built in: bar.sync 0.)
#if !defined(__NVPTX__)
__device__ inline void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#endif
#endif

namespace tl {

typedef __bf16 bf16;
typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));
typedef __bf16 bf16x4 __attribute__((ext_vector_type(4)));
typedef unsigned u32x4 __attribute__((ext_vector_type(4)));
typedef unsigned u32x2 __attribute__((ext_vector_type(2)));

#if defined(__NVPTX__)
constexpr int kWaveSize = 32;  // a warp

__device__ inline unsigned lane_id() { return __nvvm_read_ptx_sreg_laneid(); }
// Cross-lane exchange within a warp: the value lane (lane ^ mask) holds.
__device__ inline int shuffle_xor(int v, int mask) { return __nvvm_shfl_sync_bfly_i32(~0u, v, mask, 31); }
__device__ inline float shuffle_xor(float v, int mask) { return __nvvm_shfl_sync_bfly_f32(~0u, v, mask, 31); }
// 1 / sqrt(x), the hardware approximation (rsqrt.approx.f32).
__device__ inline float rsqrt(float x) { return __nvvm_rsqrt_approx_f(x); }
// The SM's cycle counter (clock64).
__device__ inline unsigned long long core_clock() { return __nvvm_read_ptx_sreg_clock64(); }
// Keep v in a register the compiler cannot see through (no hoisting).
template <class T>
__device__ inline void opaque(T& v) { asm volatile("" : "+r"(v)); }
#else
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
// 1 / sqrt(x), the hardware approximation (v_rsq_f32).
__device__ inline float rsqrt(float x) { return __builtin_amdgcn_rsqf(x); }
// The shader-clock counter (s_memtime, HIP's clock64).
__device__ inline unsigned long long core_clock() { return __builtin_amdgcn_s_memtime(); }
// Keep v in a VGPR the compiler cannot see through: a vector load, not a
// scalar-cache one, and no hoisting.
template <class T>
__device__ inline void opaque(T& v) { asm volatile("" : "+v"(v)); }
#endif

// CuTe's Swizzle<B,M,S> on an element offset: XOR the B bits at [M+S, M+S+B)
// into the B bits at [M, M+B).  The same function the layout spec applies.
template <int B, int M, int S>
__device__ inline int swizzle(int offset) {
  return offset ^ (((offset >> (M + S)) & ((1 << B) - 1)) << M);
}

}  // namespace tl

// ---- per-wave timestamps (the TILELAB_WAVE_STAMPS build) ----
// A kernel built with -DTILELAB_WAVE_STAMPS takes one more, last argument: a
// buffer of one 64-byte record per wave, at index
//   (blockIdx.y x gridDim.x + blockIdx.x) x waves per block + wave in block.
// Lane 0 of each wave writes its record when the wave leaves the kernel (the
// recorder is a scope object, so every return path writes it):
//   [0] core clock at entry   [1] core clock at exit   (s_memtime / clock64)
//   [2] constant-rate counter at entry  [3] at exit    (s_memrealtime / %globaltimer)
//   [4] AMD: HW_ID (s_getreg HW_REG_HW_ID)   NVIDIA: %smid
//   [5] AMD: XCC_ID (gfx940+; 0 before)      NVIDIA: %warpid
//   [6] blockIdx.x | blockIdx.y << 32        [7] wave in block
// The host side (hw/wave_stamps.hpp) decodes the ids and converts the clocks
// with the rates the device reports.  Kernels mark their scope with
//   extern "C" __global__ void k(args TL_WAVE_STAMPS_PARAM) { TL_WAVE_STAMPS(); ... }
namespace tl {
#if defined(__NVPTX__)
__device__ inline unsigned long long steady_clock() { return __nvvm_read_ptx_sreg_globaltimer(); }
__device__ inline unsigned long long hw_unit() { return __nvvm_read_ptx_sreg_smid(); }
__device__ inline unsigned long long hw_slot() { return __nvvm_read_ptx_sreg_warpid(); }
__device__ inline unsigned grid_blocks_x() { return __nvvm_read_ptx_sreg_nctaid_x(); }
__device__ inline unsigned block_threads() { return __nvvm_read_ptx_sreg_ntid_x(); }
#else
__device__ inline unsigned long long steady_clock() { return __builtin_amdgcn_s_memrealtime(); }
__device__ inline unsigned long long hw_unit() { return __builtin_amdgcn_s_getreg(0xF804); }  // HW_ID, all 32 bits
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__)
__device__ inline unsigned long long hw_slot() { return __builtin_amdgcn_s_getreg(0x1814); }  // XCC_ID[3:0]
#else
__device__ inline unsigned long long hw_slot() { return 0; }
#endif
// Code object v5's hidden arguments: block_count_x (u32) at 0, group_size_x (u16) at 12.
__device__ inline unsigned grid_blocks_x() {
  return *reinterpret_cast<const unsigned*>(__builtin_amdgcn_implicitarg_ptr());
}
__device__ inline unsigned block_threads() {
  return *reinterpret_cast<const unsigned short*>(static_cast<const char*>(__builtin_amdgcn_implicitarg_ptr()) + 12);
}
#endif

struct WaveStamps {
  unsigned long long* records;
  unsigned long long clock0, steady0;
  __device__ explicit WaveStamps(unsigned long long* r) : records(r), clock0(core_clock()), steady0(steady_clock()) {}
  __device__ ~WaveStamps() {
    const unsigned long long clock1 = core_clock(), steady1 = steady_clock();
    if (lane_id() != 0) return;
    const unsigned waves = (block_threads() + kWaveSize - 1) / kWaveSize, wave = threadIdx.x / kWaveSize;
    unsigned long long* r =
        records + 8 * ((static_cast<unsigned long long>(blockIdx.y) * grid_blocks_x() + blockIdx.x) * waves + wave);
    r[0] = clock0;
    r[1] = clock1;
    r[2] = steady0;
    r[3] = steady1;
    r[4] = hw_unit();
    r[5] = hw_slot();
    r[6] = blockIdx.x | static_cast<unsigned long long>(blockIdx.y) << 32;
    r[7] = wave;
  }
};
}  // namespace tl

#if defined(TILELAB_WAVE_STAMPS)
#define TL_WAVE_STAMPS_PARAM , unsigned long long* __restrict__ tl_wave_stamp_records
#define TL_WAVE_STAMPS() const tl::WaveStamps tl_wave_stamps_(tl_wave_stamp_records)
#else
#define TL_WAVE_STAMPS_PARAM
#define TL_WAVE_STAMPS() ((void)0)
#endif

#if !defined(__NVPTX__)
namespace tl {
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
#endif  // !__NVPTX__
