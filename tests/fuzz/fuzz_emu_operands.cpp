// libFuzzer target: the emulator's reader of instruction text
// (sim/emu/operands).  Any input either parses or throws EmuError; nothing
// else (no crash, no sanitizer report, no other exception).
#include <cstdint>
#include <string_view>

#include "sim/emu/operands.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    tilelab::emu::ParsedText p =
        tilelab::emu::parse_text(std::string_view(reinterpret_cast<const char*>(data), size));
    for (const auto& op : p.ops) {
      (void)op.bits32();
      (void)op.bits64(true);
      if (op.loc == tilelab::emu::Loc::SGPR && op.index + op.count > 128) __builtin_trap();
      if ((op.loc == tilelab::emu::Loc::VGPR || op.loc == tilelab::emu::Loc::AGPR) && op.index + op.count > 256)
        __builtin_trap();
    }
  } catch (const tilelab::emu::EmuError&) {
  }
  return 0;
}
