#include "app/provenance.hpp"

#include <unistd.h>

#include "sim/isa/code_object.hpp"

namespace tilelab::app {

const char* version() { return TILELAB_VERSION; }
const char* git_revision() { return TILELAB_GIT_REVISION; }
std::string version_line() { return std::string("tilelab ") + version() + " (git " + git_revision() + ")"; }

traces::RunInfo run_info(const std::string& id, const std::string& kind, const std::string& kernel, const std::string& arch) {
  traces::RunInfo info;
  info.id = id;
  info.kind = kind;
  info.kernel = kernel;
  info.arch = arch;
  info.git_revision = git_revision();
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) info.host = host;
  return info;
}

void set_arch_file(traces::RunInfo& info, const arch::Arch& a) {
  info.arch = a.name;
  info.arch_file_sha256 = isa::sha256_hex(std::string_view(a.text));
}

void set_code_object(traces::RunInfo& info, std::span<const std::uint8_t> bytes) { info.code_object_sha256 = isa::sha256_hex(bytes); }

}  // namespace tilelab::app
