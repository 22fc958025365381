// The kernarg segment of a kernel, laid out once for every backend from the
// code object's metadata: the functional emulator, the cycle model and the
// HIP runner (and the CUDA runner, from the driver's parameter table) all
// place a launch's argument values with these functions.
//
// A launch gives one 64-bit value per explicit argument, in the metadata's
// order: pointers as device addresses, integers and floats as their bits.
// Guarantee: pack_arguments writes value i's low `size` bytes, little-endian,
// at slot i's offset and nothing else; the bytes between slots are zero.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/isa/code_object.hpp"

namespace tilelab::isa {

// Where one explicit argument lives in the kernarg segment.
struct ArgumentSlot {
  std::uint32_t offset = 0, size = 0;
  std::string name;  // empty where the compiler recorded none
};

// The explicit (not hidden_*) arguments of `k`, in order.
std::vector<ArgumentSlot> explicit_arguments(const Kernel& k);

// The explicit-argument bytes: exactly as long as the last slot's end (the
// CUDA driver refuses a longer parameter buffer with LAUNCH_OUT_OF_RESOURCES,
// measured on an H200).  Throws IsaError naming `kernel` when the value count differs from the
// slot count, or a slot is wider than 8 bytes (aggregates passed by value).
std::vector<std::uint8_t> pack_arguments(const std::vector<ArgumentSlot>& slots,
                                         const std::vector<std::uint64_t>& values, const std::string& kernel);

// The whole segment as AMD's runtime builds it (at least 64 bytes): the
// explicit arguments, then the hidden ones the emulator and the HIP shim
// supply — block counts, group sizes and grid dimensions; the other hidden
// arguments (offsets, remainders, queue and heap pointers) stay zero.
std::vector<std::uint8_t> kernarg_segment(const Kernel& k, const std::vector<std::uint64_t>& values,
                                          std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> block);

}  // namespace tilelab::isa
