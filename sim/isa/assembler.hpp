// AMDGPU assembly as input.  Wherever tilelab takes a code object it also
// takes the assembly text compilers and people write (clang/hipcc -S, Triton's
// .amdgcn, FlyDSL's final ISA dump, AMD's hand-written .s): the text is
// assembled by the LLVM MC library (its AMDGPU assembly parser, the one
// llvm-mc uses; in a child process, see below) into a relocatable ELF
// object and linked by ld.lld into a code object, the same bytes
// `llvm-mc -filetype=obj` then `ld.lld -shared` give.  A file with several kernels gives a code object with all of them.
//
// Guarantee: either the linked code object's bytes, or an IsaError whose one
// line names the file, the line and column of the first error and LLVM's
// message ("k.s:12:9: invalid operand for instruction"); nothing is run and
// no file is left behind.  The text is data (sim/isa/assembly_policy): no
// file but the text is read, `.include`/`.incbin` are refused, literal
// counts and sizes are capped before LLVM sees them, and LLVM MC runs in a
// child process under AssemblyLimits' budget, so no input ends or hangs the
// caller (a child past its budget is an IsaError too).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/isa/assembly_policy.hpp"

namespace tilelab::isa {

// True when `bytes` are not an ELF file but text: the first bytes are not
// "\x7fELF" and contain no NUL.
bool looks_like_assembly(std::string_view bytes);

// Whether a file read as a code object is assembly to assemble: text named
// FILE.s, .S, .asm or .amdgcn, or any text with an `.amdgcn_target` or
// `.amdhsa_kernel` directive (other text is refused as "not an ELF file").
bool is_assembly_input(const std::string& path, std::string_view bytes);

// The processor the text names in its `.amdgcn_target "amdgcn-amd-amdhsa--gfxNNN"`
// directive (the part after "--", without target features), or "".
std::string assembly_target(std::string_view text);

// Assembles `text` (`name` labels its lines in errors) for `cpu`: the
// `.amdgcn_target` processor when the text has one (then `cpu` must be empty
// or the same), else `cpu` (IsaError when both are empty).  Returns the
// relocatable ELF object.
std::vector<std::uint8_t> assemble(std::string_view text, const std::string& name, const std::string& cpu = "",
                                   const AssemblyLimits& limits = {});

// assemble(), then link into a code object with ld.lld (-shared).
std::vector<std::uint8_t> assemble_code_object(std::string_view text, const std::string& name,
                                               const std::string& cpu = "", const AssemblyLimits& limits = {});

}  // namespace tilelab::isa
