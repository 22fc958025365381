#include "app/perfetto_file.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tilelab::app {

PerfettoFormat perfetto_format(const std::string& out) {
  const std::string ext = std::filesystem::path(out).extension().string();
  if (ext == ".json") return PerfettoFormat::json;
  if (ext == ".pftrace" || ext == ".perfetto-trace") return PerfettoFormat::protobuf;
  throw std::invalid_argument("'" + out + "': the trace's name says its format: .json (Chrome trace-event JSON) or "
                              ".pftrace (Perfetto's protobuf trace)");
}

traces::PerfettoStats write_perfetto(const std::string& store, const std::vector<std::string>& runs,
                                     const std::string& out, std::uint64_t max_slices) {
  const PerfettoFormat format = perfetto_format(out);  // before anything is read or written
  const std::string tmp = out + ".tmp";
  try {
    const traces::Reader r(store);
    traces::PerfettoStats st;
    {
      std::ofstream f(tmp, std::ios::binary);
      if (!f) throw std::runtime_error("cannot write '" + out + "'");
      st = format == PerfettoFormat::json ? traces::export_perfetto(r, runs, f, max_slices)
                                          : traces::export_perfetto_proto(r, runs, f, max_slices);
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
