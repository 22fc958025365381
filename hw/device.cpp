#include "hw/device.hpp"

#include <fstream>
#include <iterator>

namespace tilelab::hw {

std::vector<std::uint8_t> read_code_object(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DeviceError("cannot read code object '" + path + "'");
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace tilelab::hw

namespace tilelab::hw {

void check_code_object_arch(const DeviceInfo& info, const std::string& code_arch) {
  if (code_arch != info.arch)
    throw DeviceError("the code object is built for " + code_arch + ", the device (" + info.name + ") is " +
                      info.arch);
}

}  // namespace tilelab::hw
