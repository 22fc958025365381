// What rocprofv3 measured, read from the files it writes (formats:
// docs/facts/hw-facts.md §2): the kernel trace and the counter
// collection as CSV, or the rocpd SQLite database (schema version 3), into
// one list of dispatches; and those dispatches as runs of the trace store.
//
// Counter values are kept as rocprofv3 reports them: summed over every
// hardware instance (XCCs, SEs, CUs, channels), in the counter's own unit —
// quad-cycles for SQ_WAVE_CYCLES and the other SQ_*_CYCLES marked so in
// AMD's counter_defs.yaml.  The cycle model reports its counters under the
// same names, summed over its CUs, in the same units, so the two sides
// compare name by name.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <memory>

#include "traces/rocprof/csv.hpp"
#include "traces/rocprof/thread_trace.hpp"
#include "traces/store.hpp"

namespace tilelab::traces::rocprof {

struct Dispatch {
  std::uint64_t dispatch_id = 0, correlation_id = 0;
  std::string kernel, agent;
  std::string process;  // the process whose files it came from (pid, or the files' name prefix); "" when unsaid
  std::int64_t start_ns = 0, end_ns = 0;
  std::array<std::uint64_t, 3> grid{0, 0, 0};       // work-items per dimension (total, when only that is known)
  std::array<std::uint64_t, 3> workgroup{0, 0, 0};  // work-items per workgroup
  long long lds_bytes = -1, scratch_bytes = -1, vgprs = -1, agprs = -1, sgprs = -1;  // -1: not reported
  std::map<std::string, double> counters;
  std::string source;  // the file it came from
  bool timed = true;   // false: known only from a thread trace (no start and end in ns)
  std::shared_ptr<const ThreadTrace> trace;  // its decoded thread trace, when one was recorded
};

// The GPU the dispatches ran on, where the files say it (rocprof-compute's
// sysinfo.csv; rocprofv3's files do not).
struct GpuInfo {
  std::string arch;     // gfx942, gfx950, ...; "" when unsaid
  int cus = 0, xccs = 0;  // 0 when unsaid
  std::string source;   // the file that said it
};

struct Profile {
  std::vector<Dispatch> dispatches;  // in file order
  std::vector<std::string> files;    // what was read
  GpuInfo gpu;
  // Recorded as each run's backend: rocprofv3, rocprof-compute (a workload
  // folder), rocprofv2 (a lone per-dispatch counter table, the layout its
  // passes are written in).
  std::string profiler = "rocprofv3";
};

// kernel_trace.csv (22 columns).
// What a profiler file holds, from its content, whatever its name: a rocpd
// database (SQLite's header), a kernel trace (a CSV header with Kind,
// Kernel_Name and Grid_Size_X) or a counter collection (Counter_Name and
// Counter_Value), rocprof-compute's or rocprofv2's per-dispatch counters
// (Dispatch_ID, Kernel_Name, Grid_Size and Workgroup_Size: pmc_perf.csv and
// its per-pass files), rocprof-compute's sysinfo.csv (gpu_arch, cu_per_gpu,
// num_xcd); `other` for anything else (memory-copy traces, thread-trace
// statistics, binaries).  Reads at most the first 64 KiB.
enum class FileKind { kernel_trace, counter_collection, rocpd, pmc_perf, sysinfo, other };
FileKind file_kind(const std::string& path);

// A dispatch's times, read from row `row` of `t`: FormatError naming the file
// and line when the start is negative or the end comes before it (timestamps
// are nanoseconds of a monotonic clock, so end - start cannot overflow).
void check_times(const Dispatch& d, const CsvTable& t, std::size_t row);

Profile read_kernel_trace(const std::string& path);
// counter_collection.csv (19 columns, one row per dispatch and counter):
// the counters join the dispatch of the same Dispatch_Id; a dispatch the
// kernel trace lacks is made from the row itself.
void add_counter_collection(Profile& p, const std::string& path);
// A rocpd database: rocpd_kernel_dispatch with rocpd_info_kernel_symbol, and
// rocpd_pmc_event with rocpd_info_pmc summed per dispatch and counter.  Refuses
// another schema version than 3 (rocpd_metadata's schema_version), naming it.
Profile read_rocpd(const std::string& path);
// A rocprof-compute workload folder (one with a sysinfo.csv: its
// pmc_perf.csv, compute_workload.hpp), or a rocprofv3 output folder (every *kernel_trace.csv and
// *counter_collection.csv under it, or else every *.db; and every decoded
// thread trace, ui_output_agent_<A>_dispatch_<D>/, joined to dispatch D) or
// one such file or thread-trace folder, or one pmc_perf-style file.
// FormatError when there is nothing a profiler wrote.
Profile read_profile(const std::string& path);

struct ImportOptions {
  std::string id_prefix = "rocprof";  // run ids: <prefix>-<dispatch id>, <prefix>-<process>-<dispatch id> across processes
  std::string kernel;                 // only dispatches of this kernel (exact name), when set
  std::string arch;                   // gfx950, ... (rocprofv3's kernel trace does not say; default: the profile's GpuInfo)
  std::string shape;                  // problem_shape to record (default: grid and block)
  int cus = 0, xccs = 0;              // the GPU's CUs and XCCs, recorded as counters CU_NUM, XCC_NUM (0: the profile's GpuInfo, else not)
  WriterOptions writer;               // how to wait for another writer of the store
};

// Adds one run per dispatch to the store (kind hw, backend rocprofv3: the
// dispatch's duration in ns as its one repetition and its median; with a
// thread trace, its waves and their instructions as the `waves` and `events`
// tables in shader-clock cycles, time_unit cycles).
// Returns the run ids.  All or nothing: every run is published together, and
// a failure (a taken id, a full disk) leaves the store as it was.  When the
// dispatches come from more than one process (two ranks' files in one
// folder), each run id names its process: <prefix>-<process>-<dispatch id>.
std::vector<std::string> import_profile(const Profile& p, const std::string& store, const ImportOptions& o);

// The imported runs `ids` of a store written back as rocprofv3 writes them —
// kernel_trace.csv and counter_collection.csv in `folder`, and for each run
// with a thread trace its ui_output_agent_<A>_dispatch_<D>/ folder — so that
// importing `folder` gives the same runs again.
// What the store does not keep is written as 0: queue, stream, thread and
// kernel ids, and the timestamps (each dispatch starts at 0 and lasts its
// duration).  FormatError for a run not imported from rocprofv3.
std::vector<std::string> export_runs(const Reader& r, const std::vector<std::string>& ids, const std::string& folder);

}  // namespace tilelab::traces::rocprof
