// Where each instruction came from: the code object's DWARF line table, read
// with LLVM's DebugInfoDWARF (the suite's kernels are built with clang's
// -gline-tables-only, which leaves the machine code unchanged, and
// -fdebug-prefix-map, so the files are named from the source root).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/isa/code_object.hpp"

namespace tilelab::isa {

// One entry per pc (a virtual address in .text): "file:line", the innermost
// source line the line table gives (an inlined function's own line), or ""
// when there is none (a code object without a line table, code the compiler
// made up).  A line table LLVM cannot read is no line table.
std::vector<std::string> source_lines(const CodeObject& co, std::span<const std::uint64_t> pcs);

}  // namespace tilelab::isa
