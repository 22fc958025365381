// CPU reference of topk_f32 / topk_bf16: the k largest values of each row
// and their indices, in the kernel's order (larger value first; NaN above
// every number; equal values — and NaNs — by increasing index).
#pragma once
#include <cstdint>

namespace tilelab::kernels {

// Does (va, ia) come before (vb, ib) in topk's output order?
bool topk_ranks_before(float va, int ia, float vb, int ib);

// values/indices: rows × k.  For bf16 rows, pass the decoded floats; the
// kernel's bf16 values are these floats converted back (exactly: they were
// bf16 to begin with).
void topk_reference(const float* in, int rows, int n, int k, float* values, int* indices);

}  // namespace tilelab::kernels
