#include "kernels/common/k_order_gemm.hpp"

#include <algorithm>
#include <vector>

#include "kernels/common/formats.hpp"
#include "kernels/common/host_threads.hpp"

namespace tilelab::kernels {

namespace {

constexpr int kColumns = 32;  // output columns summed at once, each its own accumulator
constexpr int kRows = 16;     // rows of A unpacked at once

// One block of kColumns outputs of `rows` rows: for each row, the sums over
// k in order, one add chain per column.  The compiler vectorizes across the
// columns (independent chains: no sum is reassociated); several vectors of
// chains hide the add latency.  Built for AVX-512 too, chosen at run time:
// the same IEEE single-precision operations, so the same bits.
__attribute__((target_clones("avx512f", "default"))) void block_sums(int rows, int K, const float* a, const float* bk,
                                                                      float* sums) {
  for (int r = 0; r < rows; ++r) {
    float acc[kColumns] = {};
    const float* ar = a + static_cast<std::size_t>(r) * K;
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < kColumns; ++j) acc[j] += ar[k] * bk[static_cast<std::size_t>(k) * kColumns + j];
    std::copy(acc, acc + kColumns, sums + static_cast<std::size_t>(r) * kColumns);
  }
}

}  // namespace

// For speed: B transposed to k-major blocks of kColumns columns; A unpacked
// kRows rows at a time, so that each block of B is read from cache kRows
// times instead of streamed from memory once per row; the rows split
// between the machine's threads.  No multiply and add may fuse:
// CMakeLists.txt compiles this file with -ffp-contract=off (GCC contracts by
// default wherever the target has FMA).
void gemm_in_k_order(int M, int N, int K, const std::function<void(int m, float* row)>& a_row,
                     const std::function<float(int n, int k)>& b, std::uint16_t* C) {
  const int blocks = (N + kColumns - 1) / kColumns;
  // bt[(block * K + k) * kColumns + j] = B[block * kColumns + j][k] (0 past N).
  std::vector<float> bt(static_cast<std::size_t>(blocks) * K * kColumns, 0.f);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) bt[(static_cast<std::size_t>(n / kColumns) * K + k) * kColumns + n % kColumns] = b(n, k);
  auto rows = [&](int m_begin, int m_end) {
    std::vector<float> a(static_cast<std::size_t>(kRows) * K), sums(static_cast<std::size_t>(kRows) * kColumns);
    for (int m0 = m_begin; m0 < m_end; m0 += kRows) {
      const int count = std::min(kRows, m_end - m0);
      for (int r = 0; r < count; ++r) a_row(m0 + r, a.data() + static_cast<std::size_t>(r) * K);
      for (int block = 0; block < blocks; ++block) {
        block_sums(count, K, a.data(), bt.data() + static_cast<std::size_t>(block) * K * kColumns, sums.data());
        for (int r = 0; r < count; ++r)
          for (int j = 0; j < kColumns && block * kColumns + j < N; ++j)
            C[static_cast<long>(m0 + r) * N + block * kColumns + j] =
                float_to_bf16(sums[static_cast<std::size_t>(r) * kColumns + static_cast<std::size_t>(j)]);
      }
    }
  };
  on_host_threads(M / 64, [&](int t, int threads) { rows(M * t / threads, M * (t + 1) / threads); });
}

}  // namespace tilelab::kernels
