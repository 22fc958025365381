#include "app/perfetto_file.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "traces/output_file.hpp"

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
  traces::check_output_path(out);  // before the store is read
  const traces::Reader r(store);
  traces::OutputFile f(out);
  const traces::PerfettoStats st = format == PerfettoFormat::json
                                       ? traces::export_perfetto(r, runs, f.stream(), max_slices)
                                       : traces::export_perfetto_proto(r, runs, f.stream(), max_slices);
  f.commit();
  return st;
}

}  // namespace tilelab::app
