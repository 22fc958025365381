// libFuzzer target: any bytes given to the expression reader and evaluator
// must give a value or an ExprError — never a crash, a hang, a leak or UB
// (built with ASan + UBSan).  A value must also print and re-read to itself.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "layouts/expr.hpp"
#include "layouts/render.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  tilelab::Value v;
  try {
    v = tilelab::evaluate(text);
  } catch (const tilelab::ExprError&) {
    return 0;
  }
  std::string printed = tilelab::to_string(v);
  tilelab::to_json(v);
  // Round trip: what eval prints, eval reads back to the same value.
  tilelab::Value again = tilelab::evaluate(printed);
  if (tilelab::to_string(again) != printed) std::abort();
  // Pictures of small layouts must not crash either.
  if (auto* l = std::get_if<tilelab::Layout>(&v)) {
    try {
      if (tilelab::size(*l) <= 4096) tilelab::table(*l);
    } catch (const tilelab::LayoutError&) {
    }
  }
  return 0;
}
