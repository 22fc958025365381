#include "kernels/gemm_bf16/reference.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "kernels/common/formats.hpp"

namespace tilelab::kernels {

// Each C[m][n] is the f32 sum over k = 0, 1, ..., K-1 of A[m][k]·B[n][k], one
// rounding per add in that order, then one rounding to bf16 — the plain
// triple loop's result, bit for bit.  For speed the loop runs over a block of
// kColumns output columns at once (each with its own accumulator, summed in
// the same k order, so the compiler vectorizes across columns without
// reassociating any sum), on B transposed to k-major, with the rows split
// between the machine's threads.
void gemm_bf16_reference(const std::uint16_t* A, const std::uint16_t* B, int M, int N, int K, std::uint16_t* C) {
  constexpr int kColumns = 16;
  const int blocks = (N + kColumns - 1) / kColumns;
  // bt[(block * K + k) * kColumns + j] = B[block * kColumns + j][k] (0 past N).
  std::vector<float> bt(static_cast<std::size_t>(blocks) * K * kColumns, 0.f);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      bt[(static_cast<std::size_t>(n / kColumns) * K + k) * kColumns + n % kColumns] =
          bf16_to_float(B[static_cast<long>(n) * K + k]);
  auto rows = [&](int m_begin, int m_end) {
    std::vector<float> a(static_cast<std::size_t>(K));
    for (int m = m_begin; m < m_end; ++m) {
      for (int k = 0; k < K; ++k) a[static_cast<std::size_t>(k)] = bf16_to_float(A[static_cast<long>(m) * K + k]);
      for (int block = 0; block < blocks; ++block) {
        float acc[kColumns] = {};
        const float* b = bt.data() + static_cast<std::size_t>(block) * K * kColumns;
        for (int k = 0; k < K; ++k)
          for (int j = 0; j < kColumns; ++j) acc[j] += a[static_cast<std::size_t>(k)] * b[k * kColumns + j];
        for (int j = 0; j < kColumns && block * kColumns + j < N; ++j)
          C[static_cast<long>(m) * N + block * kColumns + j] = float_to_bf16(acc[j]);
      }
    }
  };
  const int threads = std::max(1, std::min<int>(static_cast<int>(std::thread::hardware_concurrency()), M / 64));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(rows, M * t / threads, M * (t + 1) / threads);
  rows(0, M / threads);
  for (std::thread& t : pool) t.join();
}

}  // namespace tilelab::kernels
