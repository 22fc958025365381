// Speed of the layout algebra on the layouts kernels use (rank 2–3, depth ≤ 2).
// Target (issue #2): ≥ 100× pycute per core, i.e. ≥ 5 M compositions/s and
// ≥ 2 M logical_divides/s.  Run: build/bin/bench_layouts
#include <benchmark/benchmark.h>

#include <vector>

#include "layouts/algebra.hpp"
#include "layouts/expr.hpp"

namespace {

using namespace tilelab;

Layout lay(const char* text) { return std::get<Layout>(evaluate(text)); }

// A few layouts of the kind a GEMM tile produces, cycled so that branch
// prediction does not learn a single case.
struct Cases {
  std::vector<Layout> a, b;
  std::vector<Tiler> tilers;
  Cases() {
    a = {lay("(6,2):(8,2)"), lay("(12,(4,8)):(59,(13,1))"), lay("((8,4),(16,2)):((64,1),(4,512))"),
         lay("(128,64):(64,1)"), lay("(9,(4,8)):(59,(13,1))"), lay("(64,(8,4)):(1,(64,512))")};
    b = {lay("(4,3):(3,1)"), lay("(4,8):(3,12)"), lay("(4,8):(2,16)"),
         lay("(16,8):(1,128)"), lay("(3,8):(3,1)"), lay("(8,4):(8,1)")};
    tilers = {Tiler(lay("(2,3):(1,2)")), Tiler(std::vector<Tiler>{lay("4:1"), lay("2:4")}),
              Tiler(std::vector<Tiler>{lay("4:2"), lay("(2,8):(1,4)")}), Tiler(std::vector<Tiler>{Tiler(16), Tiler(8)}),
              Tiler(std::vector<Tiler>{lay("3:3"), lay("(2,4):(1,8)")}), Tiler(std::vector<Tiler>{Tiler(8), Tiler(4)})};
    // Every case must be admissible, or the numbers would time error paths.
    for (std::size_t i = 0; i < a.size(); ++i) {
      composition(a[i], b[i]);
      logical_divide(a[i], tilers[i]);
    }
  }
};

const Cases& cases() {
  static const Cases c;
  return c;
}

void BM_Composition(benchmark::State& state) {
  const Cases& c = cases();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(composition(c.a[i], c.b[i]));
    i = (i + 1) % c.a.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Composition);

void BM_Complement(benchmark::State& state) {
  const std::vector<Layout> in = {lay("(2,2):(1,6)"), lay("(4,(2,4)):(2,(1,64))"), lay("(8,4):(1,64)"),
                                  lay("(16,8):(4,128)")};
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(complement(in[i], 4096));
    i = (i + 1) % in.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Complement);

void BM_LogicalDivide(benchmark::State& state) {
  const Cases& c = cases();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(logical_divide(c.a[i], c.tilers[i]));
    i = (i + 1) % c.a.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LogicalDivide);

void BM_RightInverse(benchmark::State& state) {
  const Cases& c = cases();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(right_inverse(c.a[i]));
    i = (i + 1) % c.a.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RightInverse);

void BM_ParseAndEvaluate(benchmark::State& state) {
  const std::string text = "logical_divide((9,(4,8)):(59,(13,1)),<3:3,(2,4):(1,8)>)";
  for (auto _ : state) benchmark::DoNotOptimize(to_string(evaluate(text)));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseAndEvaluate);

}  // namespace

BENCHMARK_MAIN();
