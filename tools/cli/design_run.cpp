#include "tools/cli/design_run.hpp"

#include <unistd.h>

namespace tilelab::cli {

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o + "\"";
}

traces::RunInfo design_run_info(const std::string& id, const std::string& kernel, const std::string& arch) {
  traces::RunInfo info;
  info.id = id;
  info.kind = "design";
  info.kernel = kernel;
  info.backend = "design";
  info.device = "design check";
  info.arch = arch;
  info.git_revision = TILELAB_GIT_REVISION;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) info.host = host;
  info.compiler = "none (design check)";
  return info;
}

}  // namespace tilelab::cli
