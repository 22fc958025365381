#include "traces/hdf5.hpp"

#include "traces/output_file.hpp"

#include <sys/stat.h>

#include <cstring>

#include <algorithm>

namespace tilelab::traces::h5 {

void quiet() {
  static const bool done = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

Handle::Handle(hid_t id, Closer close, const std::string& what) : id_(id), close_(close) {
  if (id < 0) throw Error(what);
}

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    if (id_ >= 0 && close_) close_(id_);
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = -1;
  }
  return *this;
}

Handle::~Handle() {
  if (id_ >= 0 && close_) close_(id_);
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw Error(what);
}

// ---- Files ---------------------------------------------------------------

File File::create(const std::string& path) {
  quiet();
  File f;
  // Track creation order so runs list in the order they were added.
  Handle fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "cannot create file properties");
  check(H5Pset_link_creation_order(fcpl.id(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED), "creation order");
  check(H5Pset_obj_track_times(fcpl.id(), 0), "time tracking");  // the root group too: same inputs, same bytes
  // The newest file format checksums its metadata, so damage is detected
  // instead of being misread.
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "cannot create file access properties");
  check(H5Pset_libver_bounds(fapl.id(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST), "file format version");
  f.h_ = Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.id(), fapl.id()), H5Fclose,
                "cannot create HDF5 file '" + path + "'");
  f.path_ = path;
  return f;
}

namespace {
// Whether the last failed call's error stack says HDF5's file lock was in the
// way (another process has the file open for writing), as opposed to damage.
herr_t find_lock_failure(unsigned, const H5E_error2_t* e, void* found) {
  if (e->desc && std::strstr(e->desc, "unable to lock file")) *static_cast<bool*>(found) = true;
  return 0;
}
bool failed_on_file_lock() {
  bool found = false;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_lock_failure, &found);
  return found;
}
}  // namespace

void require_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw Error("'" + path + "' is not a regular file (" + file_type_name(st.st_mode) + "), so not a store to open");
}

File File::open(const std::string& path, bool writable) {
  quiet();
  require_regular_file(path);  // HDF5 would open a FIFO and wait on it forever
  File f;
  htri_t is = H5Fis_hdf5(path.c_str());
  if (is <= 0) {
    if (is < 0 && failed_on_file_lock())
      throw Error("'" + path + "' is in use by another process (it holds the file open for writing)");
    throw Error("'" + path + "' is not a readable HDF5 file");
  }
  hid_t id = H5Fopen(path.c_str(), writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0 && failed_on_file_lock())
    throw Error("'" + path + "' is in use by another process (it holds the file open for writing)");
  f.h_ = Handle(id, H5Fclose, "cannot open HDF5 file '" + path + "' (damaged or truncated?)");
  f.path_ = path;
  return f;
}

Group File::root() const {
  return Group(Handle(H5Gopen2(h_.id(), "/", H5P_DEFAULT), H5Gclose, "cannot open / in '" + path_ + "'"), "");
}

void File::flush() const { check(H5Fflush(h_.id(), H5F_SCOPE_GLOBAL), "cannot flush '" + path_ + "'"); }

// ---- Groups --------------------------------------------------------------

bool Group::has(const std::string& name) const {
  htri_t r = H5Lexists(id(), name.c_str(), H5P_DEFAULT);
  if (r < 0) throw Error("cannot look up " + path_ + "/" + name);
  return r > 0;
}

