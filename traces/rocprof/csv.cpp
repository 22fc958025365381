#include "traces/rocprof/csv.hpp"

#include <filesystem>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace tilelab::traces::rocprof {

namespace {
[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& what) {
  throw FormatError(path + ":" + std::to_string(line) + ": " + what);
}
}  // namespace

std::size_t CsvTable::column(const std::string& name) const {
  if (const std::size_t i = find_column(name); i != std::string::npos) return i;
  throw FormatError(path + ": no column '" + name + "' (not the rocprofv3 file it is named as?)");
}

std::size_t CsvTable::find_column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  return std::string::npos;
}

CsvTable parse_csv(const std::string& text, const std::string& path) {
  CsvTable t;
  t.path = path;
  std::vector<std::string> row;
  std::string field;
  std::size_t line = 1, row_line = 1, i = 0;
  bool quoted = false, after_quote = false, any = false;
  auto end_field = [&] {
    row.push_back(std::move(field));
    field.clear();
    quoted = after_quote = false;
  };
  auto end_row = [&] {
    end_field();
    if (t.header.empty()) {
      t.header = std::move(row);
    } else if (!(row.size() == 1 && row[0].empty())) {  // a blank line
      if (row.size() != t.header.size())
        fail(path, row_line, "a row of " + std::to_string(row.size()) + " fields under a header of " +
                                 std::to_string(t.header.size()));
      t.rows.push_back(std::move(row));
      t.lines.push_back(row_line);
    }
    row.clear();
    row_line = line;
  };
  for (; i < text.size(); ++i) {
    const char c = text[i];
    any = true;
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
        else quoted = false, after_quote = true;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == ',') {
      end_field();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++line;
      end_row();
    } else if (c == '"' && field.empty() && !after_quote) {
      quoted = true;
    } else if (after_quote) {
      fail(path, line, "a character after a closing quote");
    } else {
      field += c;
    }
  }
  if (quoted) fail(path, row_line, "a quoted field is not closed before the end of the file");
  if (!field.empty() || !row.empty()) end_row();
  if (!any || t.header.empty()) throw FormatError(path + ": empty file");
  return t;
}

CsvTable read_csv(const std::string& path) {
  std::error_code ec;  // only a regular file: a FIFO would block the import forever
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw FormatError(path + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(path + ": cannot open the file");
  std::ostringstream s;
  constexpr std::size_t kMax = std::size_t{1} << 30;
  char chunk[1 << 16];
  std::size_t total = 0;
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    total += static_cast<std::size_t>(in.gcount());
    if (total > kMax) throw FormatError(path + ": larger than 1 GiB");
    s.write(chunk, in.gcount());
  }
  return parse_csv(s.str(), path);
}

double number_at(const CsvTable& t, std::size_t row, std::size_t column) {
  const std::string& s = t.rows[row][column];
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
    fail(t.path, t.lines[row], "column " + t.header[column] + ": '" + s + "' is not a number");
  return v;
}

long long integer_at(const CsvTable& t, std::size_t row, std::size_t column) {
  const std::string& s = t.rows[row][column];
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
    fail(t.path, t.lines[row], "column " + t.header[column] + ": '" + s + "' is not an integer");
  return v;
}

std::uint64_t unsigned_at(const CsvTable& t, std::size_t row, std::size_t column) {
  const long long v = integer_at(t, row, column);
  if (v < 0) fail(t.path, t.lines[row], "column " + t.header[column] + ": " + std::to_string(v) + " is negative");
  return static_cast<std::uint64_t>(v);
}

}  // namespace tilelab::traces::rocprof
