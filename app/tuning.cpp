#include "app/tuning.hpp"

#include <cmath>
#include <map>
#include <tuple>

#include "traces/store.hpp"
#include "traces/text_table.hpp"

namespace tilelab::app {

SweepPoints sweep_points(const std::string& store) {
  const traces::Reader r(store);
  SweepPoints got;
  std::vector<traces::TuningEntry>& out = got.entries;
  std::map<std::tuple<std::string, int, std::string, std::string, std::string>, std::size_t> where;
  for (const std::string& id : r.run_ids()) {
    traces::RunView v;
    try {
      v = r.run(id);
    } catch (const traces::StoreError& e) {
      got.skipped.push_back(traces::printable(id, 120) + ": " + e.what());
      continue;
    }
    if (!v.summary || v.info.config_json.empty()) continue;
    const Json config = Json::parse(v.info.config_json, nullptr, false);
    if (config.is_discarded() || !config.contains("sweep")) continue;
    const Json& s = config["sweep"];
    traces::TuningEntry e;
    e.arch = v.info.arch;
    e.cus = config.value("cus", 0);
    e.family = s.value("name", "");
    e.shape = s.value("problem", "");
    e.candidate = s.value("candidate", "");
    e.params = s.contains("params") ? s["params"].dump() : "{}";
    e.predicted_us = v.summary->median_ns / 1000;
    e.code_object_sha256 = v.info.code_object_sha256;
    e.arch_file_sha256 = v.info.arch_file_sha256;
    e.tilelab_revision = v.info.git_revision;
    e.run_id = id;
    if (!std::isfinite(e.predicted_us) || e.predicted_us < 0) {
      got.skipped.push_back(traces::printable(id, 120) + ": its predicted time is not a time");
      continue;
    }
    const auto key = std::make_tuple(e.arch, e.cus, e.family, e.shape, e.candidate);
    if (const auto it = where.find(key); it != where.end()) {
      out[it->second] = e;
      continue;
    }
    where.emplace(key, out.size());
    out.push_back(e);
  }
  return got;
}

Json tuning_answer_json(const traces::TuningAnswer& a) {
  const traces::TuningEntry& w = a.winner;
  const Json params = Json::parse(w.params, nullptr, false);
  return {{"family", w.family},
          {"shape", w.shape},
          {"exact", a.exact},
          {"candidate", w.candidate},
          {"params", params.is_discarded() ? Json(w.params) : params},
          {"predicted_us", w.predicted_us},
          {"arch", w.arch},
          {"cus", w.cus}};
}

}  // namespace tilelab::app
