#include "app/perfetto_file.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tilelab::app {

traces::PerfettoStats write_perfetto(const std::string& store, const std::vector<std::string>& runs,
                                     const std::string& out, std::uint64_t max_slices) {
  const std::string tmp = out + ".tmp";
  try {
    const traces::Reader r(store);
    traces::PerfettoStats st;
    {
      std::ofstream f(tmp);
      if (!f) throw std::runtime_error("cannot write '" + out + "'");
      st = traces::export_perfetto(r, runs, f, max_slices);
      if (!f.flush()) throw std::runtime_error("cannot write '" + out + "'");
    }
    std::filesystem::rename(tmp, out);
    return st;
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
}

}  // namespace tilelab::app
