// The tilelab trace store: runs (design checks, simulations, hardware runs)
// with their provenance, results and traces, schema v2 (traces/SCHEMA.md):
// FILE is an HDF5 file whose /runs/<id> link to the runs' own files in
// FILE.runs/, so that opening FILE shows every run and adding one costs what
// the run costs.  Plain records in, plain records out; nothing here
// depends on the rest of tilelab.
//
// Safety: a run is written into its own file under a private name, then
// given a name no other file has (FILE.runs/<id>.h5, or <id>-2.h5 ... when
// that is taken); a private copy of the index that links it then replaces
// FILE by an atomic rename.  A process killed while writing leaves FILE
// exactly as it was.  Each writer lists what it creates in its journal
// (FILE.journal-<pid>-<n>, flock'ed while it lives); a later writer removes
// a dead writer's files by that list and nothing else, so a renamed, copied
// or moved store keeps its runs.  Readers open the file read-only and never
// modify it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilelab::traces {

// 2: each run in its own file beside the store, linked from it (external
// links); 1: runs inside the store's file.  Both are read.
constexpr std::int64_t kSchemaVersion = 2;

class StoreError : public std::runtime_error {
 public:
  explicit StoreError(const std::string& what) : std::runtime_error(what) {}
};

// Provenance of one run.  Unknown values stay empty.
struct RunInfo {
  std::string id;               // unique in the file, e.g. "sim-gemm_bf16-0001"
  std::string kind;             // design, sim, hw
  std::string kernel;
  std::string config_json;      // the kernel configuration, JSON text
  std::string problem_shape;    // e.g. "M=4096,N=4096,K=4096"
  std::string arch;             // gfx950, sm90 ...
  std::string device;           // device name, or "simulator"
  std::string backend;          // hip, cuda, sim, design
  std::string git_revision;
  std::string compiler;         // name and version
  std::string driver;           // hardware runs: driver and runtime versions
  std::string code_object_sha256;
  std::string arch_file_sha256;
  std::string host;
  std::string utc_time;         // ISO 8601; filled by begin_run when empty
  std::string time_unit = "cycles";  // unit of waves/events times: cycles or ns
  std::uint64_t seed = 0;
};

// One timed repetition.
struct Repetition {
  std::int32_t rep;
  double time_ns;
};

struct Summary {
  double median_ns = 0, p10_ns = 0, p90_ns = 0, min_ns = 0, iqr_ns = 0;
  double tflops = 0, gbps = 0, max_rel_error = 0;
  bool correct = false;
  bool checked = true;  // false: no reference check ran (an imported profile); `correct` means nothing
};

struct WaveRecord {
  std::uint32_t wave;
  std::uint32_t workgroup;
  std::uint16_t cu;
  std::uint8_t simd;
  std::uint8_t slot;
  std::int64_t start;
  std::int64_t end;
};

struct EventRecord {
  std::uint32_t wave;
  std::uint32_t pc;
  std::uint16_t opcode;       // index into the run's opcode_names
  std::uint8_t cls;           // index into class_names
  std::uint8_t stall_reason;  // index into stall_reason_names (0: none)
  std::uint32_t stall;        // cycles the wave waited before issue
  std::int64_t issue;
  std::int64_t complete;
};

struct LdsRecord {
  char site[48];          // pc as text, or a spec site name
  std::uint32_t pc;
  char instruction[32];
  std::uint16_t phases;
  std::uint16_t worst_ways;
  std::uint64_t conflict_cycles;
  std::uint64_t count;
};

// The thread trace's per-pc columns (rocprofv3's stats CSV / code.json, and
// the cycle model's same columns), in the run's time unit.
struct PcStatRecord {
  std::uint32_t pc;        // the instruction's address in the code object
  char instruction[64];    // as printed
  std::uint64_t hits;      // wave-level executions
  std::int64_t latency;    // sum of durations (stall + issue)
  std::int64_t stall;      // sum of stalls
  std::int64_t idle;       // sum of gaps before the instruction's first attempt
};

// Where one instruction came from: its source line from the code object's
// DWARF line table (traces/SCHEMA.md `pc_sources`; runs whose code object
// has one).
struct PcSourceRecord {
  std::uint32_t pc;
  char source[96];  // "file:line", the file from the source root
};

// One XCD's traffic over one window of a cycle-model run (the chip's
// counters over time; traces/SCHEMA.md `xcd_counters`).
struct XcdCounterRecord {
  std::uint16_t xcd;
  std::int64_t start;           // the window's first cycle
  std::int64_t cycles;          // its length
  std::uint64_t l2_requests;    // TCC_REQ in the window
  std::uint64_t l2_hits;        // TCC_HIT
  std::uint64_t hbm_bytes;      // read from and written to HBM
};

struct CounterRecord {
  char name[64];
  double value;
};

// Copy text into a fixed-size record field (truncated, NUL padded).
template <std::size_t N>
void set_text(char (&field)[N], const std::string& s) {
  std::size_t n = s.size() < N - 1 ? s.size() : N - 1;
  for (std::size_t i = 0; i < N; ++i) field[i] = i < n ? s[i] : '\0';
}

// How a writer waits for another writer of the same file (writers take
// turns on FILE.lock): up to wait_seconds, calling on_wait once when it
// starts waiting; then StoreError naming the file.
struct WriterOptions {
  std::size_t event_buffer = 1 << 20;  // events held in memory before a flush
  double wait_seconds = 60;
  std::function<void(const std::string&)> on_wait;
};

