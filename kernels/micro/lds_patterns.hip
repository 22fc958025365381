// LDS access-pattern microbenchmarks: one wave-level LDS instruction shape per
// kernel, repeated `iters` times, timed with s_memtime around the loop.  Lane
// l accesses byte address (l * stride_bytes) ^ xor_mask(l) within a 64 KiB
// region, so one kernel covers unit stride, power-of-two strides (the classic
// conflicts) and XOR-swizzled variants, chosen at launch.  These calibrate and
// validate the LDS part of the cycle model against SQ_LDS_BANK_CONFLICT.
// Output: out[block * 2] = elapsed s_memtime ticks, out[block * 2 + 1] = a
// checksum that keeps the reads alive.
#include "kernels/common/tilelab_hip.hpp"

namespace {
constexpr int kLdsBytes = 65536;

// Byte address of this lane: l*stride, XORed with (l >> swz_shift) << 4 when
// swz_shift >= 0 (a 16-byte-chunk swizzle), wrapped into the region and
// aligned to the access width.
__device__ inline unsigned lane_address(int stride_bytes, int swz_shift, unsigned width) {
  const unsigned l = tl::lane_id();
  unsigned a = l * (unsigned)stride_bytes;
  if (swz_shift >= 0) a ^= (l >> swz_shift) << 4;
  return (a % kLdsBytes) & ~(width - 1);
}

template <class T>
__device__ void lds_read(unsigned long long* out, int stride_bytes, int swz_shift, int iters) {
  __shared__ __attribute__((aligned(16))) unsigned char lds[kLdsBytes];
  for (int i = threadIdx.x; i < kLdsBytes / 4; i += 64) reinterpret_cast<unsigned*>(lds)[i] = i;
  __syncthreads();
  const unsigned addr = lane_address(stride_bytes, swz_shift, sizeof(T));
  T sum{};
  const unsigned long long t0 = __builtin_amdgcn_s_memtime();
  unsigned a = addr;
  for (int i = 0; i < iters; ++i) {
    asm volatile("" : "+v"(a));  // the address is "new" each time: no hoisting, no merging
    sum += *reinterpret_cast<const T*>(lds + a);
  }
  const unsigned long long t1 = __builtin_amdgcn_s_memtime();
  if (threadIdx.x == 0) out[blockIdx.x * 2] = t1 - t0;
  unsigned long long check = 0;
  for (unsigned e = 0; e < sizeof(T) / 4; ++e) check += reinterpret_cast<const unsigned*>(&sum)[e];
  if (check == 0x12345678u) out[blockIdx.x * 2 + 1] = check;
}

template <class T>
__device__ void lds_write(unsigned long long* out, int stride_bytes, int swz_shift, int iters) {
  __shared__ __attribute__((aligned(16))) unsigned char lds[kLdsBytes];
  const unsigned addr = lane_address(stride_bytes, swz_shift, sizeof(T));
  T value{};
  value += (T)tl::lane_id();
  const unsigned long long t0 = __builtin_amdgcn_s_memtime();
  unsigned a = addr;
  for (int i = 0; i < iters; ++i) {
    asm volatile("" : "+v"(a));
    *reinterpret_cast<T*>(lds + a) = value;
    value += 1;
  }
  const unsigned long long t1 = __builtin_amdgcn_s_memtime();
  __syncthreads();
  if (threadIdx.x == 0) {
    out[blockIdx.x * 2] = t1 - t0;
    out[blockIdx.x * 2 + 1] = reinterpret_cast<unsigned*>(lds)[0];
  }
}
}  // namespace

typedef unsigned u32x3 __attribute__((ext_vector_type(3)));

#define TILELAB_LDS_KERNEL(name, fn, T)                                                                    \
  extern "C" __global__ __launch_bounds__(64) void name(unsigned long long* out, int stride_bytes, int swz_shift, \
                                                       int iters TL_WAVE_STAMPS_PARAM) {                    \
    TL_WAVE_STAMPS();                                                                                      \
    fn<T>(out, stride_bytes, swz_shift, iters);                                                            \
  }
TILELAB_LDS_KERNEL(lds_read_b32, lds_read, unsigned)
TILELAB_LDS_KERNEL(lds_read_b64, lds_read, tl::u32x2)
TILELAB_LDS_KERNEL(lds_read_b128, lds_read, tl::u32x4)
TILELAB_LDS_KERNEL(lds_write_b32, lds_write, unsigned)
TILELAB_LDS_KERNEL(lds_write_b64, lds_write, tl::u32x2)
TILELAB_LDS_KERNEL(lds_write_b128, lds_write, tl::u32x4)

#if defined(__gfx950__)
// gfx950's transposing read: ds_read_b64_tr_b16 (16-bit elements).  Each lane
// gives an address; the hardware returns a transposed 4×16-bit slice across
// lane groups (see arch-facts.md).
typedef short s16x4 __attribute__((ext_vector_type(4)));
extern "C" __global__ __launch_bounds__(64) void lds_read_b64_tr_b16(unsigned long long* out, int stride_bytes,
                                                                    int swz_shift, int iters TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  __shared__ __attribute__((aligned(16))) unsigned char lds[kLdsBytes];
  for (int i = threadIdx.x; i < kLdsBytes / 4; i += 64) reinterpret_cast<unsigned*>(lds)[i] = i;
  __syncthreads();
  const unsigned addr = lane_address(stride_bytes, swz_shift, 8);
  s16x4 sum = {0, 0, 0, 0};
  const unsigned long long t0 = __builtin_amdgcn_s_memtime();
  for (int i = 0; i < iters; ++i) {
    unsigned a = addr;
    asm volatile("" : "+v"(a));
    sum += __builtin_amdgcn_ds_read_tr16_b64_v4i16((__attribute__((address_space(3))) s16x4*)(lds + a));
  }
  const unsigned long long t1 = __builtin_amdgcn_s_memtime();
  if (threadIdx.x == 0) out[blockIdx.x * 2] = t1 - t0;
  if (sum[0] + sum[1] + sum[2] + sum[3] == 0x1234) out[blockIdx.x * 2 + 1] = 1;
}
#endif
