#include "traces/store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <mutex>
#include <optional>
#include <thread>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "traces/hdf5.hpp"
#include "traces/text_table.hpp"

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

h5::CompoundType pc_source_type() {
  h5::CompoundType t(sizeof(PcSourceRecord));
  t.field("pc", offsetof(PcSourceRecord, pc), H5T_NATIVE_UINT32)
      .text("source", offsetof(PcSourceRecord, source), sizeof(PcSourceRecord::source));
  return t;
}

h5::CompoundType xcd_counter_type() {
  h5::CompoundType t(sizeof(XcdCounterRecord));
  t.field("xcd", offsetof(XcdCounterRecord, xcd), H5T_NATIVE_UINT16)
      .field("start", offsetof(XcdCounterRecord, start), H5T_NATIVE_INT64)
      .field("cycles", offsetof(XcdCounterRecord, cycles), H5T_NATIVE_INT64)
      .field("l2_requests", offsetof(XcdCounterRecord, l2_requests), H5T_NATIVE_UINT64)
      .field("l2_hits", offsetof(XcdCounterRecord, l2_hits), H5T_NATIVE_UINT64)
      .field("hbm_bytes", offsetof(XcdCounterRecord, hbm_bytes), H5T_NATIVE_UINT64);
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

void check_id(const std::string& id) { check_run_id(id); }

}  // namespace

void check_run_id(const std::string& id) {
  const bool control = std::any_of(id.begin(), id.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (id.empty() || id.size() > kMaxRunIdBytes || id.find('/') != std::string::npos || id[0] == '.' || control)
    throw StoreError("run id '" + printable(id, 80) + "' is not usable (1 to " + std::to_string(kMaxRunIdBytes) +
                     " bytes, no '/' or control characters, not starting with '.')");
}

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

// ---- The writer's journal ---------------------------------------------------
//
// A writer names every file it creates in its own journal, FILE.journal-<pid>-<n>
// beside the store, before it creates it, and holds an exclusive flock on the
// journal for its whole life.  The lock proves liveness: the kernel drops it
// when the process dies, however it dies.  A later writer of the store
// (holding the store's lock) takes over each journal whose lock it can take:
// its writer is dead, so the files it lists are that writer's abandoned
// writes.  It removes them, with one exception: a finished run file once the
// journal says the index was being published (some index may link it; it is
// kept).  Nothing else is ever removed: not a run file that no index of this
// name links (a renamed or copied store may link it), not a file the store
// did not create.
namespace {

constexpr const char* kJournalMagic = "tilelab-store-journal 1";

std::string store_dir(const std::string& file) {
  const fs::path dir = fs::path(file).parent_path();
  return dir.empty() ? "." : dir.string();
}

// A path relative to the store's folder, as the journal records it.
std::string relative_to_store(const std::string& file, const std::string& path) {
  return fs::path(path).lexically_relative(store_dir(file)).string();
}

class Journal {
 public:
  explicit Journal(const std::string& file) : file_(file) {
    static std::atomic<unsigned> sequence{0};
    path_ = file + ".journal-" + std::to_string(::getpid()) + "-" + std::to_string(sequence++);
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0) throw StoreError("cannot create the journal '" + path_ + "': " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      ::unlink(path_.c_str());
      throw StoreError("cannot lock the journal '" + path_ + "'");
    }
    slot_ = partials::add(path_);
    note(kJournalMagic);
  }
  ~Journal() {
    ::unlink(path_.c_str());
    partials::remove(slot_);
    ::close(fd_);
  }
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;
  // Appends one line (a kill leaves what was written: the page cache outlives the process).
  void note(const std::string& line) {
    const std::string text = line + "\n";
    if (::write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
      throw StoreError("cannot write the journal '" + path_ + "'");
  }
  void created(const std::string& path) { note("partial " + relative_to_store(file_, path)); }
  void finished(const std::string& path) { note("final " + relative_to_store(file_, path)); }
  void publishing() { note("publishing"); }

 private:
  std::string file_, path_;
  int fd_ = -1;
  int slot_ = -1;
};

// One dead writer's journal, taken over: its abandoned files removed, then the journal.
void recover_journal(const std::string& file, const std::string& journal) {
  const int fd = ::open(journal.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (1 << 20) || ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);  // not a journal, or its writer lives
    return;
  }
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  const ssize_t got = ::read(fd, text.data(), text.size());
  text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  std::vector<std::string> partial, final;
  bool publishing = false, ours = false;
  std::size_t at = 0;
  for (std::size_t line = 0; at < text.size(); ++line) {
    const std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) break;  // a line cut short by the kill: nothing was created after it
    const std::string l = text.substr(at, nl - at);
    at = nl + 1;
    if (line == 0) {
      ours = l == kJournalMagic;
      if (!ours) break;
    } else if (l.rfind("partial ", 0) == 0) {
      partial.push_back(l.substr(8));
    } else if (l.rfind("final ", 0) == 0) {
      final.push_back(l.substr(6));
    } else if (l == "publishing") {
      publishing = true;
    }
  }
  if (ours) {
    std::error_code ec;
    for (const std::string& p : partial)
      if (p.find(".partial-") != std::string::npos) fs::remove(fs::path(store_dir(file)) / p, ec);
    if (!publishing)
      for (const std::string& f : final) fs::remove(fs::path(store_dir(file)) / f, ec);
    ::unlink(journal.c_str());
  }
  ::close(fd);
}

