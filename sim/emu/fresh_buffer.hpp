// Large host buffers (a kernel's tensors in the emulator's memory, their
// random inputs) asked for in transparent huge pages where the OS gives them.
// The first touch of a fresh 4 KiB page is a fault; on this project's VM a
// fault costs about 11 us, and one 512 MiB tensor has 131,072 pages: a
// whole-chip attention forward (B16 H16 N8192) spent about half of its 49 s
// faulting in its tensors.  Only a hint: where huge pages are refused, the
// pages are 4 KiB as before; the contents are the same either way.
#pragma once
#include <sys/mman.h>

#include <cstdint>
#include <vector>

namespace tilelab::emu {

// v becomes n zero (value-initialised) elements; when v held no storage and
// the buffer is large, its storage is advised to huge pages before it is touched.
template <class T>
void assign_fresh(std::vector<T>& v, std::size_t n) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  if (v.capacity() == 0 && n * sizeof(T) >= 4 * kHuge) {
    v.reserve(n);  // a fresh mapping from the OS, not yet touched
    const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1), last = (begin + n * sizeof(T)) & ~(kHuge - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
  v.assign(n, T{});
}

}  // namespace tilelab::emu
