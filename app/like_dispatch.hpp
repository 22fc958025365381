// "Simulate this profiled dispatch" (`tilelab sim --like RUN`): from a
// hardware run in the trace store (imported from a profiler, or `tilelab run`)
// to the suite kernel and shape that reproduce it, for every front end.
//
// What a profile says and what it does not: the kernel's name, its grid and
// workgroup size, its registers and LDS; never its arguments (rocprofv3,
// rocprof-compute and rocprofv2 record none).  So the shape is found, in this
// order, from: the shape the caller gives; the run's own problem_shape when it
// is in the kernel's words (M=4096,N=4096,K=4096: `tilelab run`, or `import
// --shape`); the one example shape of the spec whose grid is the dispatch's.
// Whichever it is, it must launch the dispatch's grid (workgroups and their
// threads), else the run is refused with one line saying what differs.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/launch_file.hpp"
#include "kernels/spec.hpp"
#include "sim/isa/code_object.hpp"
#include "traces/store.hpp"

namespace tilelab::app {

struct LikeDispatch {
  const kernels::KernelSpec* spec = nullptr;
  std::vector<long long> shape;
  std::string arch;           // the run's arch ("" when it does not say)
  long long workgroups = -1;  // the dispatch's grid in workgroups (-1: the run does not record it)
  std::string shape_from;     // "given", "the run's problem shape", "the example whose grid it is"
};

// The suite kernel a profiler's kernel name means: "void gemm_bf16<...>(float*)",
// "gemm_bf16.kd", "gemm_bf16(...) (.kd)" -> "gemm_bf16".
std::string suite_kernel_name(const std::string& profiled_name);

// Resolves `run` (kind hw) as above; `shape` is the caller's, in the spec's
// dimension order.  std::invalid_argument, one line, for a run that is not a
// dispatch, a kernel no suite kernel is, a grid the shape does not launch, or
// a shape that cannot be found (naming what is missing).
LikeDispatch resolve_like(const traces::RunView& run, const std::optional<std::vector<long long>>& shape);

// A dispatch of a code object tilelab did not build, from its launch
// template (`sim --like RUN FILE.co --launch L.toml`).  The kernel is the
// launch file's, and must be the one the profile names (demangled, as
// profilers show it).  The shape's problem dimensions (the names its buffers'
// sizes read) come from `given`, else the run's problem shape in the
// template's words, else the dispatch's grid: an axis whose expression reads
// one dimension not yet known is solved for it (several values may launch the
// same grid, "ceil(N/256)": the largest, whole tiles, is taken and said so).
// Names that are no problem dimension keep the template's values (said).
// std::invalid_argument, one line, for a run that is not a dispatch, another
// kernel, another workgroup size, a grid no shape launches, or a dimension
// neither given nor in the grid.
struct LikeLaunch {
  kernels::LaunchFile launch;                   // read at the resolved shape
  std::map<std::string, std::int64_t> given;    // the names given or solved (the rest: the template's)
  std::string arch;                             // the run's arch ("" when it does not say)
  long long workgroups = -1;                    // the dispatch's grid in workgroups (-1: not recorded)
  std::string shape_from;                       // how each name was found, one phrase each
};
LikeLaunch resolve_like_launch(const traces::RunView& run, const isa::CodeObject& co, const std::string& launch_file,
                               const std::map<std::string, std::int64_t>& given, std::uint64_t max_memory = 0);

// The checks `sim --like RUN` makes, for a front end that is given the
// kernel and the shape as well (Python's sim(kernel, like=RUN)): the store
// is given and holds RUN, and RUN resolves (as above) to this suite kernel
// at this shape, or to this launch file's kernel and grid.  Else
// std::invalid_argument, one line, saying what differs: a run linked to a
// profile it does not simulate would make compare() line up two kernels.
void check_like_suite(const std::string& store, const std::string& like, const kernels::KernelSpec& spec,
                      const std::vector<long long>& shape);
void check_like_launch(const std::string& store, const std::string& like, const isa::CodeObject& co,
                       const std::string& launch_file, const kernels::LaunchFile& launch);

// How a run simulated --like RUN is stored, for every front end: run id
// RUN-timing unless one is given, and {"like": RUN} merged into its config
// (what lets traces::compare line the two up without --force).
std::string like_run_id(const std::string& run);
// A simulated run's id when none is given: like_run_id(like) when it
// simulates profiled run `like` (non-empty), else default_run_id(kind, kernel, arch).
std::string sim_run_id(const std::string& like, std::string_view kind, const std::string& kernel, const std::string& arch);
std::string like_config_json(const std::string& run);

}  // namespace tilelab::app
