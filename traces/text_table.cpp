#include "traces/text_table.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace tilelab::traces {

std::string printable(std::string_view text, std::size_t max) {
  std::string out;
  const std::size_t shown = std::min(text.size(), max);
  for (std::size_t i = 0; i < shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (shown < text.size()) out += "...(+" + std::to_string(text.size() - shown) + " bytes)";
  return out;
}

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() > columns_.size())
    throw std::invalid_argument("text table: a row of " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(columns_.size()) + " columns");
  cells.resize(columns_.size());
  for (std::string& cell : cells) cell = printable(cell, 4096);  // a stored name cannot reach the terminal raw
  rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& o, const std::string& indent) const {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = columns_[c].header.size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](auto cell) {
    std::string s;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::string& text = cell(c);
      const std::string pad(width[c] - text.size(), ' ');
      if (c) s += "  ";
      s += columns_[c].align == Align::left ? text + pad : pad + text;
    }
    s.erase(s.find_last_not_of(' ') + 1);
    o << indent << s << '\n';
  };
  line([&](std::size_t c) -> const std::string& { return columns_[c].header; });
  for (const auto& row : rows_) line([&](std::size_t c) -> const std::string& { return row[c]; });
}

std::string number(double v) {
  std::ostringstream s;
  if (v == std::floor(v) && std::fabs(v) < 1e15) s << std::fixed << std::setprecision(0) << v;
  else s << std::setprecision(6) << v;
  return s.str();
}

}  // namespace tilelab::traces
