// traces/output_file: a user's output replaced whole or not at all, and only
// where it is a regular file.
#include "traces/output_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>
#include <vector>

namespace tilelab::traces {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  fs::path dir;
  Scratch() {
    std::string t = (fs::temp_directory_path() / "tilelab-output-XXXXXX").string();
    dir = mkdtemp(t.data());
  }
  ~Scratch() { fs::remove_all(dir); }
};

std::string text_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(OutputFile, ReplacesARegularFileWholeAndLeavesNoTemporary) {
  Scratch s;
  const std::string out = (s.dir / "t.json").string();
  write_output_file(out, "first");
  write_output_file(out, "second, longer");
  EXPECT_EQ(text_of(out), "second, longer");
  EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), fs::directory_iterator()), 1);
}

TEST(OutputFile, NotCommittedLeavesOutAsItWas) {
  Scratch s;
  const std::string out = (s.dir / "t.db").string();
  write_output_file(out, "old");
  {
    OutputFile f(out);
    f.stream() << "half of the new";
  }  // destroyed without commit: an error mid-way
  EXPECT_EQ(text_of(out), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), fs::directory_iterator()), 1);
}

// A FIFO, a folder, or a link to a FIFO at OUT is refused before anything is
// written, and stays what it was.
TEST(OutputFile, RefusesWhatIsNotARegularFile) {
  Scratch s;
  const fs::path fifo = s.dir / "fifo", link = s.dir / "link.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(fifo, link);
  EXPECT_EQ(message_of([&] { write_output_file(fifo.string(), "x"); }),
            fifo.string() + ": exists and is a FIFO, not a regular file to replace");
  EXPECT_EQ(message_of([&] { write_output_file(link.string(), "x"); }),
            link.string() + ": exists and is a FIFO, not a regular file to replace");
  EXPECT_EQ(message_of([&] { write_output_file(s.dir.string(), "x"); }),
            s.dir.string() + ": exists and is a folder, not a regular file to replace");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), fs::directory_iterator()), 2);
}

// OUT turned into a FIFO while the writer wrote: the rename is refused.
TEST(OutputFile, ChecksOutAgainBeforeTheRename) {
  Scratch s;
  const fs::path out = s.dir / "t.svg";
  OutputFile f(out.string());
  f.stream() << "<svg/>";
  ASSERT_EQ(mkfifo(out.c_str(), 0600), 0);
  EXPECT_EQ(message_of([&] { f.commit(); }), out.string() + ": exists and is a FIFO, not a regular file to replace");
  EXPECT_TRUE(fs::is_fifo(out));
}

// Writers of one OUT at once: unique temporaries, so each publishes a whole
// file and the one left is one of theirs, never a mix or a truncation.
TEST(OutputFile, WritersAtOnceEachPublishAWholeFile) {
  Scratch s;
  const std::string out = (s.dir / "race.json").string();
  std::vector<std::string> contents;
  for (int w = 0; w < 8; ++w) contents.push_back(std::string(200000 + w * 1000, static_cast<char>('a' + w)));
  for (int round = 0; round < 5; ++round) {
    std::vector<std::thread> writers;
    for (const std::string& c : contents) writers.emplace_back([&out, &c] { write_output_file(out, c); });
    for (std::thread& t : writers) t.join();
    const std::string got = text_of(out);
    EXPECT_NE(std::find(contents.begin(), contents.end(), got), contents.end()) << got.size();
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace tilelab::traces
