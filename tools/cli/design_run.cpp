#include "tools/cli/design_run.hpp"

#include "app/provenance.hpp"

namespace tilelab::cli {

traces::RunInfo design_run_info(const std::string& id, const std::string& kernel, const std::string& arch) {
  traces::RunInfo info = app::run_info(id, "design", kernel, arch);
  info.backend = "design";
  info.device = "design check";
  info.compiler = "none (design check)";
  return info;
}

}  // namespace tilelab::cli
