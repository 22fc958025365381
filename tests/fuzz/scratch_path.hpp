// The scratch file or folder a fuzz target rewrites for every input: under
// the system's temporary directory, named for the process (several fuzzers
// may run at once), and removed when the process exits (libFuzzer ends a run
// with exit(), which runs the destructors of function-local statics).
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace tilelab::fuzz {

struct ScratchPath {
  std::filesystem::path path;
  explicit ScratchPath(const std::string& stem, const std::string& suffix = "")
      : path(std::filesystem::temp_directory_path() / (stem + std::to_string(::getpid()) + suffix)) {}
  ~ScratchPath() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchPath(const ScratchPath&) = delete;
  ScratchPath& operator=(const ScratchPath&) = delete;
};

}  // namespace tilelab::fuzz
