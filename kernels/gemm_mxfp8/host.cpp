// gemm_mxfp8's host: the MX GEMM host (kernels/common/mx_gemm_host.cpp) with
// E4M3 elements; the 32x32 kernel takes the same arguments and reference
// (the 32x32x64 MFMA atom).
#include "kernels/host.hpp"

namespace tilelab::kernels {

std::vector<HostEntry> gemm_mxfp8_suite_hosts() {
  return {{"gemm_mxfp8", gemm_mxfp8_host}, {"gemm_mxfp8_32x32", gemm_mxfp8_host}};
}

}  // namespace tilelab::kernels
