// libFuzzer target: any bytes as a launch file (kernels/launch_file) for a
// code object with the kernel of tests/data/handwritten/scale_rows.s (two
// buffers, an int and four padding slots, all named "pad") give a LaunchFile whose every argument lies inside the kernarg
// segment and whose buffers fit the memory budget, or std::invalid_argument
// naming the file (IsaError for a kernel the code object lacks); never a crash, UB, a hang or an allocation of the
// buffers' size (the budget is checked first).

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include "kernels/launch_file.hpp"
#include "tests/fuzz/scratch_path.hpp"

// The one function of sim/isa/code_object.cpp the reader calls; that file
// needs LLVM, which the fuzz build does not link.
const tilelab::isa::Kernel& tilelab::isa::CodeObject::kernel(std::string_view name) const {
  for (const Kernel& k : kernels)
    if (k.name == name) return k;
  throw IsaError("no kernel '" + std::string(name) + "'");
}

namespace {
tilelab::isa::CodeObject code_object() {
  using tilelab::isa::KernelArg;
  tilelab::isa::CodeObject co;
  co.path = "fuzz.co";
  co.arch = "gfx950";
  tilelab::isa::Kernel k;
  k.name = "scale_rows";
  k.args = {KernelArg{"out", "global_buffer", "global", 0, 8}, KernelArg{"pad", "by_value", "", 8, 8},
            KernelArg{"in", "global_buffer", "global", 16, 8},  KernelArg{"pad", "by_value", "", 24, 8},
            KernelArg{"n", "by_value", "", 32, 4},              KernelArg{"pad", "by_value", "", 36, 4},
            KernelArg{"pad", "by_value", "", 40, 8}};
  k.kernarg_segment_size = 48;
  k.max_flat_workgroup_size = 256;
  k.wavefront_size = 64;
  co.kernels.push_back(k);
  return co;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const tilelab::isa::CodeObject co = code_object();
  static const tilelab::fuzz::ScratchPath scratch("tilelab_fuzz_launch_", ".toml");
  const std::string path = scratch.path.string();
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  constexpr std::uint64_t kBudget = 1 << 20;
  try {
    const tilelab::kernels::LaunchFile l = tilelab::kernels::read_launch_file(path, co, kBudget);
    std::uint64_t bytes = 0;
    for (const tilelab::kernels::LaunchArg& a : l.args) {
      if (a.offset + a.size > 48) std::abort();
      bytes += a.is_buffer ? a.bytes : 0;
    }
    if (bytes > kBudget) std::abort();
  } catch (const std::invalid_argument&) {
  } catch (const tilelab::isa::IsaError&) {  // a kernel the code object does not have
  }
  return 0;
}
