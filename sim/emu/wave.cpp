#include "sim/emu/wave.hpp"

#include <sys/mman.h>

#include <mutex>
#include <vector>

namespace tilelab::emu {
namespace {

// Files of finished waves, kept for the next ones of this process (a sweep's
// next point, a notebook's next run): their pages are mapped already, so
// clearing them costs a memset, where fresh pages cost a fault each.  At most
// kKept files (64 MiB); the rest go back to the OS.
class SparePages {
 public:
  static constexpr std::size_t kKept = 512;
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

}  // namespace

VectorFile::VectorFile() {
  if (std::uint32_t* p = spare_pages().take()) {
    words_.reset(p);
    std::memset(p, 0, kBytes);
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
