// A compiler-built kernel that uses AGPRs (a16 through inline assembly), for
// the code-object reader's register counts: LLVM writes the unified
// allocation as .vgpr_count (arch VGPRs aligned to 4, then 17 AGPRs) and the
// AGPRs again as .agpr_count.
extern "C" __attribute__((global)) void uses_agprs(float* out) {
  const unsigned t = __builtin_amdgcn_workitem_id_x();
  float x = out[t];
  asm volatile("v_accvgpr_write_b32 a16, %0\n v_accvgpr_read_b32 %0, a16" : "+v"(x) : : "a16");
  out[t] = x;
}
