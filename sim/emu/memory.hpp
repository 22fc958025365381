// Device global memory for the emulator: host-allocated buffers at device
// addresses, each access checked against the buffer it falls in.  An access
// outside every buffer (or straddling a buffer's end) throws EmuError naming
// the address; the caller adds kernel, pc and lane.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sim/emu/operands.hpp"

namespace tilelab::emu {

// "0x1f00": addresses and pcs in error messages.
std::string hex(std::uint64_t v);

class GlobalMemory {
 public:
  // A zero-filled buffer of `bytes`; returns its device address (256-byte
  // aligned, with unmapped space between buffers so overruns are caught).
  std::uint64_t allocate(std::size_t bytes, std::string name);
  void write(std::uint64_t address, const void* data, std::size_t bytes);
  void read(std::uint64_t address, void* data, std::size_t bytes) const;
  std::size_t buffers() const { return buffers_.size(); }
  // Each buffer's [base, base + bytes), in ascending base.
  struct Extent {
    std::uint64_t base = 0, bytes = 0;
  };
  std::vector<Extent> extents() const;

  // The host pointer of [address, address + bytes), or nullptr when that
  // range is not inside one buffer.  Safe from several threads at once (the
  // cycle model's): lookups change nothing shared.
  std::uint8_t* find(std::uint64_t address, std::size_t bytes) {
    return const_cast<std::uint8_t*>(static_cast<const GlobalMemory*>(this)->find(address, bytes));
  }
  const std::uint8_t* find(std::uint64_t address, std::size_t bytes) const;

 private:
  struct Buffer {
    std::uint64_t base = 0;
    std::string name;
    std::vector<std::uint8_t> data;
  };
  std::vector<Buffer> buffers_;  // ascending base
  std::uint64_t next_ = 0x10000000;
};

}  // namespace tilelab::emu
