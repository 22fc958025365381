#include "traces/tuning_db.hpp"

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "traces/output_file.hpp"

namespace tilelab::traces {

namespace {

struct Db {
  sqlite3* db = nullptr;
  std::string path;
  ~Db() { sqlite3_close(db); }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(path + ": " + what + (db ? std::string(": ") + sqlite3_errmsg(db) : std::string()));
  }
  void exec(const char* sql) const {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail("cannot write the tuning database");
  }
};

struct Statement {
  sqlite3_stmt* s = nullptr;
  Statement(const Db& d, const char* sql) {
    if (sqlite3_prepare_v2(d.db, sql, -1, &s, nullptr) != SQLITE_OK) d.fail("not a tilelab tuning database");
  }
  ~Statement() { sqlite3_finalize(s); }
  void text(int i, const std::string& v) { sqlite3_bind_text(s, i, v.c_str(), -1, SQLITE_TRANSIENT); }
  std::string column(int i) const {
    const unsigned char* t = sqlite3_column_text(s, i);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
};

void insert(const Db& d, const char* sql, const TuningEntry& e, bool full) {
  Statement st(d, sql);
  st.text(1, e.arch);
  sqlite3_bind_int(st.s, 2, e.cus);
  st.text(3, e.family);
  st.text(4, e.shape);
  st.text(5, e.candidate);
  st.text(6, e.params);
  sqlite3_bind_double(st.s, 7, e.predicted_us);
  if (full) {
    st.text(8, e.code_object_sha256);
    st.text(9, e.arch_file_sha256);
    st.text(10, e.tilelab_revision);
    st.text(11, e.run_id);
  }
  if (sqlite3_step(st.s) != SQLITE_DONE) d.fail("cannot write the tuning database");
}

// How far two shapes are apart: the sum over the asked dimensions of |log2|
// of their ratio; a 0 (a flag such as CAUSAL = 0) matches only 0; infinite
// when one lacks a dimension or a value is negative.
double distance(const std::map<std::string, std::int64_t>& a, const std::map<std::string, std::int64_t>& b) {
  double d = 0;
  for (const auto& [k, v] : a) {
    const auto it = b.find(k);
    if (it == b.end() || v < 0 || it->second < 0) return std::numeric_limits<double>::infinity();
    if (v == 0 || it->second == 0) {
      if (v != it->second) return std::numeric_limits<double>::infinity();
      continue;
    }
    d += std::fabs(std::log2(static_cast<double>(v) / static_cast<double>(it->second)));
  }
  return a.size() == b.size() ? d : std::numeric_limits<double>::infinity();
}

// A lookup reads at most this many SQLite virtual-machine steps: a database
// is input, and a hostile one (a recursive view named winners) would run
// and fill temporary storage without end.  A lookup over a million rows
// takes far fewer.
constexpr long long kLookupSteps = 200'000'000;
constexpr int kStepsPerCall = 10'000;

int over_budget(void* steps) {
  long long& left = *static_cast<long long*>(steps);
  left -= kStepsPerCall;
  return left < 0;
}

// Opens a database to read: read only, its schema untrusted (no functions
// from views or triggers), temporary storage in memory, the VM bounded.
void open_to_read(Db& d, long long& steps) {
  if (sqlite3_open_v2(d.path.c_str(), &d.db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
    d.fail("cannot open the tuning database");
  sqlite3_db_config(d.db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(d.db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_exec(d.db, "PRAGMA temp_store = MEMORY;", nullptr, nullptr, nullptr);
  sqlite3_progress_handler(d.db, kStepsPerCall, &over_budget, &steps);
}

// winners must be a table (a view is code the database brings along).
void check_is_table(const Db& d, const char* name) {
  Statement st(d, "SELECT type FROM sqlite_master WHERE name = ?");
  st.text(1, name);
  const int rc = sqlite3_step(st.s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) d.fail("not a readable tuning database");
  if (rc == SQLITE_DONE || st.column(0) != "table")
    throw std::runtime_error(d.path + ": not a tilelab tuning database (" + name + " is " +
                             (rc == SQLITE_DONE ? std::string("missing") : "a " + st.column(0)) + ", not a table)");
}

}  // namespace

std::string shape_key(const std::map<std::string, std::int64_t>& shape) {
  std::string key;
  for (const auto& [name, v] : shape) key += (key.empty() ? "" : ",") + name + "=" + std::to_string(v);
  return key;
}

std::map<std::string, std::int64_t> parse_shape_key(const std::string& key) {
  std::map<std::string, std::int64_t> s;
  std::stringstream ss(key);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) return {};
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
      return {};
    }
    if (eq == 0 || used != item.size() - eq - 1 || v < 0 || !s.emplace(item.substr(0, eq), v).second) return {};
  }
  return s;
}

void write_tuning_db(const std::string& path, const std::vector<TuningEntry>& entries) {
  OutputFile out(path);
  out.stream().close();  // SQLite writes the temporary by name
  const std::string& tmp = out.temp_path();
  {
    Db d;
    d.path = path;
    if (sqlite3_open_v2(tmp.c_str(), &d.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
      d.fail("cannot create the tuning database");
    d.exec("BEGIN;"
           "CREATE TABLE candidates(arch TEXT, cus INTEGER, family TEXT, shape TEXT, candidate TEXT, params TEXT,"
           " predicted_us REAL, code_object_sha256 TEXT, arch_file_sha256 TEXT, tilelab_revision TEXT, run_id TEXT);"
           "CREATE TABLE winners(arch TEXT, cus INTEGER, family TEXT, shape TEXT, candidate TEXT, params TEXT,"
           " predicted_us REAL, PRIMARY KEY(arch, cus, family, shape));");
    std::map<std::tuple<std::string, int, std::string, std::string>, const TuningEntry*> best;
    for (const TuningEntry& e : entries) {
      if (!std::isfinite(e.predicted_us) || e.predicted_us < 0)
        throw std::runtime_error(path + ": " + e.run_id + "'s predicted time is not a time (" +
                                 std::to_string(e.predicted_us) + " us)");
      insert(d, "INSERT INTO candidates VALUES(?,?,?,?,?,?,?,?,?,?,?)", e, true);
      const TuningEntry*& b = best[{e.arch, e.cus, e.family, e.shape}];
      if (!b || e.predicted_us < b->predicted_us) b = &e;
    }
    for (const auto& [key, e] : best) insert(d, "INSERT INTO winners VALUES(?,?,?,?,?,?,?)", *e, false);
    d.exec("COMMIT;");
  }
  out.commit();
}

std::optional<TuningAnswer> lookup_tuning_db(const std::string& path, const std::string& arch, const std::string& family,
                                             const std::map<std::string, std::int64_t>& shape) {
  for (const auto& [name, v] : shape)
    if (v < 0) throw std::invalid_argument("shape: " + name + " is " + std::to_string(v) + " (a size or a flag: 0 or more)");
  Db d;
  d.path = path;
  if (!std::filesystem::is_regular_file(path)) d.fail("not a regular file (a tuning database is one SQLite file)");
  long long steps = kLookupSteps;
  open_to_read(d, steps);
  check_is_table(d, "winners");
  Statement st(d, "SELECT arch, cus, family, shape, candidate, params, predicted_us FROM winners"
                  " WHERE arch = ? AND family = ? ORDER BY cus, shape");
  st.text(1, arch);
  st.text(2, family);
  std::optional<TuningAnswer> answer;
  int skipped = 0;
  double nearest = std::numeric_limits<double>::infinity();
  int rc = 0;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW) {
    TuningEntry e;
    e.arch = st.column(0);
    e.cus = sqlite3_column_int(st.s, 1);
    e.family = st.column(2);
    e.shape = st.column(3);
    e.candidate = st.column(4);
    e.params = st.column(5);
    e.predicted_us = sqlite3_column_double(st.s, 6);
    const std::map<std::string, std::int64_t> stored = parse_shape_key(e.shape);
    const int type = sqlite3_column_type(st.s, 6);  // NULL (how SQLite keeps a NaN) or text is no time
    if ((type != SQLITE_FLOAT && type != SQLITE_INTEGER) || !std::isfinite(e.predicted_us) || e.predicted_us < 0 ||
        stored.empty()) {
      ++skipped;  // not a time, or not a shape: never an answer
      continue;
    }
    const double dist = distance(shape, stored);
    if (dist < nearest) nearest = dist, answer = TuningAnswer{e, dist == 0, 0};
  }
  if (rc == SQLITE_INTERRUPT)
    throw std::runtime_error(path + ": the lookup ran past its budget of " + std::to_string(kLookupSteps) +
                             " SQLite steps (not a tilelab tuning database?)");
  if (rc != SQLITE_DONE) d.fail("cannot read the winners table");
  if (answer) answer->skipped_rows = skipped;
  return answer;
}

}  // namespace tilelab::traces
