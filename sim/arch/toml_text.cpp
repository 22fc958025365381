#include "sim/arch/toml_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace tilelab::arch {

namespace {

struct Problem {
  std::string what;
};

// TOML forbids control characters other than tab and line ends, and allows
// non-ASCII text only in strings and comments.  toml++ 3.3 trips internal
// assertions on a control character after '[' and reaches undefined
// behaviour on a character such as U+00A7 in bare TOML (both found by
// fuzzing), so such text is refused before toml++ sees it.  A table header
// ('[' or '[[' first on a line, outside a value) whose name does not start
// with a key character or a quote ("[?", "[[[[") is refused here too, with a
// clearer message than toml++'s; toml++ 3.3's parse_key states it as an
// assumption (undefined behaviour where the library is built with clang,
// found by fuzzing with clang 22's UBSan; Debian builds it with GCC).
bool may_start_table_name(unsigned char c) {
  // Control and non-ASCII characters are refused where they stand, with their own message.
  if (c == '\n' || c == '\r') return false;
  return c < 0x20 || c >= 0x7f || std::isalnum(c) || c == '_' || c == '-' || c == '"' || c == '\'';
}

// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0.
std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto b = [&](std::size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u; };
  const unsigned c = b(0);
  auto cont = [&](std::size_t k) { return (b(k) & 0xc0) == 0x80; };
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    return b(1) >= lo && b(1) <= hi && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    return b(1) >= lo && b(1) <= hi && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

bool first_on_line(const std::string& text, std::size_t i) {
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
  return i == 0 || text[i - 1] == '\n';
}

void check_characters(const std::string& text, const std::string& file) {  // throws Problem
  enum class In { kCode, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral } in = In::kCode;
  int line = 1;
  bool in_value = false;  // after a key's '=', until the line (and any array it opened) ends
  int array_depth = 0;
  auto fail = [&](const std::string& what) { throw Problem{file + ":" + std::to_string(line) + ": " + what}; };
  auto at = [&](std::size_t i, const char* s) { return text.compare(i, std::strlen(s), s) == 0; };
  // A backslash in a basic string must start one of TOML's escapes (b t n f r,
  // a quote, a backslash, u or U; in multi-line strings also a line-ending
  // backslash before blanks or the line break).
  // toml++ 3.3 reaches __builtin_unreachable checking whether a non-ASCII
  // character after a backslash is whitespace (e.g. U+FCFF; found by fuzzing).
  // Returns how many characters to skip: the escape letter, or none before a
  // line break (so that lines are still counted).
  auto check_escape = [&](std::size_t i, bool multi) -> std::size_t {
    const char n = i + 1 < text.size() ? text[i + 1] : '\0';
    if (std::strchr("btnfr\"\\uU", n) && n != '\0') return 1;
    if (multi && (n == ' ' || n == '\t' || n == '\n' || n == '\r')) {
      // A line-ending backslash: toml++ 3.3 skips the blanks and line breaks
      // after it and reaches __builtin_unreachable if the next character is
      // non-ASCII (U+FCFF, found by fuzzing), so that is refused, though valid TOML.
      std::size_t j = i + 1;
      while (j < text.size() && std::strchr(" \t\r\n", text[j])) ++j;
      if (j < text.size() && static_cast<unsigned char>(text[j]) >= 0x80)
        fail("a non-ASCII character right after a line-ending backslash (not supported)");
      return n == ' ' || n == '\t' ? 1 : 0;
    }
    fail("invalid escape sequence in a string");
    return 0;
  };
  // TOML text is UTF-8; toml++ 3.3 reaches an unreachable point on some
  // malformed sequences inside strings (found by fuzzing), so they are refused first.
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(i), '\n'));
      fail("malformed UTF-8 at byte " + std::to_string(i));
    }
    i += n;
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f) {
      const char* hex = "0123456789abcdef";
      fail(std::string("control character 0x") + hex[c >> 4] + hex[c & 15] + " is not allowed in a TOML file");
    }
    if (c == '\n') {
      ++line;
      if (in != In::kMultiBasic && in != In::kMultiLiteral) in = In::kCode;
      if (array_depth == 0) in_value = false;
      continue;
    }
    // Strings stay ASCII: toml++ 3.3's table of Unicode blanks reaches
    // __builtin_unreachable for whole ranges of code points (U+00A1-U+0499,
    // U+2D0E-U+3107, U+FB36-U+FEFE) and checks characters next to strings
    // against it (found by fuzzing: m=6"<U+FCFF>).  Comments may hold any text.
    if (c >= 0x80 && in != In::kCode && in != In::kComment)
      fail("non-ASCII character in a string (tilelab's TOML files keep strings ASCII)");
    switch (in) {
      case In::kCode:
        if (c >= 0x80) fail("non-ASCII character outside a string or comment");
        if (c == '=' && array_depth == 0) in_value = true;
        if (c == '[' && in_value) ++array_depth;
        if (c == ']' && array_depth > 0) --array_depth;
        if (c == '[' && !in_value && first_on_line(text, i)) {
          std::size_t j = i + 1;
          if (j < text.size() && text[j] == '[') ++j;
          while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
          if (j == text.size() || !may_start_table_name(static_cast<unsigned char>(text[j])))
            fail(j == text.size() || text[j] == '\n' || text[j] == '\r'
                     ? std::string("a table header needs a name after '['")
                     : std::string("'") + text[j] + "' cannot start a table name");
        }
        if (c == '#') in = In::kComment;
        else if (at(i, "\"\"\"")) in = In::kMultiBasic, i += 2;
        else if (at(i, "'''")) in = In::kMultiLiteral, i += 2;
        else if (c == '"') in = In::kBasic;
        else if (c == '\'') in = In::kLiteral;
        break;
      case In::kComment: break;
      case In::kBasic:
        if (c == '\\') i += check_escape(i, false);
        else if (c == '"') in = In::kCode;
        break;
      case In::kLiteral:
        if (c == '\'') in = In::kCode;
        break;
      case In::kMultiBasic:
        if (c == '\\') i += check_escape(i, true);
        else if (at(i, "\"\"\"")) in = In::kCode, i += 2;
        break;
      case In::kMultiLiteral:
        if (at(i, "'''")) in = In::kCode, i += 2;
        break;
    }
  }
}

}  // namespace

std::optional<std::string> toml_text_problem(const std::string& text, const std::string& file) {
  try {
    check_characters(text, file);
  } catch (const Problem& p) {
    return p.what;
  }
  return std::nullopt;
}

}  // namespace tilelab::arch
