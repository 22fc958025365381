#include "traces/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tilelab::traces {

namespace {

// The folder OUT is in, to sync after the rename.
std::string folder_of(const std::string& out) {
  const std::size_t slash = out.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : out.substr(0, slash);
}

}  // namespace

const char* file_type_name(unsigned m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

void check_output_path(const std::string& out) {
  if (out.empty()) throw OutputError("an output file needs a name");
  struct stat st {};
  if (::stat(out.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw OutputError(out + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) throw OutputError(out + ": exists and is " + file_type_name(st.st_mode) + ", not a regular file to replace");
}

OutputFile::OutputFile(const std::string& out) : out_(out) {
  check_output_path(out);
  std::string pattern = out + ".tmp-XXXXXX";
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw OutputError(out + ": cannot create a file beside it (" + std::strerror(errno) + ")");
  // mkstemp makes it 0600; a written file gets the mode a new file would.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  ::close(fd);
  temp_ = pattern;
  stream_.open(temp_, std::ios::binary | std::ios::trunc);
  if (!stream_) {
    ::unlink(temp_.c_str());
    throw OutputError(out + ": cannot write beside it");
  }
}

OutputFile::~OutputFile() {
  if (committed_) return;
  stream_.close();
  ::unlink(temp_.c_str());
}

void OutputFile::commit() {
  auto fail = [&](const std::string& what) {
    stream_.close();
    ::unlink(temp_.c_str());
    committed_ = true;  // nothing left to remove
    throw OutputError(out_ + ": " + what);
  };
  if (stream_.is_open()) {
    stream_.flush();
    if (!stream_) fail("cannot write it (disk full?)");
    stream_.close();
  }
  const int fd = ::open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    if (fd >= 0) ::close(fd);
    fail("cannot write it (its temporary vanished or the disk failed)");
  }
  ::close(fd);
  try {
    check_output_path(out_);  // what OUT is now, not when the writer started
  } catch (const OutputError& e) {
    fail(std::string(e.what()).substr(out_.size() + 2));
  }
  if (::rename(temp_.c_str(), out_.c_str()) != 0) fail(std::string("cannot replace it (") + std::strerror(errno) + ")");
  committed_ = true;
  const int dir = ::open(folder_of(out_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void write_output_file(const std::string& out, std::string_view content) {
  OutputFile f(out);
  f.stream().write(content.data(), static_cast<std::streamsize>(content.size()));
  f.commit();
}

}  // namespace tilelab::traces
