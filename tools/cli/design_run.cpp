#include "tools/cli/design_run.hpp"

#include <iostream>

#include <unistd.h>

#include <sstream>
#include <stdexcept>

namespace tilelab::cli {

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

std::string shape_text(const kernels::KernelSpec& spec, const std::vector<long long>& shape) {
  std::string s;
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + spec.shape_dims[i] + "=" + std::to_string(shape[i]);
  return s;
}

std::vector<long long> parse_shape(const std::string& text) {
  std::vector<long long> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::size_t used = 0;
    long long x = 0;
    try {
      x = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size()) throw std::invalid_argument("--shape: '" + item + "' is not an integer");
    v.push_back(x);
  }
  return v;
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
