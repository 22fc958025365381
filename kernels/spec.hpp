// A kernel's layout spec: the design a FlyDSL author writes down before the
// kernel — the block tile and how it splits over waves, threads and values,
// every LDS buffer with its layout and swizzle, every designed LDS access as a
// thread–value layout over that buffer, the copy and MFMA atoms, the pipeline
// depth, and the problem shapes the kernel supports.  The design check
// (design_check.hpp) turns a spec into numbers; the kernel's .hip source
// implements the same design, and the code object's metadata is compared with
// it (LDS bytes, workgroup size).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layouts/swizzle.hpp"
#include "layouts/tv_layout.hpp"

namespace tilelab::kernels {

// One LDS buffer: a row-major rows × cols tile of elem_bytes elements,
// optionally composed with a swizzle, `stages` copies (pipeline buffers).
struct LdsBuffer {
  std::string name;
  Int rows = 0, cols = 0;
  int elem_bytes = 0;
  int stages = 1;
  std::optional<Swizzle> swizzle;

  long long bytes() const { return static_cast<long long>(rows) * cols * elem_bytes * stages; }
  // CuTe notation, in elements: "Sw<2,4,3> o (128,64):(64,1)".
  std::string layout() const;
  // Element offset of (row, col) within one stage.
  Int offset(Int row, Int col) const;
};

// One designed LDS access, issued `per_step` times per wave and pipeline step
// (how it scales does not change whether it conflicts).  Either a tile access
// (a thread–value atom repeated over the buffer's tile, as sim/lds plans it),
// or, for small reductions that are not tiles, explicit per-lane byte
// addresses of one instruction.
struct LdsAccess {
  std::string what;         // "A: global -> LDS copy"
  int buffer = 0;           // index into KernelSpec::lds
  std::string instruction;  // ds_write_b128, ds_read_b128, ...
  std::optional<TVLayout> tv;
  std::vector<std::uint32_t> lane_addresses;  // when !tv: one per lane
  std::uint64_t active = ~0ull;               // when !tv
};

// A piece of global memory a workgroup reads whole: workgroups that read the
// same `key` read the same bytes (a GEMM's A panel of one tile row, one
// head's K and V), so an L2 or the Infinity Cache can serve it to all of them
// after the first.  Keys name the operand in their top byte (tile_key).
struct GlobalTile {
  std::uint64_t key = 0;
  long long bytes = 0;
};
constexpr std::uint64_t tile_key(int operand, long long index) {
  return (static_cast<std::uint64_t>(operand) << 56) | static_cast<std::uint64_t>(index);
}

// One workgroup's work for a problem shape, for the per-tile bound.
struct TileWork {
  long long workgroups = 0;
  std::string mfma;                // the MFMA instruction ("" when none)
  long long mfma_per_workgroup = 0;  // wave-level MFMA instructions, all waves together
  bool mfma_fp6_fp4 = false;       // f8f6f4 MFMA with neither operand FP8 (its shorter cycle count)
  long long lds_repeats = 0;       // times the designed LDS accesses repeat (pipeline steps)
  long long global_bytes = 0;      // bytes the workgroup reads and writes in global memory
  long long problem_bytes = 0;     // bytes of the whole problem, each read or written once
  // Which global tiles each workgroup reads, for the levels below the L1
  // (chip_bound.hpp); empty when the spec does not say.
  std::function<std::vector<GlobalTile>(long long workgroup)> tiles_read;
  long long bytes_written = 0;     // global bytes each workgroup writes
};

// A GEMM's tiles: workgroup w computes C tile (w / cols, w % cols) (the grid's
// row-major order) and reads A panel `row` (`a_bytes`) and B panel
// `b_panel(row, col)` (`b_bytes`) whole.
std::function<std::vector<GlobalTile>(long long)> gemm_tiles_read(
    long long cols, long long a_bytes, long long b_bytes,
    std::function<long long(long long row, long long col)> b_panel = nullptr);

struct ShapeRule {
  std::string text;  // "K % 64 == 0"
  std::function<bool(const std::vector<long long>&)> holds;
};

// The largest dimension a shape may have (grid dimensions are 32-bit).
inline constexpr long long kMaxDimension = 2147483647;

struct KernelSpec {
  std::string name;      // the kernel symbol in the code object
  std::string source;    // under kernels/: "gemm_bf16/gemm_bf16.hip"
  std::string summary;
  std::vector<std::string> archs;  // where it compiles