Group Group::create_group(const std::string& name) const {
  Handle gcpl(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "group properties");
  check(H5Pset_link_creation_order(gcpl.id(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED), "creation order");
  check(H5Pset_obj_track_times(gcpl.id(), 0), "time tracking");  // same inputs, same bytes
  return Group(Handle(H5Gcreate2(id(), name.c_str(), H5P_DEFAULT, gcpl.id(), H5P_DEFAULT), H5Gclose,
                      "cannot create group " + path_ + "/" + name),
               path_ + "/" + name);
}

Group Group::open_group(const std::string& name) const {
  if (!has(name)) throw Error(path_ + "/" + name + " does not exist");
  return Group(Handle(H5Gopen2(id(), name.c_str(), H5P_DEFAULT), H5Gclose, "cannot open group " + path_ + "/" + name),
               path_ + "/" + name);
}

void Group::link_external(const std::string& name, const std::string& file, const std::string& object) const {
  check(H5Lcreate_external(file.c_str(), object.c_str(), id(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
        "cannot link " + path_ + "/" + name + " to " + file);
}

std::string Group::external_link_file(const std::string& name) const {
  H5L_info_t info;
  if (H5Lget_info(id(), name.c_str(), &info, H5P_DEFAULT) < 0 || info.type != H5L_TYPE_EXTERNAL) return "";
  std::vector<char> value(info.u.val_size + 1, '\0');
  check(H5Lget_val(id(), name.c_str(), value.data(), value.size(), H5P_DEFAULT), "cannot read link " + path_ + "/" + name);
  unsigned flags = 0;
  const char* file = nullptr;
  const char* object = nullptr;
  check(H5Lunpack_elink_val(value.data(), info.u.val_size, &flags, &file, &object),
        "cannot read link " + path_ + "/" + name);
  return file ? file : "";
}

Group Group::open_in_file(const std::string& file, const std::string& object) {
  quiet();
  require_regular_file(file);
  Handle f(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "cannot open '" + file + "'");
  // The group holds the file open after `f` closes (HDF5's weak close degree).
  return Group(Handle(H5Gopen2(f.id(), object.c_str(), H5P_DEFAULT), H5Gclose, "cannot open " + object + " in '" + file + "'"),
               object);
}

static herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->push_back(name);
  return 0;
}

std::vector<std::string> Group::children() const {
  std::vector<std::string> names;
  hsize_t idx = 0;
  if (H5Literate(id(), H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect_name, &names) < 0) {
    names.clear();
    idx = 0;
    check(H5Literate(id(), H5_INDEX_NAME, H5_ITER_INC, &idx, collect_name, &names), "cannot list " + path_);
  }
  return names;
}

bool Group::has_attribute(const std::string& name) const {
  htri_t r = H5Aexists(id(), name.c_str());
  if (r < 0) throw Error("cannot look up attribute " + path_ + "@" + name);
  return r > 0;
}

static void write_attribute(hid_t obj, const std::string& where, const std::string& name, hid_t type,
                            const void* value) {
  if (H5Aexists(obj, name.c_str()) > 0) check(H5Adelete(obj, name.c_str()), "cannot replace " + where + "@" + name);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "dataspace");
  Handle a(H5Acreate2(obj, name.c_str(), type, space.id(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
           "cannot create attribute " + where + "@" + name);
  check(H5Awrite(a.id(), type, value), "cannot write attribute " + where + "@" + name);
}

// Strings are fixed-length (NUL padded): variable-length strings live in
// HDF5's global heap, which has no checksum, and a damaged one can make the
// library read out of bounds.
static Handle fixed_string_type(std::size_t length) {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(t.id(), length ? length : 1), "string type");
  check(H5Tset_strpad(t.id(), H5T_STR_NULLPAD), "string type");
  check(H5Tset_cset(t.id(), H5T_CSET_UTF8), "string type");
  return t;
}

void Group::set(const std::string& name, const std::string& value) const {
  if (value.size() > kMaxStringAttributeBytes)
    throw Error(path_ + "@" + name + ": " + std::to_string(value.size()) + " bytes is over the store's cap of " +
                std::to_string(kMaxStringAttributeBytes) + " for one text");
  Handle t = fixed_string_type(value.size());
  std::string padded = value.empty() ? std::string(1, '\0') : value;
  write_attribute(id(), path_, name, t.id(), padded.data());
}

void Group::set(const std::string& name, std::int64_t value) const {
  write_attribute(id(), path_, name, H5T_NATIVE_INT64, &value);
}

void Group::set(const std::string& name, double value) const {
  write_attribute(id(), path_, name, H5T_NATIVE_DOUBLE, &value);
}

static Handle open_attribute(hid_t obj, const std::string& where, const std::string& name) {
  if (H5Aexists(obj, name.c_str()) <= 0) throw Error(where + " has no attribute '" + name + "'");
  return Handle(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose, "cannot open attribute " + where + "@" + name);
}

std::string Group::get_string(const std::string& name) const {
  Handle a = open_attribute(id(), path_, name);
  Handle ft(H5Aget_type(a.id()), H5Tclose, "attribute type");
  if (H5Tget_class(ft.id()) != H5T_STRING) throw Error(path_ + "@" + name + " is not a string");
  if (H5Tis_variable_str(ft.id()) != 0) throw Error(path_ + "@" + name + " is not a fixed-length string");
  std::size_t n = H5Tget_size(ft.id());
  if (n == 0 || n > kMaxStringAttributeBytes) throw Error(path_ + "@" + name + " has an implausible size");
  std::string s(n, '\0');
  check(H5Aread(a.id(), ft.id(), s.data()), "cannot read " + path_ + "@" + name);
  return s.substr(0, s.find('\0'));
}

std::int64_t Group::get_int(const std::string& name) const {
  Handle a = open_attribute(id(), path_, name);
  std::int64_t v = 0;
  check(H5Aread(a.id(), H5T_NATIVE_INT64, &v), "cannot read " + path_ + "@" + name + " as an integer");
  return v;
}

double Group::get_double(const std::string& name) const {
  Handle a = open_attribute(id(), path_, name);
  double v = 0;
  check(H5Aread(a.id(), H5T_NATIVE_DOUBLE, &v), "cannot read " + path_ + "@" + name + " as a number");
  return v;
}

static herr_t collect_attr(hid_t, const char* name, const H5A_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->push_back(name);
  return 0;
}

std::vector<std::string> Group::attribute_names() const {
  std::vector<std::string> names;
  hsize_t idx = 0;
  check(H5Aiterate2(id(), H5_INDEX_NAME, H5_ITER_INC, &idx, collect_attr, &names), "cannot list attributes of " + path_);
  return names;
}

void Group::write_strings(const std::string& name, const std::vector<std::string>& values) const {
  std::size_t width = 1;
  for (const std::string& v : values) width = std::max(width, v.size());
  Handle t = fixed_string_type(width);
  hsize_t n = values.size();
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, "dataspace");
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset properties");
  check(H5Pset_obj_track_times(dcpl.id(), 0), "time tracking");
  Handle ds(H5Dcreate2(id(), name.c_str(), t.id(), space.id(), H5P_DEFAULT, dcpl.id(), H5P_DEFAULT), H5Dclose,
            "cannot create " + path_ + "/" + name);
  std::string buf(values.size() * width, '\0');
  for (std::size_t i = 0; i < values.size(); ++i) buf.replace(i * width, values[i].size(), values[i]);
  if (n) check(H5Dwrite(ds.id(), t.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), "cannot write " + path_ + "/" + name);
}

std::vector<std::string> Group::read_strings(const std::string& name) const {
  if (!has(name)) throw Error(path_ + "/" + name + " does not exist");
  Handle ds(H5Dopen2(id(), name.c_str(), H5P_DEFAULT), H5Dclose, "cannot open " + path_ + "/" + name);
  Handle space(H5Dget_space(ds.id()), H5Sclose, "dataspace");
  if (H5Sget_simple_extent_ndims(space.id()) != 1) throw Error(path_ + "/" + name + " is not a list of strings");
  hsize_t n = 0;
  H5Sget_simple_extent_dims(space.id(), &n, nullptr);
  Handle ft(H5Dget_type(ds.id()), H5Tclose, "dataset type");
  if (H5Tget_class(ft.id()) != H5T_STRING || H5Tis_variable_str(ft.id()) != 0)
    throw Error(path_ + "/" + name + " is not a list of fixed-length strings");
  std::size_t width = H5Tget_size(ft.id());
  if (width == 0 || width > (1 << 16) || n > (1 << 24)) throw Error(path_ + "/" + name + " has an implausible size");
  std::string buf(n * width, '\0');
  if (n) check(H5Dread(ds.id(), ft.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), "cannot read " + path_ + "/" + name);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::string v = buf.substr(i * width, width);
    out.push_back(v.substr(0, v.find('\0')));
  }
  return out;
}

