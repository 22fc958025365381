// The CPU references' parallel loops: the work split between the machine's
// cores, each share's result independent of how many there are.
#pragma once
#include <algorithm>
#include <functional>
#include <thread>
#include <vector>

namespace tilelab::kernels {

// Runs share(t, threads) for t = 0, ..., threads - 1, share 0 on the calling
// thread and each other on its own; threads is the machine's core count, at
// most `most` (at least 1).  Returns when every share has.
inline void on_host_threads(int most, const std::function<void(int t, int threads)>& share) {
  const int threads = std::max(1, std::min<int>(static_cast<int>(std::thread::hardware_concurrency()), most));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(share, t, threads);
  share(0, threads);
  for (std::thread& t : pool) t.join();
}

}  // namespace tilelab::kernels
