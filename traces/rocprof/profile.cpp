#include "traces/rocprof/profile.hpp"
#include "traces/output_file.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <filesystem>
#include <memory>
#include <set>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "traces/rocprof/compute_workload.hpp"
#include "traces/rocprof/file_tree.hpp"
#include "traces/store.hpp"

namespace tilelab::traces::rocprof {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail_row(const CsvTable& t, std::size_t row, const std::string& what) {
  throw FormatError(t.path + ":" + std::to_string(t.lines[row]) + ": " + what);
}


// The columns both CSV files have: ids, kernel, agent and times of row r.
Dispatch dispatch_of_row(const CsvTable& t, std::size_t r) {
  Dispatch d;
  d.dispatch_id = unsigned_at(t, r, t.column("Dispatch_Id"));
  d.correlation_id = unsigned_at(t, r, t.column("Correlation_Id"));
  d.kernel = t.rows[r][t.column("Kernel_Name")];
  d.agent = t.rows[r][t.column("Agent_Id")];
  d.start_ns = integer_at(t, r, t.column("Start_Timestamp"));
  d.end_ns = integer_at(t, r, t.column("End_Timestamp"));
  check_times(d, t, r);
  d.source = t.path;
  return d;
}

// A profile's dispatches by process and id: one hash lookup per row, not a
// scan of the dispatches (counter collections have a row per dispatch and
// counter).  Dispatch ids are unique within one process only: two processes'
// files (the ranks of an MPI job) reuse them.  find's pointer holds until the
// next add.
struct DispatchIndex {
  Profile& p;
  std::map<std::pair<std::string, std::uint64_t>, std::size_t> at;
  std::unordered_multimap<std::uint64_t, std::size_t> by_id;
  explicit DispatchIndex(Profile& profile) : p(profile) {
    for (std::size_t i = 0; i < p.dispatches.size(); ++i) {
      at.emplace(std::make_pair(p.dispatches[i].process, p.dispatches[i].dispatch_id), i);
      by_id.emplace(p.dispatches[i].dispatch_id, i);
    }
  }
  Dispatch* find(const std::string& process, std::uint64_t id) {
    const auto it = at.find({process, id});
    return it == at.end() ? nullptr : &p.dispatches[it->second];
  }
  // The one dispatch of this id whatever its process (nullptr when none);
  // FormatError naming `what` when several processes have it.
  Dispatch* find_any(std::uint64_t id, const std::string& what) {
    const auto [first, last] = by_id.equal_range(id);
    if (first == last) return nullptr;
    if (std::next(first) != last)
      throw FormatError(what + ": dispatch " + std::to_string(id) + " is in several processes' files (" +
                        p.dispatches[first->second].source + ", " + p.dispatches[std::next(first)->second].source +
                        "); which one is meant cannot be told");
    return &p.dispatches[first->second];
  }
  Dispatch& add(Dispatch d) {
    at.emplace(std::make_pair(d.process, d.dispatch_id), p.dispatches.size());
    by_id.emplace(d.dispatch_id, p.dispatches.size());
    p.dispatches.push_back(std::move(d));
    return p.dispatches.back();
  }
};

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The process a rocprofv3 file belongs to, from its name: %pid%_kernel_trace.csv,
// %pid%_results.db (or NAME_... with -o NAME); "" for a file named only by its kind.
std::string process_of_file(const std::string& path, const std::string& kind) {
  const std::string name = fs::path(path).filename().string();
  if (!ends_with(name, kind) || name.size() <= kind.size() + 1 || name[name.size() - kind.size() - 1] != '_') return "";
  return name.substr(0, name.size() - kind.size() - 1);
}

// ---- SQLite, through the library ----

// A database is input like any other: its views are queries the file's author
// wrote, and one of them may never end (a recursive view) or need unbounded
// temporary storage. Reading is therefore bounded in work, counted in SQLite
// virtual-machine steps (deterministic, unlike a wall-clock limit), in
// proportion to the file's size, and temporary tables live in memory under a
// cap instead of in an unbounded, already-deleted temporary file.
constexpr std::uint64_t kStepsPerCheck = 10000;
constexpr std::uint64_t kBaseSteps = 50'000'000;    // any small database
constexpr std::uint64_t kStepsPerByte = 2000;       // generous: the reader's queries visit each row a few times
constexpr std::int64_t kMinTempBytes = 256ll << 20;    // temporary storage: 4x the file, in these bounds
constexpr std::int64_t kMaxTempBytes = 4096ll << 20;

struct Db {
  sqlite3* db = nullptr;
  std::string path;
  std::uint64_t steps_left = 0;
  bool out_of_steps = false;
  sqlite3_int64 previous_heap_limit = 0;
  std::int64_t temp_bytes = kMinTempBytes;
  explicit Db(const std::string& p) : path(p) {
    if (sqlite3_open_v2(p.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      const std::string why = db ? sqlite3_errmsg(db) : "out of memory";
      sqlite3_close(db);
      throw FormatError(p + ": cannot open as SQLite (" + why + ")");
    }
    std::error_code ec;
    const std::uint64_t bytes = fs::file_size(p, ec);
    const std::uint64_t size = ec ? 0 : bytes;
    steps_left = kBaseSteps + size * kStepsPerByte;
    temp_bytes = std::clamp(static_cast<std::int64_t>(size) * 4, kMinTempBytes, kMaxTempBytes);
    sqlite3_progress_handler(db, static_cast<int>(kStepsPerCheck), &Db::on_progress, this);
    sqlite3_exec(db, "PRAGMA temp_store = MEMORY", nullptr, nullptr, nullptr);
    previous_heap_limit = sqlite3_hard_heap_limit64(temp_bytes);
  }
  ~Db() {
    sqlite3_close(db);
    sqlite3_hard_heap_limit64(previous_heap_limit);
  }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Runs `sql`, calling row(stmt) for each result row.
  template <class F>
  void query(const std::string& sql, F row) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
      throw FormatError(path + ": not a rocpd database this tilelab reads (" + sqlite3_errmsg(db) + " in: " + sql + ")");
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(st, sqlite3_finalize);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(st);
    if (out_of_steps)
      throw FormatError(path + ": a query did not finish within the work bound for a database of this size "
                               "(a view that never ends?): " + sql);
    if (rc == SQLITE_NOMEM)
      throw FormatError(path + ": a query needs more than " + std::to_string(temp_bytes >> 20) +
                        " MiB of temporary storage: " + sql);
    if (rc != SQLITE_DONE) throw FormatError(path + ": reading failed (" + std::string(sqlite3_errmsg(db)) + ")");
  }
  static int on_progress(void* self) {
    Db& d = *static_cast<Db*>(self);
    if (d.steps_left < kStepsPerCheck) return d.out_of_steps = true, 1;  // non-zero interrupts the query
    d.steps_left -= kStepsPerCheck;
    return 0;
  }
  bool has(const std::string& name) {
    bool found = false;
    query("SELECT name FROM sqlite_master WHERE name = '" + name + "'", [&](sqlite3_stmt*) { found = true; });
    return found;
  }
};

std::string text(sqlite3_stmt* st, int col) {
  const unsigned char* s = sqlite3_column_text(st, col);
  return s ? reinterpret_cast<const char*>(s) : "";
}

// The thread trace as waves and events: times from the first wave's begin,
// opcodes by mnemonic, classes by ATT category; stall reason "stall" where
// the instruction waited (ATT does not say why).
void add_trace(RunWriter& w, const ThreadTrace& t) {
  std::int64_t t0 = t.waves.empty() ? 0 : t.waves[0].begin;
  for (const TraceWave& x : t.waves) t0 = std::min(t0, x.begin);
  std::vector<std::string> opcodes;
  std::map<std::uint64_t, std::uint16_t> opcode_of_pc;
  for (const TraceCode& c : t.code) {
    const std::string mnemonic = c.isa.substr(0, c.isa.find(' '));
    auto at = std::find(opcodes.begin(), opcodes.end(), mnemonic);
    if (at == opcodes.end()) at = opcodes.insert(opcodes.end(), mnemonic);
    opcode_of_pc[c.pc] = static_cast<std::uint16_t>(at - opcodes.begin());
  }
  for (const TraceCode& c : t.code) {
    PcStatRecord s{};
    s.pc = static_cast<std::uint32_t>(c.pc);
    set_text(s.instruction, c.isa);
    s.hits = c.hits;
    s.latency = c.latency;
    s.stall = c.stall;
    s.idle = c.idle;
    w.add_pc_stat(s);
  }
  w.set_opcode_names(opcodes);
  w.set_class_names(trace_category_names());
  w.set_stall_reason_names({"none", "stall"});
  for (std::size_t i = 0; i < t.waves.size(); ++i) {
    const TraceWave& x = t.waves[i];
    WaveRecord r{};
    r.wave = static_cast<std::uint32_t>(i);
    r.cu = static_cast<std::uint16_t>(x.cu);
    r.simd = static_cast<std::uint8_t>(x.simd);
    r.slot = static_cast<std::uint8_t>(x.slot);
    r.start = x.begin - t0;
    r.end = x.end - t0;
    w.add_wave(r);
    for (const TraceInstruction& in : x.instructions) {
      EventRecord e{};
      e.wave = static_cast<std::uint32_t>(i);
      e.pc = static_cast<std::uint32_t>(in.pc);
      e.opcode = opcode_of_pc[in.pc];
      e.cls = static_cast<std::uint8_t>(in.category);
      e.stall_reason = in.stall > 0 ? 1 : 0;
      e.stall = static_cast<std::uint32_t>(in.stall);
      e.issue = in.time + in.stall - t0;
      e.complete = in.time + in.duration - t0;
      w.add_event(e);
    }
  }
}

}  // namespace

