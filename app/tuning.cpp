#include "app/tuning.hpp"

#include "traces/store.hpp"

namespace tilelab::app {

std::vector<traces::TuningEntry> sweep_points(const std::string& store) {
  const traces::Reader r(store);
  std::vector<traces::TuningEntry> out;
  for (const std::string& id : r.run_ids()) {
    const traces::RunView v = r.run(id);
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
    out.push_back(e);
  }
  return out;
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
