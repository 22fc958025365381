// The offline tuning database `tilelab tune export` writes: one SQLite file,
// keyed as AOTriton keys its own (arch, CU count, kernel family, the problem's
// shape) -> the winner's name and parameters; beyond AOTriton, every
// candidate's predicted time and the fingerprints (code object and arch file
// SHA-256, tilelab's revision) that tell a stale entry.  Tables:
//   candidates(arch, cus, family, shape, candidate, params, predicted_us,
//              code_object_sha256, arch_file_sha256, tilelab_revision, run_id)
//   winners(arch, cus, family, shape, candidate, params, predicted_us)
// `shape` is "K=8192,M=128,N=8192" (names sorted); `params` is JSON.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilelab::traces {

// The key of a problem's shape: "K=8192,M=128,N=8192" (names sorted), and
// back (a text not of that form, a negative value or a name given twice
// gives an empty map).
std::string shape_key(const std::map<std::string, std::int64_t>& shape);
std::map<std::string, std::int64_t> parse_shape_key(const std::string& key);

struct TuningEntry {
  std::string arch;
  int cus = 0;
  std::string family, shape, candidate, params;
  double predicted_us = 0;
  std::string code_object_sha256, arch_file_sha256, tilelab_revision, run_id;
};

// Writes `entries` and their winners (least predicted_us per arch, cus,
// family and shape; a tie keeps the first) into a new file `path`, whole or
// not at all (traces/output_file).  std::runtime_error naming the file, also
// for a predicted time that is not finite and >= 0.
void write_tuning_db(const std::string& path, const std::vector<TuningEntry>& entries);

struct TuningAnswer {
  TuningEntry winner;
  bool exact = false;  // false: the nearest stored shape (least sum of |log2| ratios over the dimensions)
  int skipped_rows = 0;  // rows of the family whose time is not finite and >= 0, or whose shape is not a shape
};

// The winner for `shape` in `family` (on `arch`); nullopt when the family has
// no entry there.  std::runtime_error when the file is not a tuning database
// (winners not a table, a row SQLite cannot read, a lookup past its step
// budget: the database is input and is read bounded, read only, its schema
// untrusted).  A dimension of 0 (a flag) matches only 0.
std::optional<TuningAnswer> lookup_tuning_db(const std::string& path, const std::string& arch, const std::string& family,
                                             const std::map<std::string, std::int64_t>& shape);

}  // namespace tilelab::traces
