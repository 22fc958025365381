// Launching a code object tilelab did not build, without host code: a
// launch file (TOML) says the kernel, the grid, the block, the dynamic LDS
// and each argument — by the metadata's name, or by its byte offset when
// names repeat (padding slots) — as a scalar or a buffer with its size and
// contents, and which buffers to save after the run.
//
//   kernel = "scale_rows"          # optional when the file has one kernel
//   grid = [16, 1, 1]              # workgroups
//   block = [64, 1, 1]             # work-items (default: the metadata's maximum)
//   dynamic_lds = 0                # bytes beyond the kernel's fixed LDS
//   seed = 1                       # for random contents
//   [args.in]
//   buffer = { bytes = 4000, fill = "random", dtype = "u32" }
//   [args.out]
//   buffer = { bytes = 4000, fill = "zeros" }
//   save = true
//   [args.n]
//   value = 1000
//   [args."@40"]                   # the argument at byte offset 40
//   value = 0
//
// A launch template: any whole number above (grid, block, dynamic_lds,
// bytes, an integer value) may be a string holding an expression of the
// problem's shape (kernels/launch_expression.hpp), whose names come from the
// file's [shape] table and the caller's shape (`--shape M=4096,N=...`), the
// caller's winning:
//   [shape]
//   M = 256
//   N = 256
//   grid = ["ceil(N/256)", "ceil(M/256)", 1]
//   [args.A]
//   buffer = { bytes = "M*K/2", fill = "random", dtype = "u8" }
//
// fill: "zeros", "constant" (with value, a byte), "random" (dtype u8, u16,
// u32, i32, f32 in [-1, 1), bf16 in [-1, 1)), or "file" (with path; the
// file's bytes, as many as fit).  A scalar's type follows the argument's size
// (4: 32-bit, 8: 64-bit); a float value is written as f32 or f64.
// Every argument must be given but padding slots (named "pad"), which are zero.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernels/host.hpp"
#include "sim/isa/code_object.hpp"

namespace tilelab::kernels {

struct LaunchArg {
  std::string key;        // as written: a name or "@offset"
  std::uint32_t offset = 0, size = 0;
  bool is_buffer = false;
  // scalar
  double float_value = 0;
  std::int64_t int_value = 0;
  bool is_float = false;
  // buffer
  std::uint64_t bytes = 0;
  std::string fill = "zeros", dtype, file;
  std::uint8_t constant = 0;
  bool save = false;
};

struct LaunchFile {
  std::string path, kernel;
  std::array<std::uint32_t, 3> grid{1, 1, 1}, block{0, 1, 1};
  std::uint32_t dynamic_lds = 0;
  std::uint64_t seed = 1;
  std::vector<LaunchArg> args;  // in the kernel's argument order
  std::map<std::string, std::int64_t> shape;  // the template's values, as used ([shape], then the caller's)
  // A template's grid as written (each axis's expression, "" for a number),
  // and the shape names its buffers' sizes read: the problem's dimensions,
  // as against names that only shape the grid or set a scalar (a variant's
  // tile, a remap's group).  What `sim --like` solves from a profiled grid.
  std::array<std::string, 3> grid_expressions;
  std::set<std::string> problem_names;
};

// Reads FILE against the code object's kernels (names and offsets checked
// against the metadata).  Throws std::invalid_argument naming the file, the
// line where known, and what is wrong.
// `max_memory`: the most bytes its buffers may take together (0: half of the
// machine's memory), checked before anything is allocated.
// `shape`: values of the template's names, over the file's [shape] defaults.
LaunchFile read_launch_file(const std::string& file, const isa::CodeObject& co, std::uint64_t max_memory = 0,
                            const std::map<std::string, std::int64_t>& shape = {});

// Half of the machine's physical memory: the default budget of a run's buffers.
std::uint64_t default_memory_budget();

// The launch file as a kernel host (kernels/host.hpp) for kernel `k` of the
// code object: its buffers allocated and filled on `d`, its arguments in the
// metadata's order; the check reads back the buffers marked `save` (there is
// no reference to compare with).
HostLaunch launch_file_host(hw::Device& d, const LaunchFile& l, const isa::Kernel& k);

}  // namespace tilelab::kernels