// ---- Tables --------------------------------------------------------------

CompoundType::CompoundType(std::size_t size)
    : h_(H5Tcreate(H5T_COMPOUND, size), H5Tclose, "cannot create a compound type") {}

CompoundType& CompoundType::field(const char* name, std::size_t offset, hid_t type) {
  check(H5Tinsert(h_.id(), name, offset, type), std::string("cannot add field ") + name);
  return *this;
}

CompoundType& CompoundType::text(const char* name, std::size_t offset, std::size_t length) {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(t.id(), length), "string type");
  check(H5Tset_strpad(t.id(), H5T_STR_NULLPAD), "string type");
  field(name, offset, t.id());
  owned_.push_back(std::move(t));
  return *this;
}

TableWriter::TableWriter(const Group& g, const std::string& name, const CompoundType& type, std::size_t row_size,
                         std::size_t chunk_rows)
    : type_(type.id()), row_size_(row_size), chunk_rows_(chunk_rows), what_(g.path() + "/" + name) {
  hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = chunk_rows;
  Handle space(H5Screate_simple(1, &zero, &unlimited), H5Sclose, "dataspace");
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset properties");
  check(H5Pset_chunk(dcpl.id(), 1, &chunk), "chunking of " + what_);
  check(H5Pset_fletcher32(dcpl.id()), "checksum filter of " + what_);  // damaged chunks are detected
  check(H5Pset_shuffle(dcpl.id()), "shuffle filter of " + what_);
  check(H5Pset_deflate(dcpl.id(), 4), "deflate filter of " + what_);
  check(H5Pset_obj_track_times(dcpl.id(), 0), "time tracking");  // same inputs, same bytes
  // The file type is the packed struct: no padding bytes reach the file,
  // which keeps files smaller and byte-for-byte deterministic.
  Handle packed(H5Tcopy(type_), H5Tclose, "type copy");
  check(H5Tpack(packed.id()), "packing the type of " + what_);
  ds_ = Handle(H5Dcreate2(g.id(), name.c_str(), packed.id(), space.id(), H5P_DEFAULT, dcpl.id(), H5P_DEFAULT), H5Dclose,
               "cannot create table " + what_);
}