  // Decomposition, in words a GPU engineer reads; the numbers the check uses
  // are the fields below.
  std::string block_tile;        // "128x128x64 (M x N x K) per workgroup"
  std::string wave_layout;       // "4 waves as 2x2, 64x64 of C each"
  std::string thread_values;     // "lane l: rows l%16, k 8*(l/16)..+8"
  std::string copy_atom;         // "128-bit global load -> ds_write_b128"
  std::string mfma_atom;         // "v_mfma_f32_16x16x32_bf16" or "none"
  int threads_per_block = 0;
  int pipeline_depth = 1;        // LDS stages in flight

  std::vector<LdsBuffer> lds;
  std::vector<LdsAccess> accesses;

  std::vector<std::string> shape_dims;       // {"M", "N", "K"}
  std::vector<std::string> switch_dims;      // dimensions that are 0/1 switches ({"causal"}), exempt from "positive"
  std::vector<ShapeRule> shape_rules;
  std::vector<std::vector<long long>> example_shapes;  // the first is the default for `tilelab check`
  // The work of one workgroup for a supported shape on an arch; empty for the
  // microbenchmarks (their work is chosen at launch).
  std::function<TileWork(const std::vector<long long>& shape, const std::string& arch)> work;

  long long lds_bytes() const;
  int waves(int wave_size) const { return (threads_per_block + wave_size - 1) / wave_size; }
  // The rules a shape breaks ("" when it is supported), as one line.
  std::string shape_violations(const std::vector<long long>& shape) const;
};

// Every kernel's spec, in a fixed order; find_spec throws
// std::invalid_argument listing the names when `name` is unknown.
const std::vector<KernelSpec>& all_specs();
const KernelSpec& find_spec(const std::string& name);

// " (did you mean 'gemm_bf16'?)" when one of `names` is a few edits from
// `name` (Levenshtein distance at most max(1, name's length / 4), counting
// case changes), the nearest one, the first of equals; "" when none is.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& names);

// A template's compile-time parameters by name: TILE_M = 256 is what
// `tilelab compile --params TILE_M=256` passes as -DTL_TILE_M=256.
using TemplateParams = std::map<std::string, std::int64_t>;

// The spec of a template kernel's variant, so that the design check sees the
// variant the compiler builds: gemm_bf16 (TILE_M, TILE_N, WAVES_M, WAVES_N,
// SWIZZLE; gemm_tile.hpp), the MX GEMMs gemm_mxfp4, gemm_mxfp8 and their
// _32x32 kernels (TILE_M, TILE_N, WAVES_M, WAVES_N; mx_gemm_tile.hpp) and
// attention_fwd_d64/_d128 (TILE_Q, TILE_KV, PINGPONG, SETPRIO;
// attention_fwd.hip).  Names left out take the suite
// build's values, so variant_spec(k, {}) designs what find_spec(k) designs.
// std::invalid_argument for a kernel that is not a template, a name its
// template does not take, or values its template's static_asserts refuse
// (the same rule in words).
bool has_variant_spec(const std::string& kernel);
KernelSpec variant_spec(const std::string& kernel, const TemplateParams& params);
// For the spec functions: `params` names only `known` (else
// std::invalid_argument naming the kernel and the names it takes), and one
// parameter's value or its default.
void check_params(const std::string& kernel, const TemplateParams& params, const std::vector<std::string>& known);
std::int64_t param(const TemplateParams& params, const std::string& name, std::int64_t fallback);

// Each folder of kernels/suite.cmake defines
//   std::vector<KernelSpec> <folder>_suite_specs();
// (its kernels' specs); all_specs() lists them in the suite's order.

// The templates' specs for a variant's parameters (variant_spec).
KernelSpec gemm_bf16_spec(const TemplateParams& params = {});
KernelSpec attention_fwd_spec(int D, const TemplateParams& params = {});  // D = 64 or 128
std::vector<KernelSpec> gemm_mxfp8_specs(const TemplateParams& params = {});
std::vector<KernelSpec> gemm_mxfp4_specs(const TemplateParams& params = {});

}  // namespace tilelab::kernels
