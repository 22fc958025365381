#include "sim/emu/memory.hpp"

#include "sim/emu/fresh_buffer.hpp"

#include <cstdio>

namespace tilelab::emu {

std::string hex(std::uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::uint64_t GlobalMemory::allocate(std::size_t bytes, std::string name) {
  Buffer b;
  b.base = next_;
  b.name = std::move(name);
  assign_fresh(b.data, bytes);
  next_ += (bytes + 0xffff) / 0x10000 * 0x10000 + 0x10000;  // a 64 KiB hole after each buffer
  buffers_.push_back(std::move(b));
  return buffers_.back().base;
}

std::vector<GlobalMemory::Extent> GlobalMemory::extents() const {
  std::vector<Extent> out;
  for (const Buffer& b : buffers_) out.push_back({b.base, b.data.size()});
  return out;
}

const std::uint8_t* GlobalMemory::find(std::uint64_t address, std::size_t bytes) const {
  auto inside = [&](const Buffer& b) {
    return address >= b.base && address - b.base <= b.data.size() && bytes <= b.data.size() - (address - b.base);
  };
  // The buffer this thread's previous access hit (any GlobalMemory's: checked before use).
  static thread_local std::size_t last = 0;
  if (last < buffers_.size() && inside(buffers_[last])) return buffers_[last].data.data() + (address - buffers_[last].base);
  for (std::size_t i = 0; i < buffers_.size(); ++i)
    if (inside(buffers_[i])) {
      last = i;
      return buffers_[i].data.data() + (address - buffers_[i].base);
    }
  return nullptr;
}

void GlobalMemory::write(std::uint64_t address, const void* data, std::size_t bytes) {
  std::uint8_t* p = find(address, bytes);
  if (!p) throw EmuError("write of " + std::to_string(bytes) + " bytes at " + hex(address) + " is outside every buffer");
  std::memcpy(p, data, bytes);
}

void GlobalMemory::read(std::uint64_t address, void* data, std::size_t bytes) const {
  const std::uint8_t* p = find(address, bytes);
  if (!p) throw EmuError("read of " + std::to_string(bytes) + " bytes at " + hex(address) + " is outside every buffer");
  std::memcpy(data, p, bytes);
}

}  // namespace tilelab::emu
