// The files under a profiler's output folder, listed through POSIX directly.
//
// std::filesystem's recursive_directory_iterator is not usable on input a
// user hands us: its increment is noexcept inside libstdc++, so an allocation
// that fails while it walks ends the process in std::terminate (found by the
// CLI's fault-injection test), and a directory it cannot read throws
// mid-walk from operator++.
#pragma once

#include <string>
#include <vector>

namespace tilelab::traces::rocprof {

struct TreeEntry {
  std::string path;           // root/.../name
  bool directory = false;     // a directory itself (a symlink to one is not entered, as std::filesystem does)
  bool regular_file = false;  // a regular file, or a symlink to one
};

// Every entry under `root` (not root itself), each directory's entries sorted
// by name, depth first: the same inputs list in the same order on every file
// system. A directory that cannot be read is a FormatError naming it.
std::vector<TreeEntry> list_tree(const std::string& root);

}  // namespace tilelab::traces::rocprof
