// A compiler-built kernel that reads and writes the code object's own
// globals (issue 26): a __constant__ table in .rodata and a __device__ array
// in .bss, which clang-22 reaches pc-relative (s_getpc_b64, then the rel32
// offsets the linker resolved).  Integer arithmetic, so the result is exact:
//   hits[t % 8] += 1 (atomically),  out[t] = kTable[(in[t] * 7) % 64] + t
// for t = the work-item's global index; `hits` is read back by the second
// kernel: counts[i] = hits[i].
__attribute__((constant)) unsigned kTable[64] = {
    3,   1,   4,   1,   5,   9,   2,   6,   5,   3,   5,   8,   9,   7,   9,   3,   2,   3,   8,   4,   6,   2,
    6,   4,   3,   3,   8,   3,   2,   7,   9,   5,   0,   2,   8,   8,   4,   1,   9,   7,   1,   6,   9,   3,
    9,   9,   3,   7,   5,   1,   0,   5,   8,   2,   0,   9,   7,   4,   9,   4,   4,   5,   9,   2};
__attribute__((device)) unsigned hits[8];

extern "C" __attribute__((global)) void globals(unsigned* out, const unsigned* in) {
  const unsigned t = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64;
  __atomic_fetch_add(&hits[t % 8], 1u, __ATOMIC_RELAXED);
  out[t] = kTable[(in[t] * 7u) % 64u] + t;
}

extern "C" __attribute__((global)) void global_counts(unsigned* counts) {
  const unsigned i = __builtin_amdgcn_workitem_id_x();
  if (i < 8) counts[i] = hits[i];
}
