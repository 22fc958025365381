// Large host buffers (a kernel's tensors in the emulator's memory, their
// random inputs) asked for in transparent huge pages where the OS gives them.
// The first touch of a fresh 4 KiB page is a fault; on this project's VM a
// fault costs about 11 us, and one 512 MiB tensor has 131,072 pages: a
// whole-chip attention forward (B16 H16 N8192) spent about half of its 49 s
// faulting in its tensors.  Only a hint: where huge pages are refused, the
// pages are 4 KiB as before; the contents are the same either way.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilelab::emu {

// A transparent huge page (x86-64), and the size from which a buffer asks
// for them (below it, the partial pages at its ends are most of it).
inline constexpr std::size_t kHugePage = std::size_t{2} << 20;
inline constexpr std::size_t kHugeWorthIt = 4 * kHugePage;

// Advises the whole huge pages inside [p, p + bytes), before their first
// touch (the hint is taken at the fault).
inline void advise_huge_pages(void* p, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1), last = (begin + bytes) & ~(kHugePage - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

// v becomes n zero (value-initialised) elements; when v held no storage and
// the buffer is large, its storage is advised to huge pages before it is touched.
template <class T>
void assign_fresh(std::vector<T>& v, std::size_t n) {
  if (v.capacity() == 0 && n * sizeof(T) >= kHugeWorthIt) {
    v.reserve(n);  // a fresh mapping from the OS, not yet touched
    advise_huge_pages(v.data(), n * sizeof(T));
  }
  v.assign(n, T{});
}

}  // namespace tilelab::emu
