#include "traces/text_table.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace tilelab::traces {

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() > columns_.size())
    throw std::invalid_argument("text table: a row of " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(columns_.size()) + " columns");
  cells.resize(columns_.size());
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
