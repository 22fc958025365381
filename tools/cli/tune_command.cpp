// `tilelab tune export SWEEP.h5 --out tuning.db`: a sweep's stored points as
// an offline tuning database (traces/tuning_db.hpp); `tilelab tune lookup
// tuning.db --family F --shape M=..,N=..`: the winner for one problem.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "app/json.hpp"
#include "app/tuning.hpp"
#include "app/target.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/command.hpp"
#include "app/error_text.hpp"
#include "traces/text_table.hpp"
#include "traces/tuning_db.hpp"

namespace tilelab::cli {

int run_tune(const std::vector<std::string>& args) {
  const char* help =
      "usage: tilelab tune export SWEEP.h5 --out tuning.db\n"
      "       tilelab tune lookup tuning.db --family NAME --shape M=..,N=..,K=.. [--arch gfx950] [--json]\n\n"
      "export: the points a `tilelab sweep --out SWEEP.h5` stored, as a SQLite tuning\n"
      "database keyed (arch, CU count, family = the sweep's name, shape) -> the\n"
      "winner's candidate and parameters (table winners), and every candidate's\n"
      "predicted time with the fingerprints of a stale entry: code object and arch\n"
      "file SHA-256, tilelab's revision, the run id (table candidates).  Written\n"
      "whole or not at all.\n"
      "lookup: the winner for one shape: the stored shape itself, or the nearest\n"
      "one (least sum over the dimensions of |log2| of their ratio), said as such;\n"
      "--json: as one JSON object (what Python's tilelab.tune_lookup returns).\n";
  bool want_help = false, json = false;
  std::optional<std::string> action, file, out, family, shape;
  std::string arch = "gfx950";
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(want_help), "this text")(
      "out", optional_value(out, "tuning.db"), "export: the database to write")(
      "family", optional_value(family, "NAME"), "lookup: the sweep's name")(
      "shape", optional_value(shape, "M=..,N=..,K=.."), "lookup: the problem")(
      "arch", po::value(&arch)->value_name("GFX")->default_value("gfx950"), "lookup: the GPU")(
      "json", flag(json), "lookup: one JSON object");
  po::options_description all(opts);
  all.add_options()("action", optional_value(action), "")("file", optional_value(file), "");
  po::positional_options_description pos;
  pos.add("action", 1).add("file", 1);
  po::variables_map vm;
  int status = 0;
  if (!parse_options("tune", args, all, vm, status, &pos)) return status;
  if (want_help) {
    print_help(std::cout, help, opts);
    return kOk;
  }
  if ((action != "export" && action != "lookup") || !file)
    return usage_error("tune", "say tune export SWEEP.h5 --out tuning.db, or tune lookup tuning.db --family F --shape ...");
  try {
    if (action == "export") {
      if (!out) return usage_error("tune", "export needs --out tuning.db");
      const app::SweepPoints got = app::sweep_points(*file);
      for (const std::string& s : got.skipped) std::cerr << "note: skipped run " << s << "\n";
      const std::vector<traces::TuningEntry>& points = got.entries;
      if (points.empty()) {
        std::cerr << "error: " << *file << " holds no sweep points (tilelab sweep --out)\n";
        return kFailed;
      }
      traces::write_tuning_db(*out, points);
      std::printf("wrote %s: %zu candidate points\n", out->c_str(), points.size());
      return kOk;
    }
    if (!family || !shape) return usage_error("tune", "lookup needs --family NAME and --shape M=..,N=..");
    const auto answer = traces::lookup_tuning_db(*file, arch,
                                                 *family, app::parse_named_shape(*shape));
    if (!answer) {
      std::cerr << "error: no entry for family '" << traces::printable(*family) << "' on " << arch
                << " in " << *file << "\n";
      return kFailed;
    }
    if (json) {
      std::cout << app::tuning_answer_json(*answer).dump(2) << "\n";
      return kOk;
    }
    const traces::TuningEntry& w = answer->winner;
    std::printf("%s at %s: %s %s, %.1f us predicted (%s)\n", traces::printable(w.family).c_str(),
                traces::printable(w.shape).c_str(), traces::printable(w.candidate).c_str(),
                traces::printable(w.params).c_str(), w.predicted_us,
                answer->exact ? "this shape" : "the nearest shape stored");
    if (answer->skipped_rows)
      std::printf("note: %d row(s) of the family skipped: a time that is not a time or a shape that is not a shape\n",
                  answer->skipped_rows);
    return kOk;
  } catch (const std::invalid_argument& e) {
    return usage_error("tune", error_text(e));
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace tilelab::cli
