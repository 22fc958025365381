// What `tilelab compile` and `tilelab disasm` print about a code object: one
// resource summary per kernel (registers, LDS, scratch, occupancy), and the
// annotated listing.
#pragma once
#include <ostream>

#include "sim/arch/arch.hpp"
#include "sim/isa/code_object.hpp"
#include "sim/isa/program.hpp"

namespace tilelab::cli {

// Registers, LDS, scratch, arguments and occupancy (when an arch file for the
// code object's processor exists) of one kernel.
void print_resources(std::ostream& out, const isa::CodeObject& co, const isa::Kernel& k,
                     std::uint32_t dynamic_lds = 0);

// Instruction-class counts for the whole kernel and for each loop body.
void print_class_counts(std::ostream& out, const isa::Program& p);

// For each loop: what one iteration of one wave asks of each unit, and the
// bound that makes — MFMA cycles (the arch table's, FP8 or FP6/FP4 rate from
// cbsz/blgp), LDS port cycles if every access is conflict-free (the phase
// table's passes, 2 clocks each on a SIMD pair's port), and global bytes at
// this CU's share of HBM with every CU busy — and which unit limits it.  A
// design check for a code object without a spec.
void print_loop_bounds(std::ostream& out, const isa::Program& p, const arch::Arch& a);

// The listing: pc, class, loop nesting bars, a mark for MFMA (M) and LDS (L)
// instructions (in colour when `colour`), and the text llvm-objdump prints.
// `source`: per instruction, its source line (isa::source_lines), printed as
// "; file:line" before the instruction where it changes; empty: none.
void print_listing(std::ostream& out, const isa::Program& p, bool colour, const std::vector<std::string>& source = {});

}  // namespace tilelab::cli
