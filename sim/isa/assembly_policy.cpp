#include "sim/isa/assembly_policy.hpp"

#include <array>
#include <cctype>
#include <charconv>

namespace tilelab::isa {

namespace {

enum class Cap { refused, repeat, bytes, fill, power_of_two };

struct Directive {
  std::string_view name;
  Cap cap;
};

// Directives whose first argument is a count or size (LLVM's AsmParser
// spellings; matched case aside, as LLVM matches them).
constexpr std::array<Directive, 19> kDirectives{{
    {".include", Cap::refused}, {".incbin", Cap::refused},
    {".rept", Cap::repeat},     {".rep", Cap::repeat},
    {".fill", Cap::fill},       {".skip", Cap::bytes},
    {".space", Cap::bytes},     {".zero", Cap::bytes},
    {".org", Cap::bytes},       {".align", Cap::bytes},
    {".align32", Cap::bytes},   {".balign", Cap::bytes},
    {".balignw", Cap::bytes},   {".balignl", Cap::bytes},
    {".p2align", Cap::power_of_two}, {".p2alignw", Cap::power_of_two},
    {".p2alignl", Cap::power_of_two}, {".ds", Cap::bytes},
    {".ds.b", Cap::bytes},
}};

bool same_word(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }

// A statement's text with comments removed: ';' and "//" to the end of the
// line, "/* */" (across lines), '#' starting a line; strings kept whole.
class Statements {
 public:
  explicit Statements(std::string_view text) : text_(text) {}
  // The next line's code (comments blanked) and its number; false at the end.
  bool next(std::string& code, int& line) {
    if (pos_ >= text_.size()) return false;
    code.clear();
    line = ++line_;
    bool first = true;
    while (pos_ < text_.size() && text_[pos_] != '\n') {
      const char c = text_[pos_];
      if (in_block_) {
        if (c == '*' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') in_block_ = false, ++pos_;
        ++pos_;
        continue;
      }
      if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
        in_block_ = true, pos_ += 2, code += ' ';
        continue;
      }
      if (c == ';' || (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') || (c == '#' && first)) {
        skip_line();
        break;
      }
      if (!std::isspace(static_cast<unsigned char>(c))) first = false;
      if (c == '"') {
        copy_string(code);
        continue;
      }
      code += c;
      ++pos_;
    }
    if (pos_ < text_.size()) ++pos_;  // the newline
    return true;
  }

 private:
  void skip_line() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }
  void copy_string(std::string& code) {
    code += text_[pos_++];
    while (pos_ < text_.size() && text_[pos_] != '\n') {
      const char c = text_[pos_++];
      code += c;
      if (c == '\\' && pos_ < text_.size() && text_[pos_] != '\n') code += text_[pos_++];
      else if (c == '"') return;
    }
  }
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 0;
  bool in_block_ = false;
};

// The integer a first argument is written as (decimal, 0x, 0b), or nullopt
// when it is anything else (a symbol, an expression): those are bounded by
// the child process's budget instead.
std::optional<std::uint64_t> literal(std::string_view arg) {
  std::size_t i = 0;
  while (i < arg.size() && std::isspace(static_cast<unsigned char>(arg[i]))) ++i;
  std::size_t end = i;
  while (end < arg.size() && arg[end] != ',' && !std::isspace(static_cast<unsigned char>(arg[end]))) ++end;
  for (std::size_t j = end; j < arg.size(); ++j)
    if (arg[j] == ',') break;
    else if (!std::isspace(static_cast<unsigned char>(arg[j]))) return std::nullopt;  // "1 << 40"
  std::string_view digits = arg.substr(i, end - i);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16, digits.remove_prefix(2);
  else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2, digits.remove_prefix(2);
  if (digits.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (ec == std::errc::result_out_of_range) return UINT64_MAX;
  if (ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
  return v;
}

// The second argument of ".fill repeat, size": the bytes per value (1 when absent).
std::uint64_t fill_size(std::string_view args) {
  const std::size_t comma = args.find(',');
  if (comma == std::string_view::npos) return 1;
  const std::optional<std::uint64_t> s = literal(args.substr(comma + 1));
  return s ? *s : 1;
}

std::optional<std::string> statement_problem(std::string_view code, const AssemblyLimits& limits) {
  std::size_t i = 0;
  for (;;) {  // labels first ("name:"), then the directive
    while (i < code.size() && std::isspace(static_cast<unsigned char>(code[i]))) ++i;
    std::size_t end = i;
    while (end < code.size() && word_char(code[end])) ++end;
    if (end == i) return std::nullopt;
    const std::string_view word = code.substr(i, end - i);
    if (end < code.size() && code[end] == ':') {
      i = end + 1;
      continue;
    }
    for (const Directive& d : kDirectives) {
      if (!same_word(word, d.name)) continue;
      const std::string shown(d.name);
      if (d.cap == Cap::refused)
        return shown + " is refused: assembly input may not read files (it is assembled as data, alone)";
      const std::string_view args = code.substr(end);
      const std::optional<std::uint64_t> n = literal(args);
      if (!n) return std::nullopt;
      switch (d.cap) {
        case Cap::repeat:
          if (*n > limits.max_repeat)
            return shown + " count " + std::to_string(*n) + " is over the cap of " + std::to_string(limits.max_repeat);
          return std::nullopt;
        case Cap::power_of_two:
          if (*n >= 64 || (std::uint64_t{1} << *n) > limits.max_fill_bytes)
            return shown + " " + std::to_string(*n) + " aligns to more than the cap of " +
                   std::to_string(limits.max_fill_bytes) + " bytes";
          return std::nullopt;
        default: {
          const std::uint64_t per = d.cap == Cap::fill ? fill_size(args) : 1;
          if (*n > limits.max_fill_bytes || (per && *n > limits.max_fill_bytes / per))
            return shown + " of " + std::to_string(*n) + (per > 1 ? " x " + std::to_string(per) : "") +
                   " bytes is over the cap of " + std::to_string(limits.max_fill_bytes) + " bytes";
          return std::nullopt;
        }
      }
    }
    return std::nullopt;
  }
}

}  // namespace

std::optional<std::string> assembly_policy_problem(std::string_view text, const std::string& name,
                                                   const AssemblyLimits& limits) {
  if (text.size() > limits.max_input_bytes)
    return name + ": " + std::to_string(text.size()) + " bytes of assembly is over the cap of " +
           std::to_string(limits.max_input_bytes);
  Statements statements(text);
  std::string code;
  int line = 0;
  while (statements.next(code, line))
    if (std::optional<std::string> p = statement_problem(code, limits)) return name + ":" + std::to_string(line) + ": " + *p;
  return std::nullopt;
}

}  // namespace tilelab::isa
