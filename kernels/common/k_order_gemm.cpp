#include "kernels/common/k_order_gemm.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "kernels/common/formats.hpp"

namespace tilelab::kernels {

// For speed the loop runs over a block of kColumns output columns at once
// (each with its own accumulator, summed in the same k order, so the compiler
// vectorizes across columns without reassociating any sum), on B transposed
// to k-major, with the rows split between the machine's threads.  No
// multiply and add may fuse: CMakeLists.txt compiles this file with
// -ffp-contract=off (GCC contracts by default wherever the target has FMA).
void gemm_in_k_order(int M, int N, int K, const std::function<void(int m, float* row)>& a_row,
                     const std::function<float(int n, int k)>& b, std::uint16_t* C) {
  constexpr int kColumns = 16;
  const int blocks = (N + kColumns - 1) / kColumns;
  // bt[(block * K + k) * kColumns + j] = B[block * kColumns + j][k] (0 past N).
  std::vector<float> bt(static_cast<std::size_t>(blocks) * K * kColumns, 0.f);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) bt[(static_cast<std::size_t>(n / kColumns) * K + k) * kColumns + n % kColumns] = b(n, k);
  auto rows = [&](int m_begin, int m_end) {
    std::vector<float> a(static_cast<std::size_t>(K));
    for (int m = m_begin; m < m_end; ++m) {
      a_row(m, a.data());
      for (int block = 0; block < blocks; ++block) {
        float acc[kColumns] = {};
        const float* bk = bt.data() + static_cast<std::size_t>(block) * K * kColumns;
        for (int k = 0; k < K; ++k)
          for (int j = 0; j < kColumns; ++j) acc[j] += a[static_cast<std::size_t>(k)] * bk[k * kColumns + j];
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