void TableWriter::append(const void* rows, std::size_t count) {
  if (count >= chunk_rows_) {
    flush();
    write(rows, count);
    return;
  }
  const char* p = static_cast<const char*>(rows);
  buffer_.insert(buffer_.end(), p, p + count * row_size_);
  if (buffer_.size() >= chunk_rows_ * row_size_) flush();
}

void TableWriter::flush() {
  std::size_t n = buffer_.size() / row_size_;
  if (n) write(buffer_.data(), n);
  buffer_.clear();
}

void TableWriter::write(const void* rows, std::size_t count) {
  if (!count) return;
  hsize_t size = rows_ + count, start = rows_, n = count;
  check(H5Dset_extent(ds_.id(), &size), "cannot extend " + what_);
  Handle file_space(H5Dget_space(ds_.id()), H5Sclose, "dataspace");
  check(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, &start, nullptr, &n, nullptr), "selection");
  Handle mem_space(H5Screate_simple(1, &n, nullptr), H5Sclose, "dataspace");
  check(H5Dwrite(ds_.id(), type_, mem_space.id(), file_space.id(), H5P_DEFAULT, rows), "cannot write " + what_);
  rows_ += count;
}

std::uint64_t table_rows(const Group& g, const std::string& name) {
  if (!g.has(name)) throw Error(g.path() + "/" + name + " does not exist");
  Handle ds(H5Dopen2(g.id(), name.c_str(), H5P_DEFAULT), H5Dclose, "cannot open " + g.path() + "/" + name);
  Handle space(H5Dget_space(ds.id()), H5Sclose, "dataspace");
  hsize_t n = 0;
  if (H5Sget_simple_extent_ndims(space.id()) != 1) throw Error(g.path() + "/" + name + " is not a table");
  H5Sget_simple_extent_dims(space.id(), &n, nullptr);
  // The declared rows must fit what the file stores before anyone allocates
  // them: deflate packs at most ~1032:1, so more than 1100 logical bytes per
  // stored byte (beyond one megabyte of slack for a first chunk) is a damaged
  // or forged header (a 10 KB file declared 2^40 rows: std::bad_alloc).
  Handle ft(H5Dget_type(ds.id()), H5Tclose, "dataset type");
  const long double logical = static_cast<long double>(n) * static_cast<long double>(H5Tget_size(ft.id()));
  const long double stored = static_cast<long double>(H5Dget_storage_size(ds.id()));
  if (logical > stored * 1100.0L + static_cast<long double>(1 << 20))
    throw Error(g.path() + "/" + name + " declares " + std::to_string(n) + " rows, more than its " +
                std::to_string(static_cast<unsigned long long>(stored)) + " stored bytes can hold (damaged?)");
  return n;
}

void read_table(const Group& g, const std::string& name, const CompoundType& type, std::uint64_t first,
                std::uint64_t count, void* out) {
  if (!count) return;
  TableReader(g, name, type, std::size_t{1} << 20).read(first, count, out);  // HDF5's default chunk cache
}

TableReader::TableReader(const Group& g, const std::string& name, const CompoundType& type, std::size_t cache_bytes)
    : type_(type.id()), what_(g.path() + "/" + name) {
  Handle dapl(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose, "dataset access list");
  // 12421 slots (prime, as HDF5 advises): far more than the chunks that fit.
  check(H5Pset_chunk_cache(dapl.id(), 12421, cache_bytes, 1.0), "chunk cache of " + what_);
  ds_ = Handle(H5Dopen2(g.id(), name.c_str(), dapl.id()), H5Dclose, "cannot open " + what_);
}

void TableReader::read(std::uint64_t first, std::uint64_t count, void* out) const {
  if (!count) return;
  Handle space(H5Dget_space(ds_.id()), H5Sclose, "dataspace");
  hsize_t start = first, n = count;
  check(H5Sselect_hyperslab(space.id(), H5S_SELECT_SET, &start, nullptr, &n, nullptr), "rows out of range in " + what_);
  Handle mem(H5Screate_simple(1, &n, nullptr), H5Sclose, "dataspace");
  check(H5Dread(ds_.id(), type_, mem.id(), space.id(), H5P_DEFAULT, out), "cannot read " + what_ + " (damaged?)");
}

}  // namespace tilelab::traces::h5