void check_times(const Dispatch& d, const CsvTable& t, std::size_t row) {
  if (d.start_ns < 0) fail_row(t, row, "Start_Timestamp " + std::to_string(d.start_ns) + " is negative");
  if (d.end_ns < d.start_ns) fail_row(t, row, "the dispatch ends (" + std::to_string(d.end_ns) + ") before it starts (" +
                                                  std::to_string(d.start_ns) + ")");
}

FileKind file_kind(const std::string& path) {
  // The header line whole, however long (rocprof-compute's pmc_perf.csv
  // names hundreds of counters: the repository's fixture's is 50 KB), up to
  // kMaxHeaderBytes; a file without a line end by then is no table.
  constexpr std::size_t kMaxHeaderBytes = 16u << 20;
  std::ifstream in(path, std::ios::binary);
  std::string head;
  std::size_t end = std::string::npos;
  while (in && head.size() < kMaxHeaderBytes && end == std::string::npos) {
    const std::size_t at = head.size();
    head.resize(at + 64 * 1024);
    in.read(head.data() + at, 64 * 1024);
    head.resize(at + static_cast<std::size_t>(in.gcount()));
    if (at == 0 && head.compare(0, 16, std::string("SQLite format 3\0", 16)) == 0) return FileKind::rocpd;
    end = head.find_first_of("\r\n", at);
  }
  if (head.compare(0, 3, "\xEF\xBB\xBF") == 0) {  // a UTF-8 byte-order mark
    head.erase(0, 3);
    if (end != std::string::npos) end -= 3;
  }
  if (end == std::string::npos && head.size() >= kMaxHeaderBytes) return FileKind::other;  // no header line
  std::set<std::string> columns;
  std::string field;
  for (char c : head.substr(0, end)) {  // the header's names: rocprofv3 quotes them, never with commas inside
    if (c == ',') columns.insert(field), field.clear();
    else if (c != '"') field += c;
  }
  columns.insert(field);
  auto has = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (!columns.count(n)) return false;
    return true;
  };
  if (has({"Kind", "Kernel_Name", "Grid_Size_X"})) return FileKind::kernel_trace;
  if (has({"Counter_Name", "Counter_Value"})) return FileKind::counter_collection;
  if (has({"Dispatch_ID", "Kernel_Name", "Grid_Size", "Workgroup_Size"})) return FileKind::pmc_perf;
  if (has({"gpu_arch", "cu_per_gpu", "num_xcd"})) return FileKind::sysinfo;
  return FileKind::other;
}

