// A small RAII layer over the HDF5 C API: files, groups, attributes, string
// lists, and chunked, compressed (shuffle + deflate) tables of plain structs.
// Every failing call throws h5::Error naming what was being done; HDF5's own
// error printing is switched off so that nothing else reaches stderr.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilelab::traces::h5 {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// The longest string attribute, one limit for writing and reading: the writer
// refuses what the reader would refuse, so no entry makes a store unreadable.
inline constexpr std::size_t kMaxStringAttributeBytes = 1 << 20;

// Owns one hid_t and closes it with the matching H5*close.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close, const std::string& what);  // throws if id < 0
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  hid_t id() const { return id_; }

 private:
  hid_t id_ = -1;
  Closer close_ = nullptr;
};

// Error naming the path when it exists and is not a regular file (a FIFO,
// a device, a folder): checked before HDF5 opens anything, which would block
// on a FIFO.  Every File::open and open_in_file checks it.
void require_regular_file(const std::string& path);

// Throw Error(what) when an HDF5 call returned a negative status.
void check(herr_t status, const std::string& what);

class Group {
 public:
  Group() = default;
  Group(Handle h, std::string path) : h_(std::move(h)), path_(std::move(path)) {}
  hid_t id() const { return h_.id(); }
  const std::string& path() const { return path_; }

  bool has(const std::string& name) const;
  Group create_group(const std::string& name) const;
  Group open_group(const std::string& name) const;
  // A link `name` to the object `object` of another file (a path relative to
  // this file's folder, which HDF5 searches when it follows the link).
  void link_external(const std::string& name, const std::string& file, const std::string& object) const;
  // The file an external link `name` points to, as written in the link
  // (empty when `name` is not an external link).
  std::string external_link_file(const std::string& name) const;
  // The group `object` of another HDF5 file, opened read-only (the group
  // keeps that file open).
  static Group open_in_file(const std::string& file, const std::string& object);
  std::vector<std::string> children() const;  // in creation order where tracked, else by name

  bool has_attribute(const std::string& name) const;
  void set(const std::string& name, const std::string& value) const;
  void set(const std::string& name, std::int64_t value) const;
  void set(const std::string& name, double value) const;
  std::string get_string(const std::string& name) const;
  std::int64_t get_int(const std::string& name) const;
  double get_double(const std::string& name) const;
  std::vector<std::string> attribute_names() const;

  // A one-dimensional dataset of variable-length strings.
  void write_strings(const std::string& name, const std::vector<std::string>& values) const;
  std::vector<std::string> read_strings(const std::string& name) const;

 private:
  Handle h_;
  std::string path_;
};

class File {
 public:
  static File create(const std::string& path);     // truncates
  static File open(const std::string& path, bool writable);
  Group root() const;
  void flush() const;

 private:
  Handle h_;
  std::string path_;
};

// A compound HDF5 type describing a plain struct, built field by field.
class CompoundType {
 public:
  explicit CompoundType(std::size_t size);
  CompoundType& field(const char* name, std::size_t offset, hid_t type);
  CompoundType& text(const char* name, std::size_t offset, std::size_t length);  // fixed-length, NUL padded
  hid_t id() const { return h_.id(); }

 private:
  Handle h_;
  std::vector<Handle> owned_;
};

// Appends rows of one struct type to a chunked, extendable, compressed dataset.
class TableWriter {
 public:
  TableWriter(const Group& g, const std::string& name, const CompoundType& type, std::size_t row_size,
              std::size_t chunk_rows);
  // Small appends are buffered up to one chunk; large ones go straight through.
  void append(const void* rows, std::size_t count);
  void flush();  // must be called before the file is closed
  std::uint64_t rows() const { return rows_ + buffer_.size() / row_size_; }

 private:
  void write(const void* rows, std::size_t count);
  Handle ds_;
  hid_t type_;
  std::size_t row_size_;
  std::size_t chunk_rows_;
  std::uint64_t rows_ = 0;  // rows in the file
  std::vector<char> buffer_;
  std::string what_;
};

// Number of rows of a table, and a range of them.
std::uint64_t table_rows(const Group& g, const std::string& name);
void read_table(const Group& g, const std::string& name, const CompoundType& type, std::uint64_t first,
                std::uint64_t count, void* out);

// Reads ranges of one table through one open dataset, so its chunk cache
// (cache_bytes) keeps decompressed chunks between reads: reading many small
// ranges that share chunks (one wave's segments after another's) then
// decompresses each chunk about once instead of once per range.
class TableReader {
 public:
  TableReader(const Group& g, const std::string& name, const CompoundType& type, std::size_t cache_bytes);
  void read(std::uint64_t first, std::uint64_t count, void* out) const;

 private:
  Handle ds_;
  hid_t type_;
  std::string what_;
};

// Make HDF5 silent (call once; idempotent).
void quiet();

}  // namespace tilelab::traces::h5
