// gemm_mxfp4's host: the MX GEMM host (kernels/common/mx_gemm_host.cpp) with
// E2M1 elements; the 32x32 kernel takes the same arguments and reference
// (the 32x32x64 MFMA atom).
#include "kernels/host.hpp"

namespace tilelab::kernels {

std::vector<HostEntry> gemm_mxfp4_suite_hosts() {
  return {{"gemm_mxfp4", gemm_mxfp4_host}, {"gemm_mxfp4_32x32", gemm_mxfp4_host}};
}

}  // namespace tilelab::kernels