Profile read_kernel_trace(const std::string& path) {
  const CsvTable t = read_csv(path);
  const std::size_t kind = t.column("Kind"), lds = t.column("LDS_Block_Size"), scratch = t.column("Scratch_Size"), vgpr = t.column("VGPR_Count"),
                    agpr = t.column("Accum_VGPR_Count"), sgpr = t.column("SGPR_Count");
  const std::array<std::size_t, 3> wg{t.column("Workgroup_Size_X"), t.column("Workgroup_Size_Y"),
                                      t.column("Workgroup_Size_Z")},
      grid{t.column("Grid_Size_X"), t.column("Grid_Size_Y"), t.column("Grid_Size_Z")};
  Profile p;
  p.files.push_back(path);
  DispatchIndex index(p);
  const std::string process = process_of_file(path, "kernel_trace.csv");
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (t.rows[r][kind] != "KERNEL_DISPATCH") fail_row(t, r, "Kind '" + t.rows[r][kind] + "' is not KERNEL_DISPATCH");
    Dispatch d = dispatch_of_row(t, r);
    for (int i = 0; i < 3; ++i) d.workgroup[i] = unsigned_at(t, r, wg[i]), d.grid[i] = unsigned_at(t, r, grid[i]);
    d.lds_bytes = integer_at(t, r, lds);
    d.scratch_bytes = integer_at(t, r, scratch);
    d.vgprs = integer_at(t, r, vgpr);
    d.agprs = integer_at(t, r, agpr);
    d.sgprs = integer_at(t, r, sgpr);
    d.process = process;
    if (index.find(d.process, d.dispatch_id)) fail_row(t, r, "dispatch " + std::to_string(d.dispatch_id) + " twice");
    index.add(std::move(d));
  }
  return p;
}

