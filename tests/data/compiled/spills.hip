// A compiler-built kernel that spills (issue 26): 48 values live at once
// under a 16-VGPR limit (amdgpu_num_vgpr), so clang-22 keeps most of them in
// the private segment (scratch_store / scratch_load, architected flat
// scratch on gfx950).  Integer arithmetic, so the result is exact:
//   out[t] = sum_i (in[48t + i] * in[48t + 47 - i]) ^ in[48t + (7i mod 48)]
// for t = the work-item's global index (64 per workgroup).
extern "C" __attribute__((global)) __attribute__((amdgpu_num_vgpr(16))) void spills(unsigned* out, const unsigned* in) {
  const unsigned t = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 64;
  unsigned v[48];
#pragma unroll
  for (int i = 0; i < 48; ++i) v[i] = in[t * 48 + i];
  unsigned s = 0;
#pragma unroll
  for (int i = 0; i < 48; ++i) s += (v[i] * v[47 - i]) ^ v[(i * 7) % 48];
  out[t] = s;
}
