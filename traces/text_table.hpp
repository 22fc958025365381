// A plain-text table whose column widths come from its cells: every column
// is as wide as its widest cell (header included) and columns are parted by
// two spaces, so a number never runs into its neighbour however large it is.
#pragma once
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tilelab::traces {

// A string read from a store or a database as one printable line: control
// characters (newlines, terminal escape sequences) as \xNN, anything past
// `max` bytes cut and counted ("...(+N bytes)").  Every such string a
// command prints goes through here; TextTable's cells do.
std::string printable(std::string_view text, std::size_t max = 256);

class TextTable {
 public:
  enum class Align { left, right };
  struct Column {
    std::string header;
    Align align = Align::right;
  };
  explicit TextTable(std::vector<Column> columns);
  // One row; cells beyond the columns are an error (std::invalid_argument),
  // missing ones are empty.
  void add_row(std::vector<std::string> cells);
  std::size_t rows() const { return rows_.size(); }
  // Header, then the rows, each line after `indent`; each line ends in '\n'
  // and carries no trailing blanks.
  void print(std::ostream& o, const std::string& indent = "") const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// A counter's value: a whole number in full (37862423664), else 6 significant digits.
std::string number(double v);

}  // namespace tilelab::traces
