// A compiler-built kernel with generic (flat) pointers (issue 26): each
// work-item picks, by its input, a pointer into LDS, into its own private
// array or into global memory, then writes and reads through it.  clang-22
// makes the generic pointers with the apertures (s_mov_b64 from
// src_shared_base / src_private_base) and uses flat_store / flat_load.
// Integer arithmetic, so the result is exact: with k = in[t] % 3 and
// v = in[t] * 3 + t,
//   out[t] = v + 1  (k = 0: through LDS word lane; k = 1: through the
//   private word in[t] % 8; k = 2: through scratch_out[t]),
// and scratch_out[t] = v for k = 2 (untouched otherwise).
extern "C" __attribute__((global)) void flat(unsigned* out, const unsigned* in, unsigned* scratch_out) {
  __attribute__((shared)) unsigned tile[64];
  unsigned priv[8];
  const unsigned lane = __builtin_amdgcn_workitem_id_x();
  const unsigned t = lane + __builtin_amdgcn_workgroup_id_x() * 64;
  const unsigned x = in[t], k = x % 3, v = x * 3 + t;
  for (unsigned i = 0; i < 8; ++i) priv[i] = i;
  unsigned* volatile p = k == 0 ? &tile[lane] : k == 1 ? &priv[x % 8] : &scratch_out[t];
  *p = v;
  out[t] = *p + 1;
}