void add_counter_collection(Profile& p, const std::string& path) {
  const CsvTable t = read_csv(path);
  const std::size_t dispatch = t.column("Dispatch_Id"), name = t.column("Kernel_Name"), grid = t.column("Grid_Size"),
                    wg = t.column("Workgroup_Size"), counter = t.column("Counter_Name"),
                    value = t.column("Counter_Value");
  p.files.push_back(path);
  DispatchIndex index(p);
  const std::size_t pid = t.column("Process_Id"), agent = t.column("Agent_Id");
  const std::string file_process = process_of_file(path, "counter_collection.csv");
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const std::uint64_t id = unsigned_at(t, r, dispatch);
    const std::string process = !file_process.empty() ? file_process : std::to_string(unsigned_at(t, r, pid));
    // The dispatch of this process on this agent; else that of a kernel trace
    // whose name did not say its process (kernel_trace.csv), when exactly one
    // such has this id and agent.  Counters of another process or agent are
    // never merged into a dispatch: they make their own.
    Dispatch* it = index.find(process, id);
    if (it && it->agent != t.rows[r][agent]) it = nullptr;
    if (!it) {
      const auto [first, last] = index.by_id.equal_range(id);
      Dispatch* unnamed = nullptr;
      int candidates = 0;
      for (auto k = first; k != last; ++k) {
        Dispatch& d = p.dispatches[k->second];
        if (d.process.empty() && d.agent == t.rows[r][agent]) unnamed = &d, ++candidates;
      }
      if (candidates == 1) it = unnamed;
    }
    if (!it) {  // no kernel trace: the row describes the dispatch
      Dispatch d = dispatch_of_row(t, r);
      d.process = process;
      d.grid = {unsigned_at(t, r, grid), 1, 1};
      d.workgroup = {unsigned_at(t, r, wg), 1, 1};
      it = &index.add(std::move(d));
    } else if (it->kernel != t.rows[r][name]) {
      fail_row(t, r, "dispatch " + std::to_string(id) + " is '" + t.rows[r][name] + "' here and '" + it->kernel +
                         "' in " + it->source);
    }
    // One row per dispatch and counter, each already summed over the instances.
    it->counters[t.rows[r][counter]] += number_at(t, r, value);
  }
}

