// What rocprof-compute (formerly Omniperf) keeps of a profiled application:
// its workload folder, with `pmc_perf.csv` (one row per dispatch, every
// counter of every pass side by side) and `sysinfo.csv` (the GPU it ran on).
// rocprofv2's own per-pass counter files have the same row layout and are
// read by the same reader.
//
// The layout, from AMD's rocprofiler-compute test workloads (a real MI300X
// sample is in tests/data/rocprof/rocprof_compute_mi300x/):
//  - per dispatch: Dispatch_ID, GPU_ID, Grid_Size (work-items in all),
//    Workgroup_Size, LDS_Per_Workgroup, Scratch_Per_Workitem, Arch_VGPR,
//    Accum_VGPR, SGPR, Wave_Size, Kernel_Name, Correlation_ID, and where the
//    pass recorded them PID, TID, Queue_ID, XCC_Index, Start_Timestamp and
//    End_Timestamp (ns);
//  - a merge of several passes repeats those columns with a suffix
//    (Wave_Size_1, Correlation_ID_3, XCC_Index_5): they are not counters;
//  - a counter of one instance per channel appears as NAME[0] .. NAME[n-1]
//    and, from its own pass, summed as NAME_sum.
#pragma once

#include <string>

#include "traces/rocprof/csv.hpp"
#include "traces/rocprof/profile.hpp"

namespace tilelab::traces::rocprof {

// Adds one dispatch per row of a pmc_perf-style table to `p` (process from
// PID when the table has it, agent "GPU <GPU_ID>").  Counters keep their
// names, summed over the hardware instances as rocprofv3 reports them:
// NAME_sum is recorded as NAME; per-channel columns NAME[i] are summed into
// NAME only when the table has no NAME_sum (the two come from different
// passes of the application and need not agree).  Without Start_Timestamp
// and End_Timestamp the dispatch is untimed.  FormatError naming the file,
// line and column for a field that is not a number, a dispatch id twice, or
// a required column missing.
void add_pmc_perf(Profile& p, const CsvTable& t);

// The GPU a workload ran on, from sysinfo.csv's one row: gpu_arch, cu_per_gpu
// and num_xcd.  FormatError naming the file for a missing column or a count
// that is not a positive whole number.
GpuInfo read_sysinfo(const CsvTable& t);

// A rocprof-compute workload folder (one holding a sysinfo.csv): the
// dispatches of its pmc_perf.csv — rocprof-compute's merge of every counter
// pass — and its GPU.  The per-pass files beside it (SQ_LEVEL_WAVES.csv,
// timestamps.csv, ...) are that merge's inputs, from separate runs of the
// application, and are not read.  FormatError when the folder has no
// pmc_perf.csv.
Profile read_compute_workload(const std::string& folder, const std::string& sysinfo_path);

}  // namespace tilelab::traces::rocprof
