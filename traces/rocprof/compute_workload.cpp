#include "traces/rocprof/compute_workload.hpp"

#include <cctype>
#include <filesystem>
#include <map>
#include <set>


namespace tilelab::traces::rocprof {

namespace {

// The per-dispatch description columns of a pmc_perf row: never counters.
const std::set<std::string>& description_columns() {
  static const std::set<std::string> names = {
      "Dispatch_ID",   "GPU_ID",          "Queue_ID",   "PID",      "TID",         "Grid_Size",
      "Workgroup_Size", "LDS_Per_Workgroup", "Scratch_Per_Workitem", "Arch_VGPR", "Accum_VGPR", "SGPR",
      "Wave_Size",     "Kernel_Name",     "Correlation_ID", "XCC_Index", "Node", "Start_Timestamp",
      "End_Timestamp"};
  return names;
}

// "Wave_Size_3" -> true: a description column repeated by the merge of passes.
bool is_description(const std::string& column) {
  if (description_columns().count(column)) return true;
  const std::size_t cut = column.find_last_of('_');
  if (cut == std::string::npos || cut + 1 == column.size()) return false;
  for (std::size_t i = cut + 1; i < column.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(column[i]))) return false;
  return description_columns().count(column.substr(0, cut)) > 0;
}

// "TCC_HIT[17]" -> "TCC_HIT"; "" for any other name.
std::string channel_base(const std::string& column) {
  if (column.empty() || column.back() != ']') return "";
  const std::size_t open = column.rfind('[');
  if (open == std::string::npos || open == 0 || open + 2 > column.size() - 1) return "";  // NAME[] has no index
  for (std::size_t i = open + 1; i + 1 < column.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(column[i]))) return "";
  return column.substr(0, open);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Where each recorded counter comes from: its column(s) in the table.
std::map<std::string, std::vector<std::size_t>> counter_columns(const CsvTable& t) {
  std::set<std::string> summed;  // NAME of every NAME_sum
  for (const std::string& c : t.header)
    if (ends_with(c, "_sum") && c.size() > 4) summed.insert(c.substr(0, c.size() - 4));
  std::map<std::string, std::vector<std::size_t>> from;
  for (std::size_t c = 0; c < t.header.size(); ++c) {
    const std::string& name = t.header[c];
    if (name.empty() || is_description(name)) continue;
    const std::string base = channel_base(name);
    if (!base.empty()) {
      if (!summed.count(base)) from[base].push_back(c);  // no whole-GPU column: the channels summed here
    } else if (ends_with(name, "_sum") && summed.count(name.substr(0, name.size() - 4))) {
      from[name.substr(0, name.size() - 4)].push_back(c);
    } else {
      from[name].push_back(c);
    }
  }
  return from;
}

}  // namespace

void add_pmc_perf(Profile& p, const CsvTable& t) {
  const std::size_t id = t.column("Dispatch_ID"), gpu = t.column("GPU_ID"), grid = t.column("Grid_Size"),
                    wg = t.column("Workgroup_Size"), kernel = t.column("Kernel_Name");
  const std::size_t lds = t.find_column("LDS_Per_Workgroup"), scratch = t.find_column("Scratch_Per_Workitem"),
                    vgpr = t.find_column("Arch_VGPR"), agpr = t.find_column("Accum_VGPR"),
                    sgpr = t.find_column("SGPR"), pid = t.find_column("PID"),
                    corr = t.find_column("Correlation_ID"), start = t.find_column("Start_Timestamp"),
                    end = t.find_column("End_Timestamp");
  const auto counters = counter_columns(t);
  std::set<std::pair<std::string, std::uint64_t>> seen;
  for (const Dispatch& d : p.dispatches) seen.insert({d.process, d.dispatch_id});
  p.files.push_back(t.path);
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    Dispatch d;
    d.dispatch_id = unsigned_at(t, r, id);
    d.process = pid == std::string::npos ? "" : std::to_string(unsigned_at(t, r, pid));
    if (!seen.insert({d.process, d.dispatch_id}).second)
      throw FormatError(t.path + ":" + std::to_string(t.lines[r]) + ": dispatch " + std::to_string(d.dispatch_id) +
                        " twice");
    d.kernel = t.rows[r][kernel];
    d.agent = "GPU " + t.rows[r][gpu];
    d.grid = {unsigned_at(t, r, grid), 1, 1};
    d.workgroup = {unsigned_at(t, r, wg), 1, 1};
    auto maybe = [&](std::size_t c) { return c == std::string::npos ? -1LL : integer_at(t, r, c); };
    d.lds_bytes = maybe(lds);
    d.scratch_bytes = maybe(scratch);
    d.vgprs = maybe(vgpr);
    d.agprs = maybe(agpr);
    d.sgprs = maybe(sgpr);
    if (corr != std::string::npos) d.correlation_id = unsigned_at(t, r, corr);
    d.timed = start != std::string::npos && end != std::string::npos;
    if (d.timed) {
      d.start_ns = integer_at(t, r, start);
      d.end_ns = integer_at(t, r, end);
      check_times(d, t, r);
    }
    for (const auto& [name, columns] : counters) {
      double sum = 0;
      for (std::size_t c : columns) sum += number_at(t, r, c);
      d.counters[name] = sum;
    }
    d.source = t.path;
    p.dispatches.push_back(std::move(d));
  }
}

GpuInfo read_sysinfo(const CsvTable& t) {
  if (t.rows.size() != 1)
    throw FormatError(t.path + ": " + std::to_string(t.rows.size()) + " rows; sysinfo.csv describes one GPU in one row");
  auto positive = [&](const char* name) {
    const long long v = integer_at(t, 0, t.column(name));
    if (v <= 0 || v > 1'000'000)
      throw FormatError(t.path + ":" + std::to_string(t.lines[0]) + ": column " + name + ": " + std::to_string(v) +
                        " is not a count of units");
    return static_cast<int>(v);
  };
  GpuInfo g;
  g.arch = t.rows[0][t.column("gpu_arch")];
  g.cus = positive("cu_per_gpu");
  g.xccs = positive("num_xcd");
  g.source = t.path;
  return g;
}

Profile read_compute_workload(const std::string& folder, const std::string& sysinfo_path) {
  Profile p;
  p.profiler = "rocprof-compute";
  p.gpu = read_sysinfo(read_csv(sysinfo_path));
  const std::string merged = (std::filesystem::path(folder) / "pmc_perf.csv").string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(merged, ec))
    throw FormatError(folder + ": a rocprof-compute workload (it has " + sysinfo_path +
                      ") without pmc_perf.csv, the merge of its counter passes; import one pass's file by its path");
  if (file_kind(merged) != FileKind::pmc_perf)
    throw FormatError(merged + ": not a per-dispatch counter table (line 1 lacks Dispatch_ID, Kernel_Name, Grid_Size "
                               "or Workgroup_Size)");
  add_pmc_perf(p, read_csv(merged));
  p.files.insert(p.files.begin(), sysinfo_path);
  return p;
}

}  // namespace tilelab::traces::rocprof
