#include "sim/isa/bounded_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

// Sanitizer runtimes (the fuzz targets) report through a death callback that
// writes a crash artifact; a child drops it, its failure is the parent's to report.
extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace tilelab::isa {

namespace {

int g_result_fd = -1;  // the child's end of the pipe (-1 in the parent)
std::uint64_t g_memory_mib = 0;

// A message on the pipe: tag ('O' bytes, 'E' error), 8-byte length, payload.
void write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) _exit(4);
    p += w, n -= static_cast<std::size_t>(w);
  }
}

void send(char tag, const void* data, std::uint64_t n) {
  char header[9];
  header[0] = tag;
  std::memcpy(header + 1, &n, 8);
  write_all(g_result_fd, header, sizeof header);
  write_all(g_result_fd, data, n);
}


// The address space the child starts with (its copy of the parent's).
std::uint64_t mapped_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  if (f) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

void limit_child(const ChildBudget& b) {
  // What a library prints on its own (LLVM's YAML parser quotes the input's
  // lines to stderr) is not the user's to see: the result says what failed.
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) ::dup2(null, STDOUT_FILENO), ::dup2(null, STDERR_FILENO), ::close(null);
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGXCPU, SIGPIPE}) ::signal(sig, SIG_DFL);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
  const rlim_t cpu = static_cast<rlim_t>(std::ceil(b.cpu_seconds));
  const rlimit cpu_limit{cpu, cpu + 1};
  setrlimit(RLIMIT_CPU, &cpu_limit);
  g_memory_mib = b.memory_bytes >> 20;
  const rlimit as{static_cast<rlim_t>(mapped_bytes() + b.memory_bytes), static_cast<rlim_t>(mapped_bytes() + b.memory_bytes)};
  setrlimit(RLIMIT_AS, &as);
  std::set_new_handler(report_child_out_of_memory);
}

[[noreturn]] void child(int fd, const std::function<std::vector<std::uint8_t>()>& work, const ChildBudget& b) {
  g_result_fd = fd;
  limit_child(b);
  try {
    const std::vector<std::uint8_t> bytes = work();
    if (bytes.size() > b.max_result_bytes) {
      const std::string why = "gave " + std::to_string(bytes.size()) + " bytes, over the cap of " +
                              std::to_string(b.max_result_bytes);
      send('B', why.data(), why.size());
    } else {
      send('O', bytes.data(), bytes.size());
    }
  } catch (const std::bad_alloc&) {
    report_child_out_of_memory();
  } catch (const std::exception& e) {
    report_child_failure(e.what());
  } catch (...) {
    report_child_failure("failed");
  }
  _exit(0);
}

// Reads the child's message until it ends, the pipe closes or the deadline passes.
struct Received {
  std::vector<char> data;
  bool timed_out = false, too_big = false;
};

Received receive(int fd, const ChildBudget& b) {
  Received r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(b.wall_seconds);
  char buf[1 << 16];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      return r;
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return r;
    r.data.insert(r.data.end(), buf, buf + n);
    if (r.data.size() > b.max_result_bytes + 4096) {
      r.too_big = true;
      return r;
    }
  }
}

std::string seconds_text(double s) {
  char t[32];
  std::snprintf(t, sizeof t, "%g", s);
  return t;
}

}  // namespace

[[noreturn]] void report_child_failure(const std::string& message) {
  if (g_result_fd >= 0) send('E', message.data(), message.size());
  _exit(3);
}

[[noreturn]] void report_child_out_of_memory() {
  // No allocation here: the budget is spent.
  char line[96];
  const int n = std::snprintf(line, sizeof line, "needed more than its %llu MiB memory budget",
                              static_cast<unsigned long long>(g_memory_mib));
  if (g_result_fd >= 0) send('B', line, static_cast<std::uint64_t>(n));
  _exit(3);
}

ChildOutcome run_bounded(const std::function<std::vector<std::uint8_t>()>& work, const ChildBudget& budget) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return {false, {}, "cannot create a pipe to a child process"};
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]), ::close(fds[1]);
    return {false, {}, "cannot start a child process"};
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1], work, budget);
  }
  ::close(fds[1]);
  const Received got = receive(fds[0], budget);
  ::close(fds[0]);
  if (got.timed_out || got.too_big) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildOutcome out;
  std::uint64_t length = 0;
  if (got.data.size() >= 9) std::memcpy(&length, got.data.data() + 1, 8);
  if (!got.timed_out && !got.too_big && got.data.size() >= 9 && got.data.size() - 9 == length) {
    out.ok = got.data[0] == 'O';
    out.from_work = got.data[0] == 'E';
    if (out.ok) out.bytes.assign(got.data.begin() + 9, got.data.end());
    else out.error.assign(got.data.begin() + 9, got.data.end());
    return out;
  }
  if (got.timed_out) out.error = "ran past its " + seconds_text(budget.wall_seconds) + "-second wall-time budget";
  else if (got.too_big) out.error = "its result is over the cap of " + std::to_string(budget.max_result_bytes) + " bytes";
  else if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL))
    out.error = "ran past its " + seconds_text(budget.cpu_seconds) + "-second CPU-time budget";
  else if (WIFSIGNALED(status))
    out.error = "crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
  else
    out.error = "ended without a result (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  return out;
}

}  // namespace tilelab::isa
