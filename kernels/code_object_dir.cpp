#include "kernels/code_object_dir.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "generated/kernel_build.hpp"

namespace tilelab::kernels {

namespace {

bool holds_kernels(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const char* arch : {"gfx950", "gfx942", "sm_90"})
    if (std::filesystem::is_directory(dir / arch, ec)) return true;
  return false;
}

// The folder of the executable or shared object this function is in.
std::filesystem::path own_folder() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<const void*>(&own_folder), &info) || !info.dli_fname) return {};
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::filesystem::path() : file.parent_path();
}

std::string find_code_object_dir() {
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("TILELAB_KERNELS"); env && *env) candidates.emplace_back(env);
  if (const std::filesystem::path own = own_folder(); !own.empty()) {
    candidates.push_back(own / "kernels");
    candidates.push_back(own / ".." / "share" / "tilelab" / "kernels");
    candidates.push_back(own / ".." / "kernels");
  }
  for (const auto& c : candidates)
    if (holds_kernels(c)) return std::filesystem::weakly_canonical(c).string();
  return build::kCodeObjectDir;
}

}  // namespace

const std::string& code_object_dir() {
  static const std::string dir = find_code_object_dir();
  return dir;
}

}  // namespace tilelab::kernels
