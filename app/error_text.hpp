// The one line a user sees for an exception that reached a command's handler
// (or a sweep point, or Python):
// tilelab's own errors say what and where; the standard library's terse ones
// ("stoull", "std::bad_alloc", a filesystem_error's "recursive_directory_iterator
// ...") are put in the user's words instead.
#pragma once
#include <exception>
#include <filesystem>
#include <new>
#include <string>

namespace tilelab::app {

inline std::string error_text(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return "out of memory: an input asks for more than this machine can hold";
  if (const auto* fs = dynamic_cast<const std::filesystem::filesystem_error*>(&e)) {
    const std::string path = fs->path1().string();
    return (path.empty() ? std::string("a file") : path) + ": " + fs->code().message();
  }
  const std::string what = e.what();
  // std::stoi and its kin name only themselves ("stoull"): a number in the input.
  if (what.rfind("sto", 0) == 0 && what.find(' ') == std::string::npos)
    return "a number in the input is out of range or not a number";
  // Any other library-internal text ("vector::_M_range_check", "map::at") is a bug.
  if (what.find(' ') == std::string::npos && what.find("::") != std::string::npos)
    return "internal error (" + what + "): please report it with the command line";
  return what;
}

}  // namespace tilelab::app

// The command handlers say it unqualified.
namespace tilelab::cli {
using app::error_text;
}  // namespace tilelab::cli
