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
