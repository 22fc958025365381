#include "app/compile_kernel.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <stdexcept>

#include "generated/kernel_build.hpp"

extern char** environ;

namespace tilelab::app {

namespace {

namespace fs = std::filesystem;
namespace build = kernels::build;

// Runs argv; returns the exit status (127 when it could not start).
int run_process(const std::vector<std::string>& argv) {
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, cargs[0], nullptr, nullptr, cargs.data(), environ) != 0) return 127;
  int st = 0;
  if (waitpid(pid, &st, 0) < 0) return 127;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

std::string name_of(const char* source) { return fs::path(source).stem().string(); }

const char* source_of(const std::string& name) {
  for (const char* s : build::kSources)
    if (name_of(s) == name) return s;
  return nullptr;
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
  std::vector<std::string> names;
  std::string known;
  for (const std::string& n : suite_source_names()) {
    known += (known.empty() ? "" : ", ") + n;
    if (name == "all" || name == n) names.push_back(n);
  }
  if (names.empty()) throw std::invalid_argument("no kernel named '" + name + "' (there are: " + known + ")");
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
  std::vector<std::string> argv{build::kCompiler};
  for (const char* f : build::kFlags) argv.push_back(f);
  argv.push_back("--offload-arch=" + job.arch);
  argv.push_back(std::string("-I") + build::kSourceDir);
  argv.push_back("-o");
  argv.push_back(out.string());
  argv.push_back((fs::path(build::kSourceDir) / "kernels" / source).string());
  const int rc = run_process(argv);
  if (rc != 0) {
    std::error_code ec;
    fs::remove(out, ec);
    throw std::runtime_error(std::string(source) + " failed to compile for " + job.arch + " (" +
                             (rc == 127 ? std::string("cannot run ") + build::kCompiler : "exit status " + std::to_string(rc)) +
                             ")");
  }
  return out.string();
}

}  // namespace tilelab::app