// Holding the store's lock: every journal of this store whose writer died.
void recover_abandoned_writes(const std::string& file) {
  const std::string prefix = fs::path(file).filename().string() + ".journal-";
  std::error_code ec;
  std::vector<std::string> journals;
  for (const auto& e : fs::directory_iterator(store_dir(file), ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0) journals.push_back(e.path().string());
  }
  for (const std::string& j : journals) recover_journal(file, j);
}

// The folder beside the store that holds its runs' files, and a run's file
// as the index links it (relative: the store moves with its folder).
std::string runs_folder(const std::string& file) { return file + ".runs"; }
std::string run_link_target(const std::string& file, const std::string& run_file) {
  return fs::path(runs_folder(file)).filename().string() + "/" + fs::path(run_file).filename().string();
}

// Gives a finished run's private copy its name without replacing any file:
// <id>.h5, or <id>-2.h5, <id>-3.h5, ... when the name is taken (the folder
// may hold runs that another index links: a renamed or copied store's).
// link() fails rather than replace, so two writers never take one name.
std::string publish_run_file(const std::string& folder, const std::string& id, const std::string& partial) {
  for (int n = 1;; ++n) {
    const std::string name = folder + "/" + id + (n == 1 ? "" : "-" + std::to_string(n)) + ".h5";
    if (::link(partial.c_str(), name.c_str()) == 0) {
      ::unlink(partial.c_str());
      return name;
    }
    if (errno != EEXIST || n > 100000) throw StoreError("cannot write '" + name + "': " + std::strerror(errno));
  }
}

}  // namespace

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

// What the runs written together share: the store's lock, one journal, and
// the run files finished so far (published together, or not at all).
struct StoreSession {
  std::string file;
  std::unique_ptr<WriterLock> lock;
  std::unique_ptr<Journal> journal;
  std::vector<std::pair<std::string, std::string>> finished;  // (id, run file)
  std::vector<std::string> ids;                               // every id begun

  StoreSession(const std::string& f, const WriterOptions& o) : file(f) {
    lock = std::make_unique<WriterLock>(f, o);
    recover_abandoned_writes(f);
    journal = std::make_unique<Journal>(f);
  }
  ~StoreSession() {  // what was not published is nobody's
    std::error_code ec;
    for (const auto& run : finished) fs::remove(run.second, ec);
    journal.reset();
  }
  StoreSession(const StoreSession&) = delete;
  StoreSession& operator=(const StoreSession&) = delete;

  void begin(const std::string& id) {
    check_new_run(file, id);
    if (std::find(ids.begin(), ids.end(), id) != ids.end())
      throw StoreError("'" + file + "' would get two runs '" + id + "'");
    ids.push_back(id);
  }

