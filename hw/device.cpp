#include "hw/device.hpp"

#include "sim/isa/assembler.hpp"

#include <fstream>
#include <iterator>

namespace tilelab::hw {

std::vector<std::uint8_t> read_code_object(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DeviceError("cannot read code object '" + path + "'");
  std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (!isa::is_assembly_input(path, text)) return bytes;
  try {  // AMDGPU assembly: assembled and linked as every other reader of code objects does
    return isa::assemble_code_object(text, path);
  } catch (const isa::IsaError& e) {
    throw DeviceError(e.what());
  }
}

void check_code_object_arch(const DeviceInfo& info, const std::string& code_arch) {
  if (code_arch != info.arch)
    throw DeviceError("the code object is built for " + code_arch + ", the device (" + info.name + ") is " +
                      info.arch);
}

std::vector<std::uint8_t> argument_buffer(const Kernel& kernel, const std::vector<std::uint64_t>& arguments) {
  try {
    return isa::pack_arguments(kernel.arguments, arguments, kernel.name);
  } catch (const isa::IsaError& e) {
    throw DeviceError(e.what());
  }
}

}  // namespace tilelab::hw
