#include "traces/rocprof/file_tree.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "traces/rocprof/csv.hpp"

namespace tilelab::traces::rocprof {

namespace {

std::vector<std::string> names_in(const std::string& dir) {
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), ::closedir);
  if (!d) throw FormatError(dir + ": cannot read the folder (" + std::strerror(errno) + ")");
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* e = ::readdir(d.get())) {
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.emplace_back(e->d_name);
    errno = 0;
  }
  if (errno) throw FormatError(dir + ": cannot read the folder (" + std::strerror(errno) + ")");
  std::sort(names.begin(), names.end());
  return names;
}

void walk(const std::string& dir, std::vector<TreeEntry>& out) {
  for (const std::string& name : names_in(dir)) {
    TreeEntry e;
    e.path = dir + "/" + name;
    struct stat own {}, target {};
    if (::lstat(e.path.c_str(), &own) != 0) continue;  // gone since the listing
    e.directory = S_ISDIR(own.st_mode);
    e.regular_file = S_ISREG(own.st_mode) || (S_ISLNK(own.st_mode) && ::stat(e.path.c_str(), &target) == 0 &&
                                              S_ISREG(target.st_mode));
    out.push_back(e);
    if (e.directory) walk(e.path, out);
  }
}

}  // namespace

std::vector<TreeEntry> list_tree(const std::string& root) {
  std::vector<TreeEntry> out;
  std::string base = root;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  walk(base, out);
  return out;
}

}  // namespace tilelab::traces::rocprof