// The rule for a run id: 1 to kMaxRunIdBytes bytes, no '/' or control
// character, not starting with '.' (it names a file).  StoreError otherwise.
inline constexpr std::size_t kMaxRunIdBytes = 200;
void check_run_id(const std::string& id);

// Throws StoreError when FILE exists and is not a tilelab store of this
// schema version, or already has a run `id`: lets a command refuse a
// duplicate id before it does the work.
void check_new_run(const std::string& file, const std::string& id);

struct StoreSession;  // what the runs written together share (store.cpp)

// Adds runs `ids` of the store `from` to FILE (created when missing), in that
// order: each run's own file is linked (copied across filesystems) into
// FILE.runs/ and FILE's index links it; all published together, or none.
// `from` is left as it was.  StoreError when FILE already has one of the ids,
// `from` lacks one, or either is not a store of this schema.  (A sweep's
// ranks write shards that rank 0 merges this way: app/sweep.)
void adopt_runs(const std::string& file, const std::string& from, const std::vector<std::string>& ids,
                const WriterOptions& options = {});

// Writes one run.  Events stream: they are buffered per wave up to a fixed
// budget and written as per-wave segments, so memory stays bounded and one
// wave's events read back without scanning the whole trace.
class RunWriter {
 public:
  // Start a run in FILE (created when missing).  Throws StoreError when the
  // file is not a tilelab store of this schema version or the id is taken.
  // event_buffer: events held in memory before a flush (bounds memory).
  RunWriter(const std::string& file, const RunInfo& info, std::size_t event_buffer = 1 << 20);
  RunWriter(const std::string& file, const RunInfo& info, const WriterOptions& options);
  RunWriter(RunWriter&&) noexcept;
  ~RunWriter();  // without finish(): the run is discarded, the file untouched
  void add_repetition(const Repetition& r);
  void set_summary(const Summary& s);
  void add_wave(const WaveRecord& w);
  void add_event(const EventRecord& e);
  void add_lds(const LdsRecord& l);
  void add_counter(const std::string& name, double value);
  void add_pc_stat(const PcStatRecord& s);
  void add_xcd_counter(const XcdCounterRecord& c);  // the table is written only for runs that have rows
  void add_pc_source(const PcSourceRecord& s);      // likewise
  // Names behind the small integer ids of events.
  void set_opcode_names(const std::vector<std::string>& names);
  void set_class_names(const std::vector<std::string>& names);
  void set_stall_reason_names(const std::vector<std::string>& names);
  // Write everything, mark the run complete and publish the file atomically
  // (in a RunBatch: ready to be published with the batch).
  void finish();

 private:
  friend class RunBatch;
  RunWriter(const std::string& file, const RunInfo& info, const WriterOptions& options, StoreSession* batch);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Several runs added to a store all together or not at all (an import of many
// dispatches): each run is written and finished through its own RunWriter,
// one at a time; publish() then links them all from the index in one rename.
// Destroyed without publish(), the store is untouched and every run file of
// the batch removed.  Holds the store's writer lock for its life.
class RunBatch {
 public:
  RunBatch(const std::string& file, const WriterOptions& options = {});
  ~RunBatch();
  RunBatch(const RunBatch&) = delete;
  RunBatch& operator=(const RunBatch&) = delete;
  // A run of the batch; StoreError when its id is taken in the store or in the batch.
  RunWriter add(const RunInfo& info);
  void publish();

 private:
  std::string file_;
  WriterOptions options_;
  std::unique_ptr<StoreSession> session_;
};

// ---- Reading ---------------------------------------------------------------

struct RunView {
  RunInfo info;
  bool complete = false;
  std::optional<Summary> summary;
  std::uint64_t repetitions = 0, waves = 0, events = 0, lds_sites = 0, counters = 0, pc_stats = 0;
};

class Reader {
 public:
  explicit Reader(const std::string& file);  // read-only; checks the schema version
  ~Reader();
  std::vector<std::string> run_ids() const;
  RunView run(const std::string& id) const;
  std::vector<Repetition> repetitions(const std::string& id) const;
  std::vector<WaveRecord> waves(const std::string& id) const;
  std::vector<LdsRecord> lds(const std::string& id) const;
  std::map<std::string, double> counters(const std::string& id) const;
  std::vector<PcStatRecord> pc_stats(const std::string& id) const;  // empty for runs without the table
  std::vector<XcdCounterRecord> xcd_counters(const std::string& id) const;  // likewise
  std::vector<PcSourceRecord> pc_sources(const std::string& id) const;      // likewise
  std::vector<std::string> opcode_names(const std::string& id) const;
  std::vector<std::string> class_names(const std::string& id) const;
  std::vector<std::string> stall_reason_names(const std::string& id) const;
  // All events of one wave, in the order written.
  std::vector<EventRecord> wave_events(const std::string& id, std::uint32_t wave) const;
  // Each wave of the waves table once, in ascending wave number, with all its
  // events in the order written: f(wave, events). Reads the segment index once,
  // so the work is linear in waves + segments + events (wave_events per wave
  // would re-read the index for every wave); memory is one wave's events.
  void for_each_wave_events(const std::string& id,
                            const std::function<void(const WaveRecord&, const std::vector<EventRecord>&)>& f) const;
  // Every event, segment by segment (calls f with each block; memory bounded).
  void for_each_event_block(const std::string& id, const std::function<void(const EventRecord*, std::size_t)>& f) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tilelab::traces
