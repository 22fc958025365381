#include "traces/store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "traces/hdf5.hpp"

namespace tilelab::traces {

namespace fs = std::filesystem;

namespace {

// Row of the per-wave event index: events [first, first + count) belong to wave.
struct SegmentRecord {
  std::uint32_t wave;
  std::uint32_t pad;
  std::uint64_t first;
  std::uint64_t count;
};

h5::CompoundType repetition_type() {
  h5::CompoundType t(sizeof(Repetition));
  t.field("rep", offsetof(Repetition, rep), H5T_NATIVE_INT32).field("time_ns", offsetof(Repetition, time_ns), H5T_NATIVE_DOUBLE);
  return t;
}

h5::CompoundType wave_type() {
  h5::CompoundType t(sizeof(WaveRecord));
  t.field("wave", offsetof(WaveRecord, wave), H5T_NATIVE_UINT32)
      .field("workgroup", offsetof(WaveRecord, workgroup), H5T_NATIVE_UINT32)
      .field("cu", offsetof(WaveRecord, cu), H5T_NATIVE_UINT16)
      .field("simd", offsetof(WaveRecord, simd), H5T_NATIVE_UINT8)
      .field("slot", offsetof(WaveRecord, slot), H5T_NATIVE_UINT8)
      .field("start", offsetof(WaveRecord, start), H5T_NATIVE_INT64)
      .field("end", offsetof(WaveRecord, end), H5T_NATIVE_INT64);
  return t;
}

h5::CompoundType event_type() {
  h5::CompoundType t(sizeof(EventRecord));
  t.field("wave", offsetof(EventRecord, wave), H5T_NATIVE_UINT32)
      .field("pc", offsetof(EventRecord, pc), H5T_NATIVE_UINT32)
      .field("opcode", offsetof(EventRecord, opcode), H5T_NATIVE_UINT16)
      .field("class", offsetof(EventRecord, cls), H5T_NATIVE_UINT8)
      .field("stall_reason", offsetof(EventRecord, stall_reason), H5T_NATIVE_UINT8)
      .field("stall", offsetof(EventRecord, stall), H5T_NATIVE_UINT32)
      .field("issue", offsetof(EventRecord, issue), H5T_NATIVE_INT64)
      .field("complete", offsetof(EventRecord, complete), H5T_NATIVE_INT64);
  return t;
}

h5::CompoundType segment_type() {
  h5::CompoundType t(sizeof(SegmentRecord));
  t.field("wave", offsetof(SegmentRecord, wave), H5T_NATIVE_UINT32)
      .field("first", offsetof(SegmentRecord, first), H5T_NATIVE_UINT64)
      .field("count", offsetof(SegmentRecord, count), H5T_NATIVE_UINT64);
  return t;
}

h5::CompoundType pc_stat_type() {
  h5::CompoundType t(sizeof(PcStatRecord));
  t.field("pc", offsetof(PcStatRecord, pc), H5T_NATIVE_UINT32)
      .text("instruction", offsetof(PcStatRecord, instruction), sizeof(PcStatRecord::instruction))
      .field("hits", offsetof(PcStatRecord, hits), H5T_NATIVE_UINT64)
      .field("latency", offsetof(PcStatRecord, latency), H5T_NATIVE_INT64)
      .field("stall", offsetof(PcStatRecord, stall), H5T_NATIVE_INT64)
      .field("idle", offsetof(PcStatRecord, idle), H5T_NATIVE_INT64);
  return t;
}

h5::CompoundType lds_type() {
  h5::CompoundType t(sizeof(LdsRecord));
  t.text("site", offsetof(LdsRecord, site), sizeof(LdsRecord::site))
      .field("pc", offsetof(LdsRecord, pc), H5T_NATIVE_UINT32)
      .text("instruction", offsetof(LdsRecord, instruction), sizeof(LdsRecord::instruction))
      .field("phases", offsetof(LdsRecord, phases), H5T_NATIVE_UINT16)
      .field("worst_ways", offsetof(LdsRecord, worst_ways), H5T_NATIVE_UINT16)
      .field("conflict_cycles", offsetof(LdsRecord, conflict_cycles), H5T_NATIVE_UINT64)
      .field("count", offsetof(LdsRecord, count), H5T_NATIVE_UINT64);
  return t;
}

h5::CompoundType counter_type() {
  h5::CompoundType t(sizeof(CounterRecord));
  t.text("name", offsetof(CounterRecord, name), sizeof(CounterRecord::name))
      .field("value", offsetof(CounterRecord, value), H5T_NATIVE_DOUBLE);
  return t;
}

const char* const kProvenance[] = {"kind",        "kernel",   "config",  "problem_shape", "arch",
                                   "device",      "backend",  "git_revision", "compiler", "code_object_sha256",
                                   "arch_file_sha256", "host", "utc_time", "time_unit", "driver"};

std::vector<std::string> provenance_values(const RunInfo& i) {
  return {i.kind,     i.kernel,   i.config_json, i.problem_shape, i.arch,  i.device,   i.backend,
          i.git_revision, i.compiler, i.code_object_sha256, i.arch_file_sha256, i.host, i.utc_time, i.time_unit, i.driver};
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// The store's root, checked: a tilelab store of a schema this code reads.
void check_store(const h5::Group& root, const std::string& file) {
  if (!root.has_attribute("tilelab_schema_version"))
    throw StoreError("'" + file + "' is an HDF5 file but not a tilelab trace store (no tilelab_schema_version)");
  std::int64_t v = root.get_int("tilelab_schema_version");
  if (v > kSchemaVersion)
    throw StoreError("'" + file + "' uses trace schema v" + std::to_string(v) + ", newer than this tilelab (v" +
                     std::to_string(kSchemaVersion) + "); update tilelab to read it");
  if (v < 1) throw StoreError("'" + file + "' has an invalid schema version " + std::to_string(v));
}

void fsync_path(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

void check_id(const std::string& id) {
  if (id.empty() || id.size() > 200 || id.find('/') != std::string::npos || id[0] == '.')
    throw StoreError("run id '" + id + "' is not usable (non-empty, no '/', not starting with '.')");
}

}  // namespace

// ============================================================================
// Writing
// ============================================================================

// An exclusive advisory lock on FILE.lock for the life of a writer, so that
// writers of one file take turns (each copies the file as the previous one
// left it) instead of the last rename discarding the other's run.
// The last holder removes the lock file (a waiter that then wins the lock
// on the removed file notices and takes the new one), so no lock outlives
// its writers.
class WriterLock {
 public:
  WriterLock(const std::string& file, const WriterOptions& o) : path_(file + ".lock") {
    const auto start = std::chrono::steady_clock::now();
    bool told = false;
    for (;;) {
      fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd_ < 0) throw StoreError("cannot create the lock file '" + path_ + "'");
      if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
        struct stat held {}, named {};
        if (::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
            held.st_dev == named.st_dev)
          return;  // locked, and still the file the name refers to
        ::close(fd_);
        continue;
      }
      const int err = errno;
      ::close(fd_);
      if (err != EWOULDBLOCK) throw StoreError("cannot lock '" + path_ + "'");
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (waited >= o.wait_seconds)
      {
        char secs[32];
        std::snprintf(secs, sizeof secs, "%g", o.wait_seconds);
        throw StoreError("'" + file + "' is being written by another process; waited " + secs +
                         " s (--wait SECONDS waits longer)");
      }
      if (!told && o.on_wait) o.on_wait("waiting for another writer of '" + file + "' to finish");
      told = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~WriterLock() {
    ::unlink(path_.c_str());  // still held: the next writer re-checks the name
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  std::string path_;
  int fd_ = -1;
};

// Private copies being written, removed if SIGINT, SIGTERM or SIGHUP ends
// the process (unlink is async-signal-safe; the paths are fixed buffers).
namespace partials {
constexpr int kSlots = 16;
char paths[kSlots][4096];
volatile std::sig_atomic_t used[kSlots];
std::mutex mutex;

extern "C" void on_signal(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (used[i]) ::unlink(paths[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

int add(const std::string& path) {
  static const bool installed = [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
      if (std::signal(sig, on_signal) == SIG_IGN) std::signal(sig, SIG_IGN);  // keep an ignored signal ignored
    return true;
  }();
  (void)installed;
  std::lock_guard<std::mutex> g(mutex);
  if (path.size() >= sizeof paths[0]) return -1;
  for (int i = 0; i < kSlots; ++i)
    if (!used[i]) {
      std::memcpy(paths[i], path.c_str(), path.size() + 1);
      used[i] = 1;
      return i;
    }
  return -1;
}
void remove(int slot) {
  if (slot < 0) return;
  std::lock_guard<std::mutex> g(mutex);
  used[slot] = 0;
}
}  // namespace partials

// Holding the lock, every other private copy of `file` belongs to a writer
// that died (writers hold the lock until they publish): remove them.
void remove_stale_partials(const std::string& file) {
  const fs::path p(file);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string prefix = p.filename().string() + ".partial-";
  const std::string mine = prefix + std::to_string(::getpid());
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name != mine) fs::remove(e.path(), ec);
  }
}

struct RunWriter::Impl {
  std::unique_ptr<WriterLock> lock;  // first member: released last
  std::string file;                  // the store (the index of runs)
  std::string id;
  std::string run_file, partial;     // this run's own file, and the name it is written under
  int signal_slot = -1;
  std::size_t budget;
  h5::File h5file;
  h5::Group run, results;
  std::unique_ptr<h5::TableWriter> reps, waves, events, segments, lds, counters, pc_stats;
  h5::CompoundType rep_t = repetition_type(), wave_t = wave_type(), event_t = event_type(),
                   segment_t = segment_type(), lds_t = lds_type(), counter_t = counter_type(),
                   pc_stat_t = pc_stat_type();
  std::map<std::uint32_t, std::vector<EventRecord>> pending;  // by wave: flushed in wave order (deterministic)
  std::size_t pending_events = 0;
  std::vector<std::string> opcodes, classes, stall_reasons{"none"};
  bool finished = false;

  void flush_events() {
    for (auto& [wave, list] : pending) {
      if (list.empty()) continue;
      SegmentRecord seg{wave, 0, events->rows(), list.size()};
      events->append(list.data(), list.size());
      segments->append(&seg, 1);
      list.clear();
    }
    pending_events = 0;
  }
};

// The folder beside the store that holds its runs' files, and a run's file
// name as the index links it (relative: the store moves with its folder).
std::string runs_folder(const std::string& file) { return file + ".runs"; }
std::string run_link_target(const std::string& file, const std::string& id) {
  return fs::path(runs_folder(file)).filename().string() + "/" + id + ".h5";
}

// Holding the lock: run files of the folder that the index does not link
// belong to writers that died between writing a run and publishing it.
void remove_unlinked_runs(const std::string& file) {
  const std::string folder = runs_folder(file);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return;
  std::unordered_set<std::string> linked;
  if (fs::exists(file)) {
    h5::File index = h5::File::open(file, false);
    h5::Group root = index.root();
    if (root.has("runs"))
      for (std::string& id : root.open_group("runs").children()) linked.insert(std::move(id) + ".h5");
  }
  for (const auto& e : fs::directory_iterator(folder, ec))
    if (!linked.count(e.path().filename().string())) fs::remove(e.path(), ec);
}

void check_new_run(const std::string& file, const std::string& id) {
  check_id(id);
  if (!fs::exists(file)) return;
  try {
    h5::File existing = h5::File::open(file, false);
    h5::Group root = existing.root();
    check_store(root, file);
    if (root.has("runs") && root.open_group("runs").has(id))
      throw StoreError("'" + file + "' already has a run '" + id + "'");
  } catch (const h5::Error& e) {
    throw StoreError(e.what());
  }
}

RunWriter::RunWriter(const std::string& file, const RunInfo& info, std::size_t event_buffer)
    : RunWriter(file, info, WriterOptions{event_buffer, 60, {}}) {}

RunWriter::RunWriter(const std::string& file, const RunInfo& info_in, const WriterOptions& options)
    : impl_(std::make_unique<Impl>()) {
  RunInfo info = info_in;
  check_id(info.id);
  if (info.utc_time.empty()) info.utc_time = utc_now();
  Impl& m = *impl_;
  m.file = file;
  m.id = info.id;
  m.lock = std::make_unique<WriterLock>(file, options);
  m.budget = std::max<std::size_t>(options.event_buffer, 1);
  try {
    check_new_run(file, info.id);
    remove_stale_partials(file);
    remove_unlinked_runs(file);
    fs::create_directories(runs_folder(file));
    m.run_file = runs_folder(file) + "/" + info.id + ".h5";
    m.partial = m.run_file + ".partial-" + std::to_string(::getpid());
    m.signal_slot = partials::add(m.partial);
    // The run is written into its own file: its cost is the run's, whatever the store holds.
    m.h5file = h5::File::create(m.partial);
    h5::Group root = m.h5file.root();
    root.set("tilelab_schema_version", kSchemaVersion);
    root.set("schema", std::string("one run of a tilelab trace store; see traces/SCHEMA.md"));
    m.run = root.create_group("run");
    m.run.set("complete", std::int64_t{0});
    std::vector<std::string> values = provenance_values(info);
    for (std::size_t i = 0; i < values.size(); ++i) m.run.set(kProvenance[i], values[i]);
    m.run.set("seed", static_cast<std::int64_t>(info.seed));
    m.results = m.run.create_group("results");
    m.reps = std::make_unique<h5::TableWriter>(m.results, "repetitions", m.rep_t, sizeof(Repetition), 1024);
    m.waves = std::make_unique<h5::TableWriter>(m.run, "waves", m.wave_t, sizeof(WaveRecord), 4096);
    m.events = std::make_unique<h5::TableWriter>(m.run, "events", m.event_t, sizeof(EventRecord), 16384);
    m.segments = std::make_unique<h5::TableWriter>(m.run, "event_segments", m.segment_t, sizeof(SegmentRecord), 4096);
    m.lds = std::make_unique<h5::TableWriter>(m.run, "lds", m.lds_t, sizeof(LdsRecord), 1024);
    m.counters = std::make_unique<h5::TableWriter>(m.run, "counters", m.counter_t, sizeof(CounterRecord), 1024);
    m.pc_stats = std::make_unique<h5::TableWriter>(m.run, "pc_stats", m.pc_stat_t, sizeof(PcStatRecord), 1024);
  } catch (...) {
    const std::string partial = m.partial;
    const int slot = m.signal_slot;
    impl_.reset();  // closes every handle, then the lock goes
    std::error_code ec;
    if (!partial.empty()) fs::remove(partial, ec);
    partials::remove(slot);
    try {
      throw;
    } catch (const h5::Error& e) {
      throw StoreError(e.what());
    } catch (const fs::filesystem_error& e) {
      throw StoreError("cannot write beside '" + file + "': " + e.what());
    }
  }
}

RunWriter::RunWriter(RunWriter&&) noexcept = default;

RunWriter::~RunWriter() {
  if (!impl_ || impl_->finished) return;
  std::string partial = impl_->partial;
  const int slot = impl_->signal_slot;
  std::unique_ptr<WriterLock> lock = std::move(impl_->lock);  // released after the copy is gone
  impl_.reset();  // closes every handle first
  std::error_code ec;
  fs::remove(partial, ec);
  partials::remove(slot);
}

void RunWriter::add_repetition(const Repetition& r) { impl_->reps->append(&r, 1); }

void RunWriter::set_summary(const Summary& s) {
  const h5::Group& g = impl_->results;
  g.set("median_ns", s.median_ns);
  g.set("p10_ns", s.p10_ns);
  g.set("p90_ns", s.p90_ns);
  g.set("min_ns", s.min_ns);
  g.set("iqr_ns", s.iqr_ns);
  g.set("tflops", s.tflops);
  g.set("gbps", s.gbps);
  g.set("max_rel_error", s.max_rel_error);
  g.set("correct", s.checked ? std::int64_t{s.correct} : std::int64_t{-1});
}

void RunWriter::add_wave(const WaveRecord& w) { impl_->waves->append(&w, 1); }

void RunWriter::add_event(const EventRecord& e) {
  Impl& m = *impl_;
  m.pending[e.wave].push_back(e);
  if (++m.pending_events >= m.budget) m.flush_events();
}

void RunWriter::add_lds(const LdsRecord& l) { impl_->lds->append(&l, 1); }
void RunWriter::add_pc_stat(const PcStatRecord& s) { impl_->pc_stats->append(&s, 1); }

void RunWriter::add_counter(const std::string& name, double value) {
  CounterRecord c{};
  set_text(c.name, name);
  c.value = value;
  impl_->counters->append(&c, 1);
}

void RunWriter::set_opcode_names(const std::vector<std::string>& n) { impl_->opcodes = n; }
void RunWriter::set_class_names(const std::vector<std::string>& n) { impl_->classes = n; }
void RunWriter::set_stall_reason_names(const std::vector<std::string>& n) { impl_->stall_reasons = n; }

void RunWriter::finish() {
  Impl& m = *impl_;
  if (m.finished) throw StoreError("run already finished");
  try {
    m.flush_events();
    for (h5::TableWriter* t : {m.reps.get(), m.waves.get(), m.events.get(), m.segments.get(), m.lds.get(),
                               m.counters.get(), m.pc_stats.get()})
      t->flush();
    m.run.write_strings("opcode_names", m.opcodes);
    m.run.write_strings("class_names", m.classes);
    m.run.write_strings("stall_reason_names", m.stall_reasons);
    m.run.set("complete", std::int64_t{1});
    m.h5file.flush();
  } catch (const h5::Error& e) {
    throw StoreError(e.what());
  }
  // Close the run's file, make it durable and give it its name; then publish
  // a new index that links it, in one rename.  A kill before that rename
  // leaves the store as it was (the next writer removes the unlinked file).
  const std::string file = m.file, id = m.id, run_partial = m.partial, run_file = m.run_file;
  const int run_slot = m.signal_slot;
  m.finished = true;
  std::unique_ptr<WriterLock> lock = std::move(m.lock);  // held until the index is published
  impl_.reset();
  fsync_path(run_partial);
  std::error_code ec;
  fs::rename(run_partial, run_file, ec);
  partials::remove(run_slot);
  if (ec) {
    fs::remove(run_partial, ec);
    throw StoreError("cannot write '" + run_file + "': " + ec.message());
  }
  fsync_path(runs_folder(file));
  const std::string index_partial = file + ".partial-" + std::to_string(::getpid());
  const int index_slot = partials::add(index_partial);
  try {
    {
      h5::File index;
      if (fs::exists(file)) {
        fs::copy_file(file, index_partial, fs::copy_options::overwrite_existing);
        index = h5::File::open(index_partial, true);
      } else {
        index = h5::File::create(index_partial);
        h5::Group root = index.root();
        root.set("tilelab_schema_version", kSchemaVersion);
        root.set("schema", std::string("tilelab trace store; see traces/SCHEMA.md"));
      }
      h5::Group root = index.root();
      h5::Group runs = root.has("runs") ? root.open_group("runs") : root.create_group("runs");
      runs.link_external(id, run_link_target(file, id), "/run");
      index.flush();
    }
    fsync_path(index_partial);
    fs::rename(index_partial, file);
  } catch (const std::exception& e) {
    fs::remove(index_partial, ec);
    fs::remove(run_file, ec);
    partials::remove(index_slot);
    throw StoreError("cannot publish the run in '" + file + "': " + e.what());
  }
  partials::remove(index_slot);
  fs::path dir = fs::path(file).parent_path();
  fsync_path(dir.empty() ? "." : dir.string());
}

// ============================================================================
// Reading
// ============================================================================

struct Reader::Impl {
  std::string file;
  std::int64_t version = 0;
  h5::File h5file;
  h5::Group runs;
  bool has_runs = false;

  h5::Group run(const std::string& id) const {
    if (!has_runs || !runs.has(id)) {
      std::string known;
      if (has_runs)
        for (const std::string& r : runs.children()) known += (known.empty() ? "" : ", ") + r;
      throw StoreError("no run '" + id + "' in '" + file + "'" + (known.empty() ? " (it has no runs)" : " (runs: " + known + ")"));
    }
    try {
      return runs.open_group(id);
    } catch (const h5::Error& e) {
      const std::string own = file + ".runs/" + id + ".h5";
      if (version >= 2 && !fs::exists(own))  // the run's own file is gone
        throw StoreError("run '" + id + "' of '" + file + "' is stored in '" + own + "', which is missing");
      throw StoreError("'" + file + "': " + e.what());
    }
  }
};

Reader::Reader(const std::string& file) : impl_(std::make_unique<Impl>()) {
  impl_->file = file;
  if (!fs::exists(file)) throw StoreError("no such file '" + file + "'");
  try {
    impl_->h5file = h5::File::open(file, false);
    h5::Group root = impl_->h5file.root();
    check_store(root, file);
    impl_->version = root.get_int("tilelab_schema_version");
    impl_->has_runs = root.has("runs");
    if (impl_->has_runs) impl_->runs = root.open_group("runs");
  } catch (const h5::Error& e) {
    throw StoreError(e.what());
  }
}

Reader::~Reader() = default;

// Every reading call turns HDF5 failures (damaged files) into StoreError.
template <class F>
static auto guarded(const std::string& file, F f) -> decltype(f()) {
  try {
    return f();
  } catch (const h5::Error& e) {
    throw StoreError("'" + file + "': " + e.what());
  }
}

std::vector<std::string> Reader::run_ids() const {
  return guarded(impl_->file, [&] { return impl_->has_runs ? impl_->runs.children() : std::vector<std::string>{}; });
}

RunView Reader::run(const std::string& id) const {
  return guarded(impl_->file, [&] {
    h5::Group g = impl_->run(id);
    RunView v;
    v.info.id = id;
    std::vector<std::string*> fields = {&v.info.kind,          &v.info.kernel,   &v.info.config_json,
                                        &v.info.problem_shape, &v.info.arch,     &v.info.device,
                                        &v.info.backend,       &v.info.git_revision, &v.info.compiler,
                                        &v.info.code_object_sha256, &v.info.arch_file_sha256, &v.info.host,
                                        &v.info.utc_time,      &v.info.time_unit,    &v.info.driver};
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (g.has_attribute(kProvenance[i])) *fields[i] = g.get_string(kProvenance[i]);
    if (g.has_attribute("seed")) v.info.seed = static_cast<std::uint64_t>(g.get_int("seed"));
    v.complete = g.has_attribute("complete") && g.get_int("complete") == 1;
    if (g.has("results")) {
      h5::Group r = g.open_group("results");
      if (r.has_attribute("median_ns")) {
        Summary s;
        s.median_ns = r.get_double("median_ns");
        s.p10_ns = r.get_double("p10_ns");
        s.p90_ns = r.get_double("p90_ns");
        s.min_ns = r.get_double("min_ns");
        s.iqr_ns = r.get_double("iqr_ns");
        s.tflops = r.get_double("tflops");
        s.gbps = r.get_double("gbps");
        s.max_rel_error = r.get_double("max_rel_error");
        s.correct = r.get_int("correct") == 1;
        s.checked = r.get_int("correct") != -1;
        v.summary = s;
      }
      if (r.has("repetitions")) v.repetitions = h5::table_rows(r, "repetitions");
    }
    auto rows = [&](const char* n) { return g.has(n) ? h5::table_rows(g, n) : 0; };
    v.waves = rows("waves");
    v.events = rows("events");
    v.lds_sites = rows("lds");
    v.counters = rows("counters");
    v.pc_stats = rows("pc_stats");
    return v;
  });
}

template <class T>
static std::vector<T> whole_table(const h5::Group& g, const char* name, const h5::CompoundType& type) {
  std::vector<T> out(g.has(name) ? h5::table_rows(g, name) : 0);
  h5::read_table(g, name, type, 0, out.size(), out.data());
  return out;
}

std::vector<Repetition> Reader::repetitions(const std::string& id) const {
  return guarded(impl_->file, [&] {
    h5::Group g = impl_->run(id);
    if (!g.has("results")) return std::vector<Repetition>{};
    return whole_table<Repetition>(g.open_group("results"), "repetitions", repetition_type());
  });
}

std::vector<WaveRecord> Reader::waves(const std::string& id) const {
  return guarded(impl_->file, [&] { return whole_table<WaveRecord>(impl_->run(id), "waves", wave_type()); });
}

std::vector<PcStatRecord> Reader::pc_stats(const std::string& id) const {
  return guarded(impl_->file, [&] {
    h5::Group g = impl_->run(id);
    return g.has("pc_stats") ? whole_table<PcStatRecord>(g, "pc_stats", pc_stat_type()) : std::vector<PcStatRecord>{};
  });
}

std::vector<LdsRecord> Reader::lds(const std::string& id) const {
  return guarded(impl_->file, [&] { return whole_table<LdsRecord>(impl_->run(id), "lds", lds_type()); });
}

std::map<std::string, double> Reader::counters(const std::string& id) const {
  return guarded(impl_->file, [&] {
    std::map<std::string, double> out;
    for (const CounterRecord& c : whole_table<CounterRecord>(impl_->run(id), "counters", counter_type()))
      out[std::string(c.name, strnlen(c.name, sizeof c.name))] = c.value;
    return out;
  });
}

static std::vector<std::string> names_of(const h5::Group& g, const char* name) {
  return g.has(name) ? g.read_strings(name) : std::vector<std::string>{};
}

std::vector<std::string> Reader::opcode_names(const std::string& id) const {
  return guarded(impl_->file, [&] { return names_of(impl_->run(id), "opcode_names"); });
}
std::vector<std::string> Reader::class_names(const std::string& id) const {
  return guarded(impl_->file, [&] { return names_of(impl_->run(id), "class_names"); });
}
std::vector<std::string> Reader::stall_reason_names(const std::string& id) const {
  return guarded(impl_->file, [&] { return names_of(impl_->run(id), "stall_reason_names"); });
}

std::vector<EventRecord> Reader::wave_events(const std::string& id, std::uint32_t wave) const {
  return guarded(impl_->file, [&] {
    h5::Group g = impl_->run(id);
    std::vector<SegmentRecord> segs = whole_table<SegmentRecord>(g, "event_segments", segment_type());
    std::uint64_t total = g.has("events") ? h5::table_rows(g, "events") : 0;
    h5::CompoundType t = event_type();
    std::vector<EventRecord> out;
    for (const SegmentRecord& s : segs) {
      if (s.wave != wave) continue;
      if (s.first + s.count > total) throw StoreError("'" + impl_->file + "': event index points past the events (damaged?)");
      std::size_t at = out.size();
      out.resize(at + s.count);
      h5::read_table(g, "events", t, s.first, s.count, out.data() + at);
    }
    return out;
  });
}

void Reader::for_each_event_block(const std::string& id,
                                  const std::function<void(const EventRecord*, std::size_t)>& f) const {
  guarded(impl_->file, [&] {
    h5::Group g = impl_->run(id);
    std::uint64_t total = g.has("events") ? h5::table_rows(g, "events") : 0;
    h5::CompoundType t = event_type();
    std::vector<EventRecord> block;
    for (std::uint64_t first = 0; first < total; first += 1 << 18) {
      std::uint64_t n = std::min<std::uint64_t>(1 << 18, total - first);
      block.resize(n);
      h5::read_table(g, "events", t, first, n, block.data());
      f(block.data(), n);
    }
    return 0;
  });
}

}  // namespace tilelab::traces