Profile read_rocpd(const std::string& path) {
  Db db(path);
  if (!db.has("rocpd_metadata"))
    throw FormatError(path + ": no rocpd_metadata: not a rocpd database (rocprofv3's default output)");
  std::string version;
  db.query("SELECT value FROM rocpd_metadata WHERE tag = 'schema_version'",
           [&](sqlite3_stmt* st) { version = text(st, 0); });
  if (version != "3")
    throw FormatError(path + ": a rocpd database of schema version '" + version + "'; this tilelab reads version 3");
  Profile p;
  p.files.push_back(path);
  // A database merged from several processes says each row's process (pid);
  // one process's database is named %pid%_results.db.
  bool has_pid = false;
  db.query("SELECT name FROM pragma_table_info('rocpd_kernel_dispatch')",
           [&](sqlite3_stmt* st) { has_pid = has_pid || text(st, 0) == "pid"; });
  const std::string file_process = process_of_file(path, "results.db");
  // The documented tables (hw-facts §2), through their views without the uuid suffix.
  std::map<std::int64_t, std::size_t> row_of;  // rocpd_kernel_dispatch.id -> dispatch
  db.query(
      std::string("SELECT d.dispatch_id, s.kernel_name, d.start, d.end, d.grid_size_x, d.grid_size_y, d.grid_size_z, "
                  "d.workgroup_size_x, d.workgroup_size_y, d.workgroup_size_z, s.group_segment_size, s.arch_vgpr_count, "
                  "s.accum_vgpr_count, s.sgpr_count, d.agent_id, d.id, ") +
          (has_pid ? "d.pid" : "NULL") +
          " FROM rocpd_kernel_dispatch d JOIN rocpd_info_kernel_symbol s ON s.id = d.kernel_id ORDER BY d.start, d.dispatch_id, d.id",
      [&](sqlite3_stmt* st) {
        Dispatch d;
        d.dispatch_id = static_cast<std::uint64_t>(sqlite3_column_int64(st, 0));
        d.kernel = text(st, 1);
        d.start_ns = sqlite3_column_int64(st, 2);
        d.end_ns = sqlite3_column_int64(st, 3);
        if (d.start_ns < 0 || d.end_ns < d.start_ns)
          throw FormatError(path + ": rocpd_kernel_dispatch, dispatch " + std::to_string(d.dispatch_id) +
                            (d.start_ns < 0 ? ": starts at a negative time" : ": ends before it starts"));
        for (int i = 0; i < 3; ++i) {
          d.grid[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(sqlite3_column_int64(st, 4 + i));
          d.workgroup[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(sqlite3_column_int64(st, 7 + i));
        }
        d.lds_bytes = sqlite3_column_int64(st, 10);
        d.vgprs = sqlite3_column_int64(st, 11);
        d.agprs = sqlite3_column_int64(st, 12);
        d.sgprs = sqlite3_column_int64(st, 13);
        d.agent = "Agent " + text(st, 14);
        d.process = sqlite3_column_type(st, 16) == SQLITE_NULL ? file_process : text(st, 16);
        d.source = path;
        row_of[sqlite3_column_int64(st, 15)] = p.dispatches.size();
        p.dispatches.push_back(std::move(d));
      });
  // A dispatch id twice in one process: the rows cannot be told apart as runs.
  std::map<std::pair<std::string, std::uint64_t>, int> seen;
  for (const Dispatch& d : p.dispatches)
    if (++seen[{d.process, d.dispatch_id}] == 2)
      throw FormatError(path + ": rocpd_kernel_dispatch: dispatch " + std::to_string(d.dispatch_id) + " appears twice" +
                        (d.process.empty() ? std::string(" (and no pid column says which process each row is)")
                                           : " in process " + d.process));
  // One rocpd_pmc_event row per hardware instance: summed per dispatch row and counter.
  if (db.has("rocpd_pmc_event"))
    db.query(
        "SELECT d.id, p.name, SUM(e.value) FROM rocpd_pmc_event e JOIN rocpd_info_pmc p ON p.id = e.pmc_id "
        "JOIN rocpd_kernel_dispatch d ON d.event_id = e.event_id GROUP BY d.id, p.name ORDER BY d.id, p.name",
        [&](sqlite3_stmt* st) {
          const auto it = row_of.find(sqlite3_column_int64(st, 0));
          if (it != row_of.end()) p.dispatches[it->second].counters[text(st, 1)] += sqlite3_column_double(st, 2);
        });
  return p;
}

namespace {
// Joins each thread trace under `root` to its dispatch (by dispatch id), or
// adds the dispatch when the profile lacks it.
void add_thread_traces(Profile& p, const std::vector<std::string>& folders) {
  DispatchIndex index(p);
  for (const std::string& f : folders) {
    auto t = std::make_shared<const ThreadTrace>(read_thread_trace(f));
    p.files.push_back(f);
    Dispatch* it = index.find_any(t->dispatch, f);
    if (!it) {
      Dispatch d;
      d.dispatch_id = t->dispatch;
      d.kernel = t->kernel;
      d.agent = "Agent " + std::to_string(t->agent);
      d.source = f;
      d.timed = false;
      it = &index.add(std::move(d));
    }
    it->trace = t;
  }
}
}  // namespace

Profile read_profile(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw FormatError(path + ": no such file or folder");
  if (fs::is_directory(path, ec) && fs::path(path).filename().string().rfind("ui_output_agent_", 0) == 0) {
    Profile p;
    add_thread_traces(p, {path});
    return p;
  }
  if (!fs::is_directory(path, ec)) {
    switch (file_kind(path)) {
      case FileKind::rocpd: return read_rocpd(path);
      case FileKind::counter_collection: {
        Profile p;
        add_counter_collection(p, path);
        return p;
      }
      case FileKind::kernel_trace: return read_kernel_trace(path);
      case FileKind::pmc_perf: {
        Profile p;
        p.profiler = "rocprofv2";
        add_pmc_perf(p, read_csv(path));
        return p;
      }
      case FileKind::sysinfo:
        throw FormatError(path + ": rocprof-compute's sysinfo.csv describes the GPU, not dispatches; import its "
                                 "workload folder");
      case FileKind::other: break;
    }
    throw FormatError(path + ": not a rocprofv3 kernel trace, counter collection or rocpd database, nor a "
                             "rocprof-compute pmc_perf table (line 1 has neither Kind, Kernel_Name and Grid_Size_X, "
                             "nor Counter_Name and Counter_Value, nor Dispatch_ID and Grid_Size, and it is not SQLite)");
  }
  std::vector<std::string> traces, counters, dbs, sysinfos, passes;
  for (const TreeEntry& e : list_tree(path)) {
    if (!e.regular_file) continue;
    switch (file_kind(e.path)) {
      case FileKind::kernel_trace: traces.push_back(e.path); break;
      case FileKind::counter_collection: counters.push_back(e.path); break;
      case FileKind::rocpd: dbs.push_back(e.path); break;
      case FileKind::sysinfo: sysinfos.push_back(e.path); break;
      case FileKind::pmc_perf: passes.push_back(e.path); break;
      case FileKind::other: break;
    }
  }
  if (!sysinfos.empty()) {  // a rocprof-compute workload
    if (sysinfos.size() > 1)
      throw FormatError(path + ": " + std::to_string(sysinfos.size()) + " rocprof-compute workloads under it (" +
                        sysinfos[0] + ", " + sysinfos[1] + "); import one workload folder at a time");
    return read_compute_workload(fs::path(sysinfos[0]).parent_path().string(), sysinfos[0]);
  }
  std::sort(traces.begin(), traces.end());
  std::sort(counters.begin(), counters.end());
  std::sort(dbs.begin(), dbs.end());
  Profile p;
  const std::vector<std::string> thread_traces = find_thread_traces(path);
  if (traces.empty() && counters.empty()) {
    if (dbs.empty() && thread_traces.empty() && !passes.empty())
      throw FormatError(path + ": per-dispatch counter tables of separate profiling passes (" + passes[0] +
                        (passes.size() > 1 ? ", ..." : "") +
                        ") and no sysinfo.csv: import one pass's file by its path, or the rocprof-compute workload");
    if (dbs.empty() && thread_traces.empty())
      throw FormatError(path + ": no kernel trace, counter collection, rocpd database or thread trace under it");
    for (const std::string& f : dbs) {
      Profile one = read_rocpd(f);
      p.files.push_back(f);
      p.dispatches.insert(p.dispatches.end(), one.dispatches.begin(), one.dispatches.end());
    }
    add_thread_traces(p, thread_traces);
    return p;
  }
  for (const std::string& f : traces) {
    Profile one = read_kernel_trace(f);
    p.files.push_back(f);
    p.dispatches.insert(p.dispatches.end(), one.dispatches.begin(), one.dispatches.end());
  }
  for (const std::string& f : counters) add_counter_collection(p, f);
  add_thread_traces(p, thread_traces);
  return p;
}

std::vector<std::string> import_profile(const Profile& p, const std::string& store, const ImportOptions& o) {
  std::vector<const Dispatch*> chosen;
  for (const Dispatch& d : p.dispatches)
    if (o.kernel.empty() || d.kernel == o.kernel) chosen.push_back(&d);
  if (chosen.empty())
    throw FormatError("no dispatch" + (o.kernel.empty() ? std::string() : " of kernel '" + o.kernel + "'") +
                      " in what was read");
  std::set<std::string> processes;
  for (const Dispatch* d : chosen) processes.insert(d->process);
  std::vector<std::string> ids;
  std::map<std::string, const Dispatch*> taken;
  for (const Dispatch* d : chosen) {
    std::string process = d->process.empty() ? "unnamed" : d->process;
    std::replace(process.begin(), process.end(), '/', '_');
    ids.push_back(o.id_prefix + "-" + (processes.size() > 1 ? process + "-" : "") + std::to_string(d->dispatch_id));
    const auto [at, fresh] = taken.emplace(ids.back(), d);
    if (!fresh)
      throw FormatError("dispatch " + std::to_string(d->dispatch_id) + " of " + at->second->source + " and of " +
                        d->source + " would both be run '" + ids.back() +
                        "': the files do not say which process each is (import them one at a time with --run-id-prefix)");
    check_new_run(store, ids.back());  // every id checked before the first run is written
  }
  RunBatch batch(store, o.writer);  // all or nothing
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const Dispatch& d = *chosen[i];
    RunInfo info;
    info.id = ids[i];
    info.kind = "hw";
    info.backend = p.profiler;
    info.kernel = d.kernel;
    info.device = d.agent;
    info.arch = !o.arch.empty() ? o.arch : p.gpu.arch;
    info.time_unit = d.trace ? "cycles" : "ns";  // the unit of waves and events
    info.problem_shape = !o.shape.empty() ? o.shape
                                          : "grid=" + std::to_string(d.grid[0]) + "," + std::to_string(d.grid[1]) + "," +
                                                std::to_string(d.grid[2]) + " block=" + std::to_string(d.workgroup[0]) +
                                                "," + std::to_string(d.workgroup[1]) + "," + std::to_string(d.workgroup[2]);
    nlohmann::ordered_json cfg = {{"dispatch_id", d.dispatch_id},
                                  {"correlation_id", d.correlation_id},
                                  {"grid", d.grid},
                                  {"workgroup", d.workgroup},
                                  {"lds_bytes", d.lds_bytes},
                                  {"scratch_bytes", d.scratch_bytes},
                                  {"vgprs", d.vgprs},
                                  {"agprs", d.agprs},
                                  {"sgprs", d.sgprs}};
    if (!d.process.empty()) cfg["process"] = d.process;
    info.config_json = cfg.dump();
    RunWriter w = batch.add(info);
    if (d.timed) {
      const double ns = static_cast<double>(d.end_ns - d.start_ns);
      w.add_repetition({0, ns});
      Summary s;
      s.checked = false;  // the profiler checks nothing
      s.median_ns = s.min_ns = s.p10_ns = s.p90_ns = ns;
      w.set_summary(s);
    }
    for (const auto& [name, value] : d.counters) w.add_counter(name, value);
    const int cus = o.cus > 0 ? o.cus : p.gpu.cus, xccs = o.xccs > 0 ? o.xccs : p.gpu.xccs;
    if (cus > 0) w.add_counter("CU_NUM", cus);
    if (xccs > 0) w.add_counter("XCC_NUM", xccs);
    if (d.trace) add_trace(w, *d.trace);
    w.finish();
  }
  batch.publish();
  return ids;
}

namespace {
std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
std::string number(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}
}  // namespace

namespace {
// A run's thread trace back as rocprof-trace-decoder writes it:
// ui_output_agent_<A>_dispatch_<D>/ with code.json (the per-pc table, one
// line per pc in stored order), filenames.json and one file per wave in
// stored order (named so that they sort in it), each instruction as
// [time = issue - stall, category, stall, duration = complete - time, line].
void export_thread_trace(const Reader& r, const std::string& id, const nlohmann::json& cfg, const RunView& v,
                         const std::string& folder, const std::function<void(const std::string&, const std::string&)>& write) {
  const std::string agent = v.info.device.rfind("Agent ", 0) == 0 ? v.info.device.substr(6) : "0";
  const fs::path dir = fs::path(folder) / ("ui_output_agent_" + agent + "_dispatch_" +
                                           std::to_string(cfg.at("dispatch_id").get<std::uint64_t>()));
  fs::create_directories(dir);
  const std::vector<PcStatRecord> pcs = r.pc_stats(id);
  nlohmann::json code = nlohmann::json::array();
  code.push_back({"; " + v.info.kernel, 0, 0, "", 0, 0, 0, 0, 0, 0});
  std::map<std::uint32_t, int> line_of;
  for (std::size_t i = 0; i < pcs.size(); ++i) {
    const PcStatRecord& p = pcs[i];
    line_of[p.pc] = static_cast<int>(i) + 1;
    code.push_back({std::string(p.instruction), 0, i + 1, "", 1, p.pc, p.hits, p.latency, p.stall, p.idle});
  }
  write((dir / "code.json").string(), nlohmann::json{{"code", code}}.dump() + "\n");
  nlohmann::json names = nlohmann::json::object();
  // Files are numbered by the wave's row in the waves table.
  std::map<std::uint32_t, std::size_t> row_of_wave;
  const std::vector<WaveRecord> waves = r.waves(id);
  for (std::size_t i = 0; i < waves.size(); ++i) row_of_wave.emplace(waves[i].wave, i);
  r.for_each_wave_events(id, [&](const WaveRecord& w, const std::vector<EventRecord>& events) {
    const std::size_t i = row_of_wave.at(w.wave);
    char file[64];
    std::snprintf(file, sizeof file, "se0_sm%d_sl%d_wv%06zu.json", int(w.simd), int(w.slot), i);
    names[std::to_string(w.simd)][std::to_string(w.slot)][std::to_string(i)] = {file, w.start, w.end};
    nlohmann::json insts = nlohmann::json::array();
    for (const EventRecord& e : events) {
      const std::int64_t time = e.issue - static_cast<std::int64_t>(e.stall);
      const auto line = line_of.find(e.pc);
      if (line == line_of.end()) throw FormatError("run '" + id + "': an event at pc " + std::to_string(e.pc) + " has no pc_stats row");
      insts.push_back({time, e.cls, e.stall, e.complete - time, line->second});
    }
    const nlohmann::json wave = {{"num_insts", insts.size()},
                                 {"wave", {{"cu", w.cu}, {"simd", w.simd}, {"slot", w.slot}, {"begin", w.start},
                                           {"end", w.end}, {"instructions", insts}, {"timeline", nlohmann::json::array()},
                                           {"waitcnt", nlohmann::json::array()}}}};
    write((dir / file).string(), wave.dump() + "\n");
  });
  write((dir / "filenames.json").string(),
        nlohmann::json{{"gfxip", 9}, {"wave_filenames", {{"0", names}}}}.dump() + "\n");
}
}  // namespace

namespace {
struct ExportRow {
  nlohmann::json cfg;
  RunView v;
  std::map<std::string, double> counters;
};

// One process's kernel trace and counter collection.
void write_process_files(const std::vector<const ExportRow*>& members, const std::string& process,
                         const std::string& trace_path, const std::string& counters_path,
                         const std::function<void(const std::string&, const std::string&)>& write) {
  const std::string pid =
      !process.empty() && process.find_first_not_of("0123456789") == std::string::npos ? process : "0";
  std::string trace =
      "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\",\"Kernel_Id\",\"Kernel_Name\","
      "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\","
      "\"Accum_VGPR_Count\",\"SGPR_Count\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\",\"Workgroup_Size_Z\","
      "\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n";
  std::string counters =
      "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\",\"Thread_Id\",\"Grid_Size\","
      "\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\","
      "\"Accum_VGPR_Count\",\"SGPR_Count\",\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\",\"End_Timestamp\"\n";
  for (const ExportRow* member : members) {
    const ExportRow& row = *member;
    const auto& c = row.cfg;
    // The store keeps durations: each dispatch is written as starting at 0.
    const auto end = static_cast<long long>(row.v.summary->median_ns);
    auto n = [&](const char* key) { return std::to_string(c.at(key).get<long long>()); };
    auto dim = [&](const char* key, int i) { return std::to_string(c.at(key).at(static_cast<std::size_t>(i)).get<long long>()); };
    const std::string common_tail = n("lds_bytes") + "," + n("scratch_bytes") + "," + n("vgprs") + "," + n("agprs") + "," + n("sgprs");
    trace += "\"KERNEL_DISPATCH\"," + quoted(row.v.info.device) + ",0,0,0," + n("dispatch_id") + ",0," +
             quoted(row.v.info.kernel) + "," + n("correlation_id") + ",0," + std::to_string(end) + "," + common_tail + "," +
             dim("workgroup", 0) + "," + dim("workgroup", 1) + "," + dim("workgroup", 2) + "," + dim("grid", 0) + "," +
             dim("grid", 1) + "," + dim("grid", 2) + "\n";
    for (const auto& [name, value] : row.counters)
      counters += n("correlation_id") + "," + n("dispatch_id") + "," + quoted(row.v.info.device) + ",0," + pid + ",0," +
                  dim("grid", 0) + ",0," + quoted(row.v.info.kernel) + "," + dim("workgroup", 0) + "," + common_tail + "," +
                  quoted(name) + "," + number(value) + ",0," + std::to_string(end) + "\n";
  }
  write(trace_path, trace);
  write(counters_path, counters);
}
}  // namespace

std::vector<std::string> export_runs(const Reader& r, const std::vector<std::string>& ids, const std::string& folder) {
  using Row = ExportRow;
  std::vector<Row> rows;
  for (const std::string& id : ids) {
    Row row{{}, r.run(id), r.counters(id)};
    if (row.v.info.backend != "rocprofv3")
      throw FormatError("run '" + id + "' was not imported from rocprofv3 (backend " + row.v.info.backend + ")");
    if (!row.v.summary) throw FormatError("run '" + id + "' has no duration (a thread trace alone): nothing to export");
    row.cfg = nlohmann::json::parse(row.v.info.config_json);
    rows.push_back(std::move(row));
  }
  if (rows.empty()) throw FormatError("no runs to export");
  fs::create_directories(folder);
  // One pair of files per process, named as rocprofv3 names them (%pid%_...),
  // so that importing the folder gives each dispatch its process again.
  std::map<std::string, std::vector<const Row*>> by_process;
  for (const Row& row : rows) by_process[row.cfg.value("process", std::string())].push_back(&row);
  std::vector<std::string> written;
  auto write = [&](const std::string& path, const std::string& text) {
    try {
      write_output_file(path, text);
    } catch (const OutputError& e) {
      throw FormatError(e.what());
    }
    written.push_back(path);
  };
  for (const auto& [process, members] : by_process) {
    const std::string prefix = process.empty() ? "" : process + "_";
    write_process_files(members, process, (fs::path(folder) / (prefix + "kernel_trace.csv")).string(),
                        (fs::path(folder) / (prefix + "counter_collection.csv")).string(), write);
  }
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].v.waves && r.pc_stats(ids[i]).size()) export_thread_trace(r, ids[i], rows[i].cfg, rows[i].v, folder, write);
  return written;
}

}  // namespace tilelab::traces::rocprof
