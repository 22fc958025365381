// The offline tuning database from a sweep's stored points (tilelab tune,
// tilelab.tune_export / tilelab.tune_lookup in Python): the store's sweep
// runs as TuningEntry rows (traces/tuning_db), and one lookup's answer as
// the JSON both front ends give.
#pragma once
#include <string>
#include <vector>

#include "app/json.hpp"
#include "traces/tuning_db.hpp"

namespace tilelab::app {

// Every stored point of a sweep in `store` (runs whose config has a "sweep"
// part), in the store's run order; a point stored twice (by an earlier
// tilelab, whose run ids differ) counts once, the later one.  A run that
// cannot be read is skipped and named in `skipped` ("ID: why"); the others
// are read all the same.
struct SweepPoints {
  std::vector<traces::TuningEntry> entries;
  std::vector<std::string> skipped;
};
SweepPoints sweep_points(const std::string& store);

// {"family", "shape", "exact", "candidate", "params" (an object), "predicted_us", "arch", "cus"}:
// what the winners table holds (the fingerprints are in its candidates table).
Json tuning_answer_json(const traces::TuningAnswer& a);

}  // namespace tilelab::app
