#include "tools/cli/design_run.hpp"

#include <iostream>

#include "app/provenance.hpp"

namespace tilelab::cli {

traces::RunInfo design_run_info(const std::string& id, const std::string& kernel, const std::string& arch) {
  traces::RunInfo info = app::run_info(id, "design", kernel, arch);
  info.backend = "design";
  info.device = "design check";
  info.compiler = "none (design check)";
  return info;
}

namespace {
double store_wait_seconds = 60;
}

void set_store_wait(double seconds) { store_wait_seconds = seconds; }

traces::WriterOptions store_writer_options() {
  traces::WriterOptions o;
  o.wait_seconds = store_wait_seconds;
  o.on_wait = [](const std::string& what) { std::cerr << "note: " << what << " (up to --wait seconds)\n"; };
  return o;
}

}  // namespace tilelab::cli