  // Links every finished run from a new index, which replaces FILE in one rename.
  void publish() {
    const std::string index_partial = file + ".partial-" + std::to_string(::getpid());
    const int index_slot = partials::add(index_partial);
    std::error_code ec;
    try {
      fsync_path(runs_folder(file));
      journal->created(index_partial);
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
        for (const auto& [id, run_file] : finished) runs.link_external(id, run_link_target(file, run_file), "/run");
        index.flush();
      }
      fsync_path(index_partial);
      journal->publishing();
      fs::rename(index_partial, file);
    } catch (const std::exception& e) {
      fs::remove(index_partial, ec);
      partials::remove(index_slot);
      throw StoreError("cannot publish in '" + file + "': " + e.what());
    }
    partials::remove(index_slot);
    finished.clear();
    fsync_path(store_dir(file));
  }
};

struct RunWriter::Impl {
  std::unique_ptr<StoreSession> own_session;  // first member: released last (a writer on its own)
  StoreSession* session = nullptr;            // own_session, or a batch's
  std::string file;                           // the store (the index of runs)
  std::string id;
  std::string partial;                        // this run's file while it is written
  int signal_slot = -1;
  std::size_t budget = 1;
  h5::File h5file;
  h5::Group run, results;
  std::unique_ptr<h5::TableWriter> reps, waves, events, segments, lds, counters, pc_stats;
  std::unique_ptr<h5::TableWriter> xcd_counters, pc_sources;  // created by their first row
  h5::CompoundType rep_t = repetition_type(), wave_t = wave_type(), event_t = event_type(),
                   segment_t = segment_type(), lds_t = lds_type(), counter_t = counter_type(),
                   pc_stat_t = pc_stat_type(), xcd_counter_t = xcd_counter_type(), pc_source_t = pc_source_type();
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
  void open(const RunInfo& info);
};

void RunWriter::Impl::open(const RunInfo& info) {
  session->begin(info.id);
  fs::create_directories(runs_folder(file));
  partial = runs_folder(file) + "/" + info.id + ".h5.partial-" + std::to_string(::getpid());
  session->journal->created(partial);
  signal_slot = partials::add(partial);
  // The run is written into its own file: its cost is the run's, whatever the store holds.
  h5file = h5::File::create(partial);
  h5::Group root = h5file.root();
  root.set("tilelab_schema_version", kSchemaVersion);
  root.set("schema", std::string("one run of a tilelab trace store; see traces/SCHEMA.md"));
  run = root.create_group("run");
  run.set("complete", std::int64_t{0});
  std::vector<std::string> values = provenance_values(info);
  for (std::size_t i = 0; i < values.size(); ++i) run.set(kProvenance[i], values[i]);
  run.set("seed", static_cast<std::int64_t>(info.seed));
  results = run.create_group("results");
  reps = std::make_unique<h5::TableWriter>(results, "repetitions", rep_t, sizeof(Repetition), 1024);
  waves = std::make_unique<h5::TableWriter>(run, "waves", wave_t, sizeof(WaveRecord), 4096);
  events = std::make_unique<h5::TableWriter>(run, "events", event_t, sizeof(EventRecord), 16384);
  segments = std::make_unique<h5::TableWriter>(run, "event_segments", segment_t, sizeof(SegmentRecord), 4096);
  lds = std::make_unique<h5::TableWriter>(run, "lds", lds_t, sizeof(LdsRecord), 1024);
  counters = std::make_unique<h5::TableWriter>(run, "counters", counter_t, sizeof(CounterRecord), 1024);
  pc_stats = std::make_unique<h5::TableWriter>(run, "pc_stats", pc_stat_t, sizeof(PcStatRecord), 1024);
}

RunWriter::RunWriter(const std::string& file, const RunInfo& info, std::size_t event_buffer)
    : RunWriter(file, info, WriterOptions{event_buffer, 60, {}}) {}

RunWriter::RunWriter(const std::string& file, const RunInfo& info, const WriterOptions& options)
    : RunWriter(file, info, options, nullptr) {}

