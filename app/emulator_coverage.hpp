// What stands between code objects and a functional run (`tilelab disasm
// --coverage`, tilelab.coverage in Python): per kernel whether the emulator
// can run it and why not, and the opcodes it cannot run (no semantics,
// refused on purpose with the reason, or operands it cannot read), with how
// often each occurs and in how many kernels.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/json.hpp"

namespace tilelab::app {

struct OpcodeGap {
  std::string opcode;
  std::string kind;     // "no semantics", "refused", "operands not read"
  std::string refusal;  // kind "refused": why (emu::refusal)
  std::uint64_t instructions = 0, kernels = 0;
};

struct KernelVerdict {
  std::string kernel, file;
  std::string why;  // empty: the emulator can run it
};

struct EmulatorCoverage {
  std::uint64_t kernels = 0, instructions = 0, runnable = 0;
  std::vector<OpcodeGap> gaps;  // most instructions first (ties: by name)
  std::vector<KernelVerdict> verdicts;  // in file and kernel order
  std::uint64_t uncovered() const;      // instructions of the gaps
};

// Reads every file (code object or assembly); throws what reading throws.
EmulatorCoverage emulator_coverage(const std::vector<std::string>& files);

// {"kernels", "instructions", "runnable", "uncovered", "gaps": [{"opcode", "kind", "refusal",
//  "instructions", "kernels"}], "verdicts": [{"kernel", "file", "can_run", "why"}]}
Json coverage_json(const EmulatorCoverage& c);

}  // namespace tilelab::app
