// libFuzzer target: any bytes given to the architecture-file reader must give
// an Arch or an ArchError naming file and line — never a crash or UB.  toml++
// is compiled header-only into this target so that it is instrumented too.
#include <cstdint>
#include <string>

#include "sim/arch/arch.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    tilelab::arch::Arch a = tilelab::arch::parse_arch(text, "fuzz.toml");
    tilelab::arch::describe(a);
  } catch (const tilelab::arch::ArchError&) {
  }
  return 0;
}
