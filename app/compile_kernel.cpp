#include "app/compile_kernel.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <span>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "kernels/spec.hpp"
#include "sim/isa/code_object.hpp"

#include "generated/kernel_build.hpp"

extern char** environ;

namespace tilelab::app {

namespace {

namespace fs = std::filesystem;
namespace build = kernels::build;

// Runs argv; returns the exit status (127 when it could not start).  With
// `output`, the child's stdout and stderr go to that file.
int run_process(const std::vector<std::string>& argv, const std::string& output = "") {
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!output.empty()) {
    posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, cargs[0], &actions, nullptr, cargs.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return 127;
  int st = 0;
  if (waitpid(pid, &st, 0) < 0) return 127;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The compiler's version text (`clang --version`), read once.
const std::string& compiler_version() {
  static const std::string version = [] {
    const fs::path out = fs::temp_directory_path() / ("tilelab-clang-version-" + std::to_string(::getpid()));
    run_process({build::kCompiler, "--version"}, out.string());
    std::string v = slurp(out);
    std::error_code ec;
    fs::remove(out, ec);
    return v;
  }();
  return version;
}

// The first line of a compiler's output that says "error:", without the
// file and line prefix; else its first line.
std::string first_error(const std::string& log) {
  std::istringstream in(log);
  std::string line, first;
  while (std::getline(in, line)) {
    if (first.empty()) first = line;
    const std::size_t e = line.find("error: ");
    if (e != std::string::npos) return line.substr(e + 7);
  }
  return first;
}

// An exclusive lock on a file, held while the object lives.
struct FileLock {
  int fd = -1;
  explicit FileLock(const fs::path& p) {
    fd = ::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error(p.string() + ": cannot create the kernel cache's lock");
    while (::flock(fd, LOCK_EX) != 0)
      if (errno != EINTR) {
        ::close(fd);
        throw std::runtime_error(p.string() + ": cannot lock the kernel cache");
      }
  }
  ~FileLock() { ::close(fd); }
};

std::string name_of(const char* source) { return fs::path(source).stem().string(); }

const char* source_of(const std::string& name) {
  for (const char* s : build::kSources)
    if (name_of(s) == name) return s;
  return nullptr;
}

// The build's compile of `source` for `arch` into `out`, with `extra`
// arguments (defines, a compilation-unit id) before the arch.
std::vector<std::string> compiler_command(const char* source, const std::string& arch, const fs::path& out,
                                          const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{build::kCompiler};
  for (const char* f : build::kFlags) argv.push_back(f);
  argv.insert(argv.end(), extra.begin(), extra.end());
  // The line table names files from the source root, so the bytes do not
  // depend on where the checkout is (a flag outside the cache key for that reason).
  for (const std::string& a : {"--offload-arch=" + arch, std::string("-I") + build::kSourceDir,
                               std::string("-fdebug-prefix-map=") + build::kSourceDir + "=.", std::string("-o"),
                               out.string(), (fs::path(build::kSourceDir) / "kernels" / source).string()})
    argv.push_back(a);
  return argv;
}

}  // namespace

std::vector<std::string> suite_source_names() {
  std::vector<std::string> out;
  for (const char* s : build::kSources) out.push_back(name_of(s));
  return out;
}

bool gfx950_only(const std::string& name) {
  for (const char* o : build::kGfx950Only)
    if (name_of(o) == name) return true;
  return false;
}

std::vector<CompileJob> compile_jobs(const std::string& name, const std::string& arch) {
  std::vector<std::string> archs;
  if (arch == "all") archs = {"gfx950", "gfx942"};
  else if (arch == "gfx950" || arch == "gfx942") archs = {arch};
  else throw std::invalid_argument("--arch: '" + arch + "' is not gfx950, gfx942 or all");
  std::vector<std::string> names, sources;
  std::string known;
  for (const std::string& n : suite_source_names()) {
    known += (known.empty() ? "" : ", ") + n;
    sources.push_back(n);
    if (name == "all" || name == n) names.push_back(n);
  }
  if (names.empty())
    throw std::invalid_argument("no kernel named '" + name + "'" + kernels::did_you_mean(name, sources) + " (there are: " + known + ")");
  std::vector<CompileJob> jobs;
  for (const std::string& a : archs)
    for (const std::string& n : names) {
      if (a != "gfx950" && gfx950_only(n)) {
        if (arch == "all") continue;
        throw std::invalid_argument(n + " is built for gfx950 only (instructions or LDS only gfx950 has)");
      }
      jobs.push_back({n, a});
    }
  return jobs;
}

std::string compile_suite_kernel(const CompileJob& job, const std::string& out_dir) {
  const char* source = source_of(job.name);
  if (!source) throw std::invalid_argument("no kernel named '" + job.name + "'");
  fs::create_directories(fs::path(out_dir) / job.arch);
  const fs::path out = fs::path(out_dir) / job.arch / (job.name + ".hsaco");
  const int rc = run_process(compiler_command(source, job.arch, out));
  if (rc != 0) {
    std::error_code ec;
    fs::remove(out, ec);
    throw std::runtime_error(std::string(source) + " failed to compile for " + job.arch + " (" +
                             (rc == 127 ? std::string("cannot run ") + build::kCompiler : "exit status " + std::to_string(rc)) +
                             ")");
  }
  return out.string();
}

std::string kernel_cache_dir() {
  if (const char* d = std::getenv("TILELAB_KERNEL_CACHE"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return (fs::path(d) / "tilelab" / "kernels").string();
  if (const char* d = std::getenv("HOME"); d && *d) return (fs::path(d) / ".cache" / "tilelab" / "kernels").string();
  return (fs::temp_directory_path() / "tilelab-kernels").string();
}

std::string suite_launch_template(const std::string& name) {
  const char* source = source_of(name);
  if (!source) return "";
  const fs::path t = fs::path(build::kSourceDir) / "kernels" / fs::path(source).parent_path() / (name + ".launch.toml");
  std::error_code ec;
  return fs::is_regular_file(t, ec) ? t.string() : "";
}

namespace {
// A variant's defines and its key: the SHA-256 of every input that decides
// the code object's bytes — the compiler's version, the flags, the arch, the
// defines, and the contents of kernels/common and of the kernel's own folder.
std::vector<std::string> variant_defines(const std::map<std::string, std::int64_t>& params) {
  std::vector<std::string> defines;
  for (const auto& [k, v] : params) defines.push_back("-DTL_" + k + "=" + std::to_string(v));
  return defines;
}

std::string variant_key(const char* source, const std::string& arch, const std::vector<std::string>& defines) {
  const fs::path root = fs::path(build::kSourceDir) / "kernels";
  std::string material = compiler_version() + "\n" + arch + "\n" + source + "\n";
  for (const char* f : build::kFlags) material += std::string(f) + "\n";
  for (const std::string& d : defines) material += d + "\n";
  for (const fs::path& folder : {root / "common", root / fs::path(source).parent_path()}) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) material += f.lexically_relative(root).string() + "\n" + slurp(f) + "\n";
  }
  return isa::sha256_hex(std::span(reinterpret_cast<const std::uint8_t*>(material.data()), material.size()));
}

bool upper_case_name(const std::string& k) {
  return !k.empty() && std::all_of(k.begin(), k.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}
}  // namespace

CompiledVariant compile_variant(const std::string& name, const std::string& arch,
                                const std::map<std::string, std::int64_t>& params, const std::string& cache_dir) {
  // The name, the arch and a gfx950-only source checked as `tilelab compile` checks them.
  if (arch == "all" || compile_jobs(name, arch).size() != 1)
    throw std::invalid_argument("a variant is compiled for one arch (gfx950 or gfx942), not '" + arch + "'");
  const char* source = source_of(name);
  for (const auto& [k, v] : params)
    if (!upper_case_name(k)) throw std::invalid_argument("parameter '" + k + "' is not an upper-case name (TILE_M, WAVES_N, ...)");
  CompiledVariant v;
  std::vector<std::string> extra = variant_defines(params);
  v.key = variant_key(source, arch, extra);
  const fs::path base = cache_dir.empty() ? fs::path(kernel_cache_dir()) : fs::path(cache_dir);
  const fs::path dir = base / v.key, log = dir / "compile.log";
  fs::create_directories(dir);
  v.code_object = (dir / (name + ".hsaco")).string();
  const FileLock lock(base / (v.key + ".lock"));
  // "ok" or "failed" marks a finished compile: a killed one leaves neither and is redone.
  if (fs::exists(dir / "ok")) {
    v.cached = true;
    return v;
  }
  if (!fs::exists(dir / "failed") || first_error(slurp(log)).empty()) {
    // HIP names each compilation unit (__hip_cuid_<id>) from the output path
    // unless told; from the key, the same variant is the same bytes in any
    // cache folder.
    extra.push_back("-cuid=" + v.key.substr(0, 16));
    const int rc = run_process(compiler_command(source, arch, v.code_object, extra), log.string());
    if (rc == 0) {
      std::ofstream(dir / "ok") << "";
      return v;
    }
    std::error_code ec;
    fs::remove(v.code_object, ec);
    if (rc == 127) throw std::runtime_error(std::string("cannot run ") + build::kCompiler);
    std::ofstream(dir / "failed") << rc << "\n";
  }
  throw std::runtime_error(name + " with these parameters does not compile for " + arch + ": " + first_error(slurp(log)));
}

}  // namespace tilelab::app
