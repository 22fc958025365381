// A vector of trivially copyable values with inline storage for the first N.
//
// Layouts of real kernels have a handful of modes; keeping them inline makes
// copying a layout a memcpy and keeps the algebra free of heap traffic on the
// hot path (the ≥ 5 M compositions/s target).  Larger tuples spill to the heap.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>

namespace tilelab {

template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds plain values");

 public:
  SmallVector() = default;
  SmallVector(std::initializer_list<T> init) {
    for (const T& v : init) push_back(v);
  }
  SmallVector(const SmallVector& other) { assign(other.data(), other.size_); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) {
      size_ = 0;
      assign(other.data(), other.size_);
    }
    return *this;
  }
  SmallVector(SmallVector&& other) noexcept { take(other); }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      std::free(heap_);
      heap_ = nullptr;
      capacity_ = N;
      take(other);
    }
    return *this;
  }
  ~SmallVector() {
    if (heap_) std::free(heap_);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return heap_ ? heap_ : inline_; }
  const T* data() const { return heap_ ? heap_ : inline_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void clear() { size_ = 0; }
  void push_back(const T& v) {
    if (size_ == capacity_) grow(capacity_ * 2);
    data()[size_++] = v;
  }
  void pop_back() { --size_; }
  void append(const T* first, std::size_t count) {
    reserve(size_ + count);
    if (count) std::memcpy(data() + size_, first, count * sizeof(T));
    size_ += count;
  }
  void reserve(std::size_t n) {
    if (n > capacity_) grow(n > capacity_ * 2 ? n : capacity_ * 2);
  }
  void resize(std::size_t n) {
    reserve(n);
    for (std::size_t i = size_; i < n; ++i) data()[i] = T{};
    size_ = n;
  }
  // Resize without value-initialising new elements: the caller writes them.
  void resize_for_overwrite(std::size_t n) {
    reserve(n);
    size_ = n;
  }

 private:
  void assign(const T* src, std::size_t n) { append(src, n); }
  // Steal other's heap buffer, or copy its inline elements; other becomes empty.
  void take(SmallVector& other) noexcept {
    if (other.heap_) {
      heap_ = other.heap_;
      capacity_ = other.capacity_;
      other.heap_ = nullptr;
      other.capacity_ = N;
    } else if (other.size_) {
      std::memcpy(inline_, other.inline_, other.size_ * sizeof(T));
    }
    size_ = other.size_;
    other.size_ = 0;
  }
  void grow(std::size_t cap) {
    T* fresh = static_cast<T*>(std::malloc(cap * sizeof(T)));
    if (!fresh) throw std::bad_alloc();
    if (size_) std::memcpy(fresh, data(), size_ * sizeof(T));
    std::free(heap_);
    heap_ = fresh;
    capacity_ = cap;
  }

  T inline_[N];
  T* heap_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = N;
};

}  // namespace tilelab