RunWriter::RunWriter(const std::string& file, const RunInfo& info_in, const WriterOptions& options, StoreSession* batch)
    : impl_(std::make_unique<Impl>()) {
  RunInfo info = info_in;
  check_id(info.id);
  if (info.utc_time.empty()) info.utc_time = utc_now();
  Impl& m = *impl_;
  m.file = file;
  m.id = info.id;
  m.budget = std::max<std::size_t>(options.event_buffer, 1);
  try {
    if (!batch) m.own_session = std::make_unique<StoreSession>(file, options);
    m.session = batch ? batch : m.own_session.get();
    m.open(info);
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
  const std::string partial = impl_->partial;
  const int slot = impl_->signal_slot;
  std::unique_ptr<StoreSession> session = std::move(impl_->own_session);  // released after the copy is gone
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
void RunWriter::add_pc_source(const PcSourceRecord& r) {
  if (!impl_->pc_sources)
    impl_->pc_sources = std::make_unique<h5::TableWriter>(impl_->run, "pc_sources", impl_->pc_source_t,
                                                          sizeof(PcSourceRecord), 1024);
  impl_->pc_sources->append(&r, 1);
}

void RunWriter::add_xcd_counter(const XcdCounterRecord& c) {
  if (!impl_->xcd_counters)
    impl_->xcd_counters = std::make_unique<h5::TableWriter>(impl_->run, "xcd_counters", impl_->xcd_counter_t,
                                                            sizeof(XcdCounterRecord), 1024);
  impl_->xcd_counters->append(&c, 1);
}

void RunWriter::add_counter(const std::string& name, double value) {
  // The record holds 63 bytes and a NUL: a longer name would be cut, and two
  // names sharing their first 63 bytes would become one.
  if (name.size() >= sizeof(CounterRecord::name))
    throw StoreError("counter name '" + name.substr(0, 40) + "...' is " + std::to_string(name.size()) +
                     " bytes; a store keeps names of at most " + std::to_string(sizeof(CounterRecord::name) - 1));
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
    if (m.xcd_counters) m.xcd_counters->flush();
    if (m.pc_sources) m.pc_sources->flush();
    m.run.write_strings("opcode_names", m.opcodes);
    m.run.write_strings("class_names", m.classes);
    m.run.write_strings("stall_reason_names", m.stall_reasons);
    m.run.set("complete", std::int64_t{1});
    m.h5file.flush();
  } catch (const h5::Error& e) {
    throw StoreError(e.what());
  }
  // Close the run's file, make it durable and give it its name (never
  // replacing a file); then, unless a batch publishes it with others, publish
  // a new index that links it, in one rename.  A kill before that rename
  // leaves the store as it was (the next writer removes what the journal
  // lists).
  const std::string file = m.file, id = m.id, partial = m.partial;
  const int slot = m.signal_slot;
  StoreSession& session = *m.session;
  std::unique_ptr<StoreSession> own = std::move(m.own_session);  // held until the index is published
  m.finished = true;
  impl_.reset();
  fsync_path(partial);
  std::string run_file;
  try {
    run_file = publish_run_file(runs_folder(file), id, partial);
  } catch (...) {
    std::error_code ec;
    fs::remove(partial, ec);
    partials::remove(slot);
    throw;
  }
  partials::remove(slot);
  session.journal->finished(run_file);
  session.finished.emplace_back(id, run_file);
  if (own) own->publish();
}

// ---- Several runs, published together --------------------------------------

RunBatch::RunBatch(const std::string& file, const WriterOptions& options) : file_(file), options_(options) {
  try {
    session_ = std::make_unique<StoreSession>(file, options);
  } catch (const fs::filesystem_error& e) {
    throw StoreError("cannot write beside '" + file + "': " + e.what());
  }
}

RunBatch::~RunBatch() = default;

RunWriter RunBatch::add(const RunInfo& info) {
  if (!session_) throw StoreError("the batch of '" + file_ + "' is already published");
  return RunWriter(file_, info, options_, session_.get());
}

void RunBatch::publish() {
  if (!session_) throw StoreError("the batch of '" + file_ + "' is already published");
  session_->publish();
  session_.reset();
}

// ---- Runs of another store --------------------------------------------------

namespace {

// The file that holds run `id` of store `from` (schema v2: its own file,
// found as the Reader finds it, a renamed store's folder included).
std::string run_file_of(const std::string& from, const std::string& id) {
  if (!fs::exists(from)) throw StoreError("no such file '" + from + "'");
  try {
    h5::File src = h5::File::open(from, false);
    h5::Group root = src.root();
    check_store(root, from);
    if (!root.has("runs") || !root.open_group("runs").has(id)) throw StoreError("no run '" + id + "' in '" + from + "'");
    const std::string target = root.open_group("runs").external_link_file(id);
    if (target.empty()) throw StoreError("run '" + id + "' of '" + from + "' is inside the file (schema v1): it cannot be adopted");
    const fs::path linked = fs::path(store_dir(from)) / target;
    const fs::path moved = fs::path(runs_folder(from)) / fs::path(target).filename();
    std::error_code ec;
    if (fs::is_regular_file(linked, ec)) return linked.string();
    if (fs::is_regular_file(moved, ec)) return moved.string();
    throw StoreError("run '" + id + "' of '" + from + "' is stored in '" + linked.lexically_normal().string() + "', which is missing");
  } catch (const h5::Error& e) {
    throw StoreError("'" + from + "': " + e.what());
  }
}

}  // namespace

void adopt_runs(const std::string& file, const std::string& from, const std::vector<std::string>& ids,
                const WriterOptions& options) {
  if (ids.empty()) return;
  std::vector<std::string> sources;
  for (const std::string& id : ids) sources.push_back(run_file_of(from, id));
  StoreSession session(file, options);
  fs::create_directories(runs_folder(file));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    session.begin(ids[i]);
    const std::string partial = runs_folder(file) + "/" + ids[i] + ".h5.partial-" + std::to_string(::getpid());
    session.journal->created(partial);
    const int slot = partials::add(partial);
    try {
      // The same bytes under a second name (a copy across filesystems).
      if (::link(sources[i].c_str(), partial.c_str()) != 0) fs::copy_file(sources[i], partial);
      fsync_path(partial);
      const std::string run_file = publish_run_file(runs_folder(file), ids[i], partial);
      partials::remove(slot);
      session.journal->finished(run_file);
      session.finished.emplace_back(ids[i], run_file);
    } catch (const std::exception& e) {
      std::error_code ec;
      fs::remove(partial, ec);
      partials::remove(slot);
      throw StoreError("cannot adopt run '" + ids[i] + "' into '" + file + "': " + e.what());
    }
  }
  session.publish();
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

  // HDF5 follows the run's external link by opening the file it names: a
  // FIFO there would block the reader, so it is refused first.
  void refuse_irregular_run_file(const std::string& id) const {
    std::string target;
    try {
      target = runs.external_link_file(id);
    } catch (const h5::Error&) {
      return;  // not an external link: nothing outside the store to open
    }
    if (target.empty()) return;
    for (const fs::path& p : {fs::path(store_dir(file)) / target, fs::path(runs_folder(file)) / fs::path(target).filename()}) {
      try {
        h5::require_regular_file(p.string());
      } catch (const h5::Error& e) {
        throw StoreError("run '" + id + "' of '" + file + "': " + e.what());
      }
    }
  }

  h5::Group run(const std::string& id) const {
    if (!has_runs || !runs.has(id)) {
      std::string known;
      if (has_runs)
        for (const std::string& r : runs.children()) known += (known.empty() ? "" : ", ") + r;
      throw StoreError("no run '" + id + "' in '" + file + "'" + (known.empty() ? " (it has no runs)" : " (runs: " + known + ")"));
    }
    if (version >= 2) refuse_irregular_run_file(id);
    try {
      return runs.open_group(id);
    } catch (const h5::Error& e) {
      if (version < 2) throw StoreError("'" + file + "': " + e.what());
      // The run's own file, as the link names it (relative to the store's folder).
      const std::string target = runs.external_link_file(id);
      const fs::path linked = fs::path(store_dir(file)) / target;
      // A store renamed together with its folder (FILE.runs): the file is there under FILE's new name.
      const fs::path moved = fs::path(runs_folder(file)) / fs::path(target).filename();
      std::error_code ec;
      if (!target.empty() && !fs::exists(linked, ec) && fs::is_regular_file(moved, ec)) {
        try {
          return h5::Group::open_in_file(moved.string(), "/run");
        } catch (const h5::Error& e2) {
          throw StoreError("run '" + id + "' of '" + file + "': " + e2.what());
        }
      }
      if (!target.empty() && !fs::exists(linked, ec))
        throw StoreError("run '" + id + "' of '" + file + "' is stored in '" + linked.lexically_normal().string() +
                         "', which is missing");
      throw StoreError("run '" + id + "' of '" + file + "': " + e.what());
    }
  }
};

