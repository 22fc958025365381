// topk's layout spec (the design of topk.hip), one spec per element type.
#include "kernels/spec.hpp"

namespace tilelab::kernels {

namespace {
KernelSpec topk_spec(const std::string& name, int elem_bytes) {
  const int vec = 16 / elem_bytes;
  KernelSpec s;
  s.name = name;
  s.source = "topk/topk.hip";
  s.summary = std::string("TopK (k <= 32) over rows, ") + (elem_bytes == 4 ? "fp32" : "bf16") +
              ", values and indices, ties to the lower index";
  s.archs = {"gfx950", "gfx942"};
  s.block_tile = "one row (1 x N) per workgroup";
  s.wave_layout = "4 waves; k rounds of a workgroup argmax: wave shuffles, then the 4 wave winners through LDS";
  s.thread_values = "thread t scans " + std::to_string(vec) + "-element vectors t, t+256, ... (increasing index) "
                    "and keeps its 32 best (value, index) pairs sorted in registers";
  s.copy_atom = "128-bit global load (" + std::to_string(vec) + " elements)";
  s.mfma_atom = "none";
  s.threads_per_block = 256;
  s.pipeline_depth = 2;  // two sets of winner slots, one barrier per round
  s.lds = {{"wave winners (value)", 2, 4, 4, 1, std::nullopt}, {"wave winners (index)", 2, 4, 4, 1, std::nullopt}};
  s.accesses = {
      {"winner: lane 0 of wave 0 writes its value", 0, "ds_write_b32", std::nullopt, std::vector<std::uint32_t>(64, 0), 1},
      {"winners: every lane reads each wave's value", 0, "ds_read_b32", std::nullopt, std::vector<std::uint32_t>(64, 0),
       ~0ull}};
  s.shape_dims = {"rows", "N", "k"};
  s.shape_rules = {
      {"N % " + std::to_string(vec) + " == 0 (128-bit vectors)", [vec](const auto& v) { return v[1] % vec == 0; }},
      {"N <= 65536", [](const auto& v) { return v[1] <= 65536; }},
      {"1 <= k <= 32", [](const auto& v) { return v[2] >= 1 && v[2] <= 32; }},
      {"k <= N", [](const auto& v) { return v[2] <= v[1]; }}};
  s.example_shapes = {{1024, 32768, 8}, {4, 1024, 8}, {2, 65536, 32}, {8, 4096, 1}, {3, 64, 32}};
  s.work = [elem_bytes](const std::vector<long long>& v, const std::string&) {
    // the row in; k values and k indices out; per round 4 winners through LDS.
    const long long row = v[1] * elem_bytes + v[2] * (elem_bytes + 4);
    const long long in = v[1] * elem_bytes;  // workgroup w: row w
    auto tiles = [in](long long wg) { return std::vector<GlobalTile>{{tile_key(0, wg), in}}; };
    return TileWork{v[0], "", 0, false, 4 * v[2], row, v[0] * row, tiles, v[2] * (elem_bytes + 4)};
  };
  return s;
}
}  // namespace

std::vector<KernelSpec> topk_suite_specs() { return {topk_spec("topk_f32", 4), topk_spec("topk_bf16", 2)}; }

}  // namespace tilelab::kernels
