// Shared-memory probes for the sm_90 bank model: each kernel makes exactly one
// shared-memory access per active lane of one warp, at the byte offset the
// host chose for that lane, so Nsight Compute's wavefront and bank-conflict
// counters for the launch belong to that one warp-instruction.  The access is
// written in PTX so that its width is exactly the one named.
// Build: nvcc -arch=sm_90 -cubin -O3 -o smem_bank_kernels.cubin smem_bank_kernels.cu

__device__ __forceinline__ unsigned shared_address(const void* base, unsigned offset) {
  return static_cast<unsigned>(__cvta_generic_to_shared(base)) + offset;
}

extern "C" __global__ void ld32(const unsigned* offsets, unsigned mask, unsigned* out) {
  __shared__ __align__(16) unsigned char smem[16384];
  unsigned lane = threadIdx.x, a = shared_address(smem, offsets[lane]), x = 0;
  if ((mask >> lane) & 1u) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(a));
  out[lane] = x;
}

extern "C" __global__ void ld64(const unsigned* offsets, unsigned mask, unsigned* out) {
  __shared__ __align__(16) unsigned char smem[16384];
  unsigned lane = threadIdx.x, a = shared_address(smem, offsets[lane]), x = 0, y = 0;
  if ((mask >> lane) & 1u) asm volatile("ld.volatile.shared.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(a));
  out[lane] = x ^ y;
}

extern "C" __global__ void ld128(const unsigned* offsets, unsigned mask, unsigned* out) {
  __shared__ __align__(16) unsigned char smem[16384];
  unsigned lane = threadIdx.x, a = shared_address(smem, offsets[lane]), x = 0, y = 0, z = 0, w = 0;
  if ((mask >> lane) & 1u)
    asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a));
  out[lane] = x ^ y ^ z ^ w;
}

extern "C" __global__ void st32(const unsigned* offsets, unsigned mask, unsigned* out) {
  __shared__ __align__(16) unsigned char smem[16384];
  unsigned lane = threadIdx.x, a = shared_address(smem, offsets[lane]), v = out[lane];
  if ((mask >> lane) & 1u) asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}

extern "C" __global__ void st64(const unsigned* offsets, unsigned mask, unsigned* out) {
  __shared__ __align__(16) unsigned char smem[16384];
  unsigned lane = threadIdx.x, a = shared_address(smem, offsets[lane]), v = out[lane];
  if ((mask >> lane) & 1u) asm volatile("st.volatile.shared.v2.u32 [%0], {%1,%1};" ::"r"(a), "r"(v) : "memory");
}

extern "C" __global__ void st128(const unsigned* offsets, unsigned mask, unsigned* out) {
  __shared__ __align__(16) unsigned char smem[16384];
  unsigned lane = threadIdx.x, a = shared_address(smem, offsets[lane]), v = out[lane];
  if ((mask >> lane) & 1u)
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1,%1,%1,%1};" ::"r"(a), "r"(v) : "memory");
}
