// What tilelab accepts as assembly input.  An assembly file is data a user
// may have been sent, so the assembler may not read any file but the text it
// is given, and no input may make it run or allocate without bound
// (docs/assembly-input.md states the policy):
//
//  - `.include` and `.incbin` are refused wherever they appear (also inside a
//    macro body), and LLVM's source manager is given an empty file system,
//    so no spelling a macro builds can open a file either;
//  - the text is at most `max_input_bytes`; a `.rept`/`.irp` count, a
//    `.fill`/`.skip`/`.space`/`.zero`/`.org` size and an alignment written as
//    a literal are checked against their caps before LLVM allocates anything;
//  - what a literal check cannot see (a count computed from symbols, macros
//    expanding into macros) is bounded by running LLVM MC in a child process
//    with a CPU-time, wall-time and memory budget (assembler.cpp), and by a
//    cap on the object it returns.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilelab::isa {

struct AssemblyLimits {
  std::uint64_t max_input_bytes = 64ull << 20;   // the text (AMD's largest gfx950 kernel: about 2 MB)
  std::uint64_t max_repeat = 1u << 20;           // a .rept/.irp count
  std::uint64_t max_fill_bytes = 16ull << 20;    // one .fill/.skip/.space/.zero/.org/alignment
  std::uint64_t max_object_bytes = 256ull << 20; // the object LLVM writes (every section together)
  double cpu_seconds = 60;                       // the child's CPU time
  double wall_seconds = 180;                     // the child's wall time (a loaded machine)
  std::uint64_t memory_bytes = 4ull << 30;       // the child's address space beyond the parent's
};

// The first statement the policy refuses, as one line "NAME:LINE: what", or
// nullopt.  Reads only the text (comments and strings skipped).
std::optional<std::string> assembly_policy_problem(std::string_view text, const std::string& name,
                                                   const AssemblyLimits& limits = {});

}  // namespace tilelab::isa
