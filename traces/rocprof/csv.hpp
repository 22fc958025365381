// Reading the CSV files rocprofv3 writes (RFC 4180: comma-separated, fields
// optionally in double quotes, "" for a quote inside one, CRLF or LF line
// ends).  Every row must have the header's column count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilelab::traces::rocprof {

// A file that is not what its reader expects; the message names the file and
// the line (and column where there is one).
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CsvTable {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> lines;  // the line each row starts on (1-based)

  // The index of column `name`; FormatError naming the file and the column when absent.
  std::size_t column(const std::string& name) const;
  // The index of column `name`, or npos when the file has none (an optional column).
  std::size_t find_column(const std::string& name) const;
};

// Parses `text` (the contents of `path`, which only names it in messages).
// FormatError for an unterminated quote, a character after a closing quote,
// a row of the wrong width or an empty file.
CsvTable parse_csv(const std::string& text, const std::string& path);
// Reads and parses a file of at most 1 GiB.
CsvTable read_csv(const std::string& path);

// Field helpers: the value as a number, or FormatError naming file, line and column.
double number_at(const CsvTable& t, std::size_t row, std::size_t column);
long long integer_at(const CsvTable& t, std::size_t row, std::size_t column);
// An integer that must not be negative (ids, sizes, counts).
std::uint64_t unsigned_at(const CsvTable& t, std::size_t row, std::size_t column);

}  // namespace tilelab::traces::rocprof
