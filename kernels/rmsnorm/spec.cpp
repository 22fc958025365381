// rmsnorm's layout spec (the design of rmsnorm.hip).
#include "kernels/spec.hpp"

namespace tilelab::kernels {

static KernelSpec rmsnorm_spec() {
  KernelSpec s;
  s.name = "rmsnorm_bf16";
  s.source = "rmsnorm/rmsnorm.hip";
  s.summary = "RMSNorm, bf16 in/out, fp32 statistics, one workgroup per row";
  s.archs = {"gfx950", "gfx942"};
  s.block_tile = "one row (1 x hidden) per workgroup";
  s.wave_layout = "4 waves side by side along the row; each reduces its part, then the 4 partial sums meet in LDS";
  s.thread_values = "thread t holds 8-element vectors t, t+256, ... of the row (at most 8 vectors: hidden <= 16384)";
  s.copy_atom = "128-bit global load / store (8 bf16), row kept in registers between the two passes";
  s.mfma_atom = "none";
  s.threads_per_block = 256;
  s.pipeline_depth = 1;
  s.lds = {{"wave partial sums", 1, 4, 4, 1, std::nullopt}};
  // Lane 0 of each wave writes its sum (one active lane); then every lane
  // reads the four sums (all lanes one address: a broadcast).
  LdsAccess write{"partial sum: lane 0 of wave 0 writes", 0, "ds_write_b32", std::nullopt,
                  std::vector<std::uint32_t>(64, 0), 1};
  LdsAccess read{"partial sums: every lane reads all four", 0, "ds_read_b128", std::nullopt,
                 std::vector<std::uint32_t>(64, 0), ~0ull};
  s.accesses = {write, read};
  s.shape_dims = {"rows", "hidden"};
  s.shape_rules = {{"hidden % 8 == 0 (128-bit vectors)", [](const auto& v) { return v[1] % 8 == 0; }},
                   {"hidden <= 16384 (the row stays in registers)", [](const auto& v) { return v[1] <= 16384; }}};
  s.example_shapes = {{4096, 8192}, {4, 2048}, {16, 4096}, {3, 16384}, {7, 8}};
  s.work = [](const std::vector<long long>& v, const std::string&) {
    // in, out and gamma rows; the 4 wave sums written and read once per row.
    const long long row_bytes = v[1] * 2;  // workgroup w: row w in, row w out; gamma shared by all
    auto tiles = [row_bytes](long long wg) {
      return std::vector<GlobalTile>{{tile_key(0, wg), row_bytes}, {tile_key(1, 0), row_bytes}};
    };
    return TileWork{v[0], "", 0, false, 4, 3 * v[1] * 2, v[0] * v[1] * 2 * 2 + v[1] * 2, tiles, row_bytes};
  };
  return s;
}

std::vector<KernelSpec> rmsnorm_suite_specs() { return {rmsnorm_spec()}; }

}  // namespace tilelab::kernels
