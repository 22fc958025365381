// libFuzzer target: any bytes as assembly input (sim/isa/assembler) give the
// relocatable object or an IsaError of one line; never a file read, a crash
// or a hang of the caller.  The text is assembled for gfx950 under a tight
// budget, so inputs that expand without bound end the child, not the run.
// LLVM itself is not instrumented (Debian's libLLVM): what the fuzzer
// steers by is the policy's text scan and the child's protocol, and the
// dictionary (asm.dict) puts directives, counts and file names in reach.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "sim/isa/assembler.hpp"
#include "sim/isa/code_object.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tilelab::isa::AssemblyLimits limits;
  limits.max_input_bytes = 1 << 16;
  limits.max_repeat = 1 << 10;
  limits.max_fill_bytes = 1 << 16;
  limits.max_object_bytes = 1 << 20;
  limits.cpu_seconds = 1;
  limits.wall_seconds = 4;
  limits.memory_bytes = 256ull << 20;
  try {
    const std::vector<std::uint8_t> object = tilelab::isa::assemble(text, "f.s", "gfx950", limits);
    if (object.size() > limits.max_object_bytes) __builtin_trap();
    // No file's bytes reach the object (the seed secret is what .incbin would read).
    const std::string_view bytes(reinterpret_cast<const char*>(object.data()), object.size());
    if (bytes.find("TILELAB-FUZZ-SECRET") != std::string_view::npos && text.find("TILELAB-FUZZ-SECRET") == std::string_view::npos)
      __builtin_trap();
  } catch (const tilelab::isa::IsaError& e) {
    if (std::strchr(e.what(), '\n')) __builtin_trap();  // one line
  }
  return 0;
}
