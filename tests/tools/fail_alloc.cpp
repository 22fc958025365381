// Fault injection for the CLI test (issue 24 item 6): preloaded into tilelab,
// it makes the Nth allocation through operator new throw std::bad_alloc
// (N from TILELAB_FAIL_ALLOC_AT; unset or 0: never), a fault no command
// anticipates at that point.  Whatever the command was doing, the user must
// get one line, a non-zero exit and nothing half-written: never a
// std::terminate, a signal, or a library's own text.
#include <cstdlib>
#include <new>
static long long countdown = [] {
  const char* v = std::getenv("TILELAB_FAIL_ALLOC_AT");
  return v ? std::atoll(v) : -1;
}();
void* operator new(std::size_t n) {
  if (countdown > 0 && --countdown == 0) throw std::bad_alloc();
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
