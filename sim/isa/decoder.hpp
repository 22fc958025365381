// Decoding machine code with the LLVM MC library: MCDisassembler turns bytes
// into MCInsts, MCInstPrinter gives llvm-objdump's text, MCInstrInfo and
// MCInstrAnalysis give operand roles and branch targets.  One Decoder per
// processor; it is reusable and decoding is const.
#pragma once
#include <memory>
#include <span>
#include <string>

#include "sim/isa/code_object.hpp"
#include "sim/isa/program.hpp"

namespace tilelab::isa {

class Decoder {
 public:
  // cpu: an AMDGPU processor LLVM knows (gfx950, gfx942, ...).
  explicit Decoder(const std::string& cpu);
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  const std::string& cpu() const;

  // Decodes a kernel of a code object decoded for this processor.  Throws
  // IsaError "FILE: offset 0xN: ..." at the first bytes that do not decode.
  Program decode(const CodeObject& co, const Kernel& k) const;

  // Decodes raw bytes starting at `pc`; `where` and `file_offset` name them in errors.
  Program decode_bytes(std::span<const std::uint8_t> bytes, std::uint64_t pc, const std::string& where,
                       std::uint64_t file_offset) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Decoder for the code object's own processor, then decode(co, kernel).
Program decode_kernel(const CodeObject& co, const std::string& kernel);

}  // namespace tilelab::isa
