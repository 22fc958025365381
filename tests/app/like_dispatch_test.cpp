// sim --like's resolution (app/like_dispatch): a profiler's kernel name to the
// suite kernel, the dispatch's grid to the shape that launches it.
#include "app/like_dispatch.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tilelab::app {
namespace {

// A dispatch as the importer stores it: grid in work-items, workgroup in threads.
traces::RunView dispatch(const std::string& kernel, std::uint64_t grid_x, std::uint64_t grid_y, std::uint64_t threads,
                         const std::string& shape = "grid") {
  traces::RunView v;
  v.info.id = "rocprof-7";
  v.info.kind = "hw";
  v.info.kernel = kernel;
  v.info.problem_shape = shape;
  v.info.config_json = "{\"grid\":[" + std::to_string(grid_x) + "," + std::to_string(grid_y) + ",1],\"workgroup\":[" +
                       std::to_string(threads) + ",1,1]}";
  return v;
}

std::string refusal(const traces::RunView& v, const std::optional<std::vector<long long>>& shape = std::nullopt) {
  try {
    resolve_like(v, shape);
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    return e.what();
  }
  ADD_FAILURE() << "not refused";
  return "";
}

TEST(LikeDispatch, ProfilerNamesOfOneKernel) {
  EXPECT_EQ(suite_kernel_name("gemm_bf16"), "gemm_bf16");
  EXPECT_EQ(suite_kernel_name("gemm_bf16.kd"), "gemm_bf16");
  EXPECT_EQ(suite_kernel_name("void gemm_bf16<128, 128>(float*, int)"), "gemm_bf16");
  EXPECT_EQ(suite_kernel_name("vecCopy(double*, double*, double*, int, int) (.kd)"), "vecCopy");
  EXPECT_EQ(suite_kernel_name("  rmsnorm_bf16  "), "rmsnorm_bf16");
}

// gemm_bf16's 128x128 tiles: a 32x32 grid of 256-thread workgroups is
// M = N = 4096, and its one example with that grid is 4096^3.
TEST(LikeDispatch, ShapeFromTheGivenTheRecordedOrTheExampleWhoseGridItIs) {
  const traces::RunView big = dispatch("gemm_bf16", 32 * 256, 32, 256);
  const LikeDispatch from_example = resolve_like(big, std::nullopt);
  EXPECT_EQ(from_example.spec->name, "gemm_bf16");
  EXPECT_EQ(from_example.workgroups, 1024);
  EXPECT_EQ(from_example.shape, (std::vector<long long>{4096, 4096, 4096}));
  EXPECT_EQ(from_example.shape_from, "the example whose grid it is");
  const LikeDispatch given = resolve_like(big, std::vector<long long>{4096, 4096, 512});
  EXPECT_EQ(given.shape, (std::vector<long long>{4096, 4096, 512}));
  EXPECT_EQ(given.shape_from, "given");
  const LikeDispatch recorded = resolve_like(dispatch("void gemm_bf16(...)", 2 * 256, 2, 256, "K=64,M=256,N=256"), std::nullopt);
  EXPECT_EQ(recorded.shape, (std::vector<long long>{256, 256, 64}));
  EXPECT_EQ(recorded.shape_from, "the run's problem shape");
}

TEST(LikeDispatch, WhatDiffersIsOneLine) {
  EXPECT_EQ(refusal(dispatch("gemm_bf16", 32 * 256, 32, 256), std::vector<long long>{256, 256, 64}),
            "M=256,N=256,K=64 (given) launches 4 workgroups; run 'rocprof-7' ran 1024");
  EXPECT_EQ(refusal(dispatch("gemm_bf16", 3 * 256, 1, 256)),
            "run 'rocprof-7' does not say gemm_bf16's shape (profiles record no kernel arguments): its grid is 3 "
            "workgroups; give --shape M,N,K");
  EXPECT_EQ(refusal(dispatch("gemm_bf16", 512, 2, 64)),
            "run 'rocprof-7' ran workgroups of 64 threads; the suite's gemm_bf16 has 256 (another build of the kernel?)");
  EXPECT_NE(refusal(dispatch("vecCopy(double*) (.kd)", 512, 1, 256)).find("('vecCopy'), which is no suite kernel ("),
            std::string::npos);
  traces::RunView simulated = dispatch("gemm_bf16", 512, 2, 256);
  simulated.info.kind = "sim";
  EXPECT_EQ(refusal(simulated),
            "run 'rocprof-7' is a sim run; --like takes a dispatch measured on a GPU (kind hw: imported or `tilelab run`)");
  EXPECT_NE(refusal(dispatch("gemm_bf16", 512, 2, 256), std::vector<long long>{100, 256, 64}).find("M=100,N=256,K=64 (given): "),
            std::string::npos);
}

}  // namespace
}  // namespace tilelab::app
