// libFuzzer target: any bytes as a launch-template expression
// (kernels/launch_expression) give a parsed expression whose value over a
// fixed shape is exact or a LaunchExpressionError naming the cause; never a
// crash, UB (signed overflow included), a hang or unbounded recursion.
#include <cstdint>
#include <string_view>

#include "kernels/launch_expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tilelab::kernels::LaunchExpression;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const LaunchExpression e = LaunchExpression::parse(text);
    (void)e.names();
    const tilelab::kernels::Exact v = e.evaluate({{"M", 4096}, {"N", 1000}, {"K", 7}, {"s", 3}});
    if (v.den <= 0) __builtin_trap();  // lowest terms, positive denominator
    (void)e.whole({{"M", 1}, {"N", 2}, {"K", 3}, {"s", 0}});
  } catch (const tilelab::kernels::LaunchExpressionError&) {
  }
  return 0;
}