Reader::Reader(const std::string& file) : impl_(std::make_unique<Impl>()) {
  impl_->file = file;
  if (!fs::exists(file)) throw StoreError("no such file '" + file + "'");
  try {
    h5::require_regular_file(file);
  } catch (const h5::Error& e) {
    throw StoreError(e.what());
  }
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

std::vector<XcdCounterRecord> Reader::xcd_counters(const std::string& id) const {
  return guarded(impl_->file, [&] {
    h5::Group g = impl_->run(id);
    return g.has("xcd_counters") ? whole_table<XcdCounterRecord>(g, "xcd_counters", xcd_counter_type())
                                 : std::vector<XcdCounterRecord>{};
  });
}

std::vector<PcSourceRecord> Reader::pc_sources(const std::string& id) const {
  return guarded(impl_->file, [&] {
    h5::Group g = impl_->run(id);
    return g.has("pc_sources") ? whole_table<PcSourceRecord>(g, "pc_sources", pc_source_type())
                               : std::vector<PcSourceRecord>{};
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
      if (s.count > total || s.first > total - s.count)
        throw StoreError("'" + impl_->file + "': event index points past the events (damaged?)");
      std::size_t at = out.size();
      out.resize(at + s.count);
      h5::read_table(g, "events", t, s.first, s.count, out.data() + at);
    }
    return out;
  });
}

