// traces/text_table: column widths come from the cells, so no two cells run together.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "traces/text_table.hpp"

namespace tilelab::traces {
namespace {

TEST(TextTable, WidthsComeFromTheWidestCell) {
  TextTable t({{"class", TextTable::Align::left}, {"cycles A"}, {"B/A"}});
  t.add_row({"mfma", "37862423664", "1.00"});
  t.add_row({"s", "7"});  // a missing cell is empty
  std::ostringstream o;
  t.print(o);
  EXPECT_EQ(o.str(),
            "class     cycles A   B/A\n"
            "mfma   37862423664  1.00\n"
            "s                7\n");
  EXPECT_THROW(t.add_row({"a", "b", "c", "d"}), std::invalid_argument);
}

// Over 2,000 random tables: splitting each printed row on runs of two or
// more spaces gives back exactly its non-empty cells (cells hold no double
// spaces), whatever the lengths.
TEST(TextTable, CellsNeverRunTogether) {
  std::mt19937 rng(7);
  for (int n = 0; n < 2000; ++n) {
    const int cols = 1 + static_cast<int>(rng() % 6);
    std::vector<TextTable::Column> c;
    for (int i = 0; i < cols; ++i) c.push_back({"h" + std::to_string(i), rng() % 2 ? TextTable::Align::left : TextTable::Align::right});
    TextTable t(c);
    std::vector<std::vector<std::string>> rows;
    for (int r = 0; r < 1 + static_cast<int>(rng() % 5); ++r) {
      std::vector<std::string> row;
      for (int i = 0; i < cols; ++i) row.push_back(std::string(1 + rng() % 20, static_cast<char>('a' + rng() % 26)));
      t.add_row(row);
      rows.push_back(row);
    }
    std::ostringstream o;
    t.print(o);
    std::istringstream in(o.str());
    std::string line;
    std::getline(in, line);  // the header
    for (const auto& row : rows) {
      ASSERT_TRUE(std::getline(in, line));
      std::vector<std::string> got;
      std::size_t i = line.find_first_not_of(' ');
      while (i != std::string::npos) {
        std::size_t j = line.find("  ", i);
        got.push_back(line.substr(i, j == std::string::npos ? std::string::npos : j - i));
        i = j == std::string::npos ? j : line.find_first_not_of(' ', j);
      }
      ASSERT_EQ(got, row) << o.str();
    }
  }
}

TEST(TextTable, NumbersInFull) {
  EXPECT_EQ(number(37862423664.0), "37862423664");
  EXPECT_EQ(number(0.142857142857), "0.142857");
  EXPECT_EQ(number(-3), "-3");
}

}  // namespace
}  // namespace tilelab::traces

namespace tilelab::traces {
namespace {
// A string from a store or a database reaches the terminal printable.
TEST(Printable, ControlCharactersShownAndLongTextCut) {
  EXPECT_EQ(printable("plain name"), "plain name");
  EXPECT_EQ(printable("evil\x1b[2J\nname\x7f"), "evil\\x1b[2J\\x0aname\\x7f");
  EXPECT_EQ(printable(std::string(10, 'a'), 4), "aaaa...(+6 bytes)");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 kept
  TextTable t({{"name", TextTable::Align::left}});
  t.add_row({"a\tb"});
  std::ostringstream o;
  t.print(o);
  EXPECT_EQ(o.str(), "name\na\\x09b\n");
}
}  // namespace
}  // namespace tilelab::traces
