// Every file tilelab writes for a user (a Perfetto trace, a tuning database,
// an SVG picture, a profile export, a saved buffer) is written through an
// OutputFile, which guarantees:
//  - OUT is replaced whole or not at all: the content goes to a temporary
//    of a unique name beside OUT (mkstemp), which an atomic rename moves
//    onto OUT once complete, so two writers of one OUT each publish a whole
//    file (the later rename wins) and a killed writer leaves OUT as it was;
//  - only a regular file is replaced: an existing OUT that is anything else
//    (a device node, a FIFO, a folder, a link to one) is refused before
//    anything is written, and checked again just before the rename.
// A temporary left by a writer killed mid-way is named OUT.tmp-XXXXXX.
#pragma once
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tilelab::traces {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a file that is not a regular one is, for messages: "a FIFO", "a
// folder", "a character device", ... (the st_mode of stat).
const char* file_type_name(unsigned mode);

// OutputError "OUT: exists and is not a regular file (a FIFO)" when OUT
// exists and is not a regular file (links followed); nothing else.
void check_output_path(const std::string& out);

class OutputFile {
 public:
  explicit OutputFile(const std::string& out);  // checks OUT, creates the temporary
  ~OutputFile();                                 // removes the temporary unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Where to write: a stream on the temporary, or its path for a library
  // that opens files by name (SQLite).
  std::ofstream& stream() { return stream_; }
  const std::string& temp_path() const { return temp_; }

  // Flushes, syncs and renames the temporary onto OUT; OutputError naming
  // OUT when any step fails (the temporary is then removed).
  void commit();

 private:
  std::string out_, temp_;
  std::ofstream stream_;
  bool committed_ = false;
};

// OutputFile for a whole text at once.
void write_output_file(const std::string& out, std::string_view content);

}  // namespace tilelab::traces
