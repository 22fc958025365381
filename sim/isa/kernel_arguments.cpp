#include "sim/isa/kernel_arguments.hpp"

#include <algorithm>
#include <cstring>

namespace tilelab::isa {

namespace {
bool hidden(const KernelArg& a) { return a.value_kind.rfind("hidden_", 0) == 0; }

void put(std::vector<std::uint8_t>& seg, std::uint32_t offset, std::uint32_t size, std::uint64_t v,
         const std::string& kernel) {
  if (size > 8 || std::size_t{offset} + size > seg.size())
    throw IsaError(kernel + ": argument at offset " + std::to_string(offset) + " of " + std::to_string(size) +
                   " bytes is outside the kernarg segment or wider than 8 bytes");
  std::memcpy(seg.data() + offset, &v, size);  // little-endian host: the low bytes
}
}  // namespace

std::vector<ArgumentSlot> explicit_arguments(const Kernel& k) {
  std::vector<ArgumentSlot> out;
  for (const KernelArg& a : k.args)
    if (!hidden(a)) out.push_back({a.offset, a.size, a.name});
  return out;
}

std::vector<std::uint8_t> pack_arguments(const std::vector<ArgumentSlot>& slots,
                                         const std::vector<std::uint64_t>& values, const std::string& kernel) {
  if (values.size() != slots.size())
    throw IsaError(kernel + " takes " + std::to_string(slots.size()) + " arguments, got " +
                   std::to_string(values.size()));
  std::size_t end = 0;
  for (const ArgumentSlot& s : slots) end = std::max<std::size_t>(end, std::size_t{s.offset} + s.size);
  std::vector<std::uint8_t> bytes(end, 0);
  for (std::size_t i = 0; i < slots.size(); ++i) put(bytes, slots[i].offset, slots[i].size, values[i], kernel);
  return bytes;
}

std::vector<std::uint8_t> kernarg_segment(const Kernel& k, const std::vector<std::uint64_t>& values,
                                          std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> block) {
  std::vector<std::uint8_t> seg = pack_arguments(explicit_arguments(k), values, k.name);
  seg.resize(std::max<std::size_t>({seg.size(), k.kernarg_segment_size, 64}), 0);
  const std::uint32_t dims = grid[2] > 1 ? 3 : grid[1] > 1 ? 2 : 1;
  for (const KernelArg& a : k.args) {
    const std::string& kind = a.value_kind;
    std::uint64_t v = 0;
    if (kind == "hidden_block_count_x") v = grid[0];
    else if (kind == "hidden_block_count_y") v = grid[1];
    else if (kind == "hidden_block_count_z") v = grid[2];
    else if (kind == "hidden_group_size_x") v = block[0];
    else if (kind == "hidden_group_size_y") v = block[1];
    else if (kind == "hidden_group_size_z") v = block[2];
    else if (kind == "hidden_grid_dims") v = dims;
    else continue;
    put(seg, a.offset, a.size, v, k.name);
  }
  return seg;
}

}  // namespace tilelab::isa
