#include "sim/emu/wave.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <mutex>
#include <vector>

namespace tilelab::emu {
namespace {

// Files of finished waves, kept for the next ones of this process (the CU's
// next workgroups, a sweep's next point, a notebook's next run): their pages
// are mapped already, so clearing them costs a memset, where fresh pages
// cost a fault each (about 11 us on this project's VM), and giving them back
// costs a TLB shootdown.  At most VectorFile::kSpares files, enough for a
// whole chip's waves of one round; only the pages a wave wrote stay mapped.
class SparePages {
 public:
  static constexpr std::size_t kKept = VectorFile::kSpares;
  std::uint32_t* take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (files_.empty()) return nullptr;
    std::uint32_t* p = files_.back();
    files_.pop_back();
    return p;
  }
  bool give(std::uint32_t* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (files_.size() >= kKept) return false;
    files_.push_back(p);
    return true;
  }

 private:
  std::mutex mutex_;
  std::vector<std::uint32_t*> files_;
};

SparePages& spare_pages() {
  static SparePages* spare = new SparePages;  // never destroyed: waves may end during exit
  return *spare;
}

// Zeroes the pages of a spare file that are mapped: the others read as zero
// already, and a memset of the whole 128 KiB would fault each of them in (a
// kernel's waves write 11 of the 32 pages for 163 VGPRs).
void clear_mapped(std::uint32_t* p) {
  static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  constexpr std::size_t kMaxPages = VectorFile::kBytes / 4096;
  unsigned char mapped[kMaxPages];
  const std::size_t pages = VectorFile::kBytes / page;
  if (page * pages != VectorFile::kBytes || pages > kMaxPages || mincore(p, VectorFile::kBytes, mapped) != 0) {
    std::memset(p, 0, VectorFile::kBytes);
    return;
  }
  char* bytes = reinterpret_cast<char*>(p);
  for (std::size_t i = 0; i < pages; ++i)
    if (mapped[i] & 1) std::memset(bytes + i * page, 0, page);
}

}  // namespace

VectorFile::VectorFile() {
  if (std::uint32_t* p = spare_pages().take()) {
    words_.reset(p);
    clear_mapped(p);
    return;
  }
  void* p = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  words_.reset(static_cast<std::uint32_t*>(p));
}

VectorFile::VectorFile(const VectorFile& o) : VectorFile() { std::memcpy(words_.get(), o.words_.get(), kBytes); }

VectorFile& VectorFile::operator=(const VectorFile& o) {
  if (this != &o) {
    if (!words_) *this = VectorFile();
    std::memcpy(words_.get(), o.words_.get(), kBytes);
  }
  return *this;
}

void VectorFile::Unmap::operator()(std::uint32_t* p) const {
  if (!spare_pages().give(p)) munmap(p, kBytes);
}

}  // namespace tilelab::emu