void Reader::for_each_wave_events(
    const std::string& id, const std::function<void(const WaveRecord&, const std::vector<EventRecord>&)>& f) const {
  guarded(impl_->file, [&] {
    h5::Group g = impl_->run(id);
    std::map<std::uint32_t, WaveRecord> waves;  // ascending wave number; the first record of a repeated one
    for (const WaveRecord& w : whole_table<WaveRecord>(g, "waves", wave_type())) waves.emplace(w.wave, w);
    const std::vector<SegmentRecord> segs = whole_table<SegmentRecord>(g, "event_segments", segment_type());
    const std::uint64_t total = g.has("events") ? h5::table_rows(g, "events") : 0;
    std::unordered_map<std::uint32_t, std::vector<std::size_t>> segments_of;
    for (std::size_t i = 0; i < segs.size(); ++i) {
      if (segs[i].count > total || segs[i].first > total - segs[i].count)  // no wrap-around on damaged values
        throw StoreError("'" + impl_->file + "': event index points past the events (damaged?)");
      if (waves.count(segs[i].wave)) segments_of[segs[i].wave].push_back(i);
    }
    const h5::CompoundType t = event_type();
    const std::optional<h5::TableReader> table =
        total ? std::optional<h5::TableReader>(std::in_place, g, "events", t, std::size_t{64} << 20) : std::nullopt;
    std::vector<EventRecord> events;
    for (const auto& [wave, record] : waves) {
      events.clear();
      const auto it = segments_of.find(wave);
      if (it != segments_of.end())
        for (std::size_t i : it->second) {
          const std::size_t at = events.size();
          events.resize(at + segs[i].count);
          table->read(segs[i].first, segs[i].count, events.data() + at);
        }
      f(record, events);
    }
    return 0;
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
