// app/sweep's run identity: no two points share a run id, however their
// names split on '-', and the id is one the store takes.
#include "app/sweep.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>

#include "traces/store.hpp"

namespace tilelab::app {
namespace {

SweepSpec named(const std::string& sweep, const std::string& candidate) {
  SweepSpec s;
  s.name = sweep;
  s.candidates.push_back(SweepCandidate{});
  s.candidates[0].name = candidate;
  return s;
}

// The literal ids (tests/tools/*.sh name them): the readable part, then the
// first 12 hex digits of SHA-256("<len>:<sweep><len>:<candidate><shape key>").
TEST(SweepRunId, ReadablePartThenTheHashOfTheParts) {
  const SweepSpec a = named("x", "y-z"), b = named("x-y", "z");
  const ProblemShape m1{{"m", 1}};
  EXPECT_EQ(sweep_run_id(a, a.candidates[0], m1), "sweep-x-y-z-m1-33e27a6fc2ef");
  EXPECT_EQ(sweep_run_id(b, b.candidates[0], m1), "sweep-x-y-z-m1-691678e6924e");
  const SweepSpec rows = named("rows", "co");
  EXPECT_EQ(sweep_run_id(rows, rows.candidates[0], {{"n", 1000}}), "sweep-rows-co-n1000-3abd86073e00");
  const SweepSpec slash = named("a/b", std::string(300, 'c'));
  const std::string id = sweep_run_id(slash, slash.candidates[0], m1);
  EXPECT_EQ(id.rfind("sweep-a_b-ccc", 0), 0u);
  EXPECT_NO_THROW(traces::check_run_id(id));
}

// Over generated sweeps (fixed seed) whose names are built from a few
// pieces joined by '-' (so that many read alike): distinct (sweep,
// candidate, problem) never share an id, and every id is usable.
TEST(SweepRunId, DistinctPointsNeverShareAnId) {
  std::mt19937 rng(2026);
  const char* pieces[] = {"a", "b", "a-b", "-", "1", "m1", "x_y"};
  auto name = [&] {
    std::string n;
    for (int k = 0, parts = 1 + static_cast<int>(rng() % 3); k < parts; ++k) n += (k ? "-" : "") + std::string(pieces[rng() % 7]);
    return n;
  };
  std::map<std::string, std::tuple<std::string, std::string, ProblemShape>> seen;
  int alike = 0;
  for (int i = 0; i < 20000; ++i) {
    const SweepSpec s = named(name(), name());
    ProblemShape p;
    if (rng() % 2) p["m"] = static_cast<std::int64_t>(rng() % 3);
    if (rng() % 2) p["n"] = static_cast<std::int64_t>(rng() % 3);
    const std::string id = sweep_run_id(s, s.candidates[0], p);
    ASSERT_NO_THROW(traces::check_run_id(id)) << id;
    const auto key = std::make_tuple(s.name, s.candidates[0].name, p);
    const auto [it, fresh] = seen.emplace(id, key);
    ASSERT_TRUE(fresh || it->second == key) << id;
  }
  std::map<std::string, int> readable;
  for (const auto& [id, key] : seen) ++readable[id.substr(0, id.size() - 13)];
  for (const auto& [r, n] : readable) alike += n > 1;
  EXPECT_GT(alike, 100);  // the generator does make many that read alike
}

}  // namespace
}  // namespace tilelab::app
