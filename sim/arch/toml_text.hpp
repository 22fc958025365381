// What tilelab refuses in TOML text before toml++ sees it (the architecture
// files and the launch files share it): control characters, malformed UTF-8,
// non-ASCII text outside comments, escapes and table headers that toml++ 3.3
// mishandles (each found by fuzzing; the reasons are at the checks).
#pragma once

#include <optional>
#include <string>

namespace tilelab::arch {

// "FILE:LINE: what is wrong" for the first such problem in `text`, or nothing
// when toml++ may parse it.
std::optional<std::string> toml_text_problem(const std::string& text, const std::string& file);

}  // namespace tilelab::arch
