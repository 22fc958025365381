// Synthetic runs with known contents, for the store's tests, the h5py check
// and the benchmark: realistic shapes (repetitive pcs, increasing cycles).
#pragma once

#include <string>

#include "traces/store.hpp"

namespace tilelab::testing {

struct SyntheticRun {
  std::string id = "sim-0";
  std::string kind = "sim";
  std::string kernel = "gemm_bf16";
  std::string shape = "M=256,N=256,K=64";
  int waves = 8;
  int events_per_wave = 100;
  int valu_cycles = 4;       // busy cycles of each VALU instruction
  int lds_conflicts = 12;
  double median_ns = 1000;
  std::size_t event_buffer = 1 << 20;
};

inline const std::vector<std::string>& synthetic_classes() {
  static const std::vector<std::string> c{"VALU", "LDS", "MFMA", "SALU"};
  return c;
}

// Event k of wave w: class k % 4, pc 4 * (k % 32), issue 8k + w, stall 1 every 3rd.
inline traces::EventRecord synthetic_event(const SyntheticRun& s, int w, int k) {
  traces::EventRecord e{};
  e.wave = static_cast<std::uint32_t>(w);
  e.pc = static_cast<std::uint32_t>(4 * (k % 32));
  e.opcode = static_cast<std::uint16_t>(k % 32);
  e.cls = static_cast<std::uint8_t>(k % 4);
  e.stall_reason = k % 3 == 0 ? 1 : 0;
  e.stall = k % 3 == 0 ? 2 : 0;
  e.issue = 8LL * k + w;
  e.complete = e.issue + (e.cls == 0 ? s.valu_cycles : 8);
  return e;
}

inline void write_synthetic(const std::string& file, const SyntheticRun& s) {
  traces::RunInfo info;
  info.id = s.id;
  info.kind = s.kind;
  info.kernel = s.kernel;
  info.config_json = "{\"tile\":[256,256,64]}";
  info.problem_shape = s.shape;
  info.arch = "gfx950";
  info.device = s.kind == "hw" ? "AMD Instinct MI355X" : "simulator";
  info.backend = s.kind == "hw" ? "hip" : "sim";
  info.git_revision = "0123abc";
  info.compiler = "clang 22.1.8";
  info.code_object_sha256 = std::string(64, 'a');
  info.arch_file_sha256 = std::string(64, 'b');
  info.host = "testhost";
  info.utc_time = "2026-12-02T00:00:00Z";
  info.seed = 42;
  traces::RunWriter w(file, info, s.event_buffer);
  for (int r = 0; r < 5; ++r) w.add_repetition({r, s.median_ns + r});
  traces::Summary sum;
  sum.median_ns = s.median_ns;
  sum.p10_ns = s.median_ns - 1;
  sum.p90_ns = s.median_ns + 1;
  sum.min_ns = s.median_ns - 2;
  sum.iqr_ns = 1.5;
  sum.tflops = 1.25;
  sum.gbps = 300;
  sum.max_rel_error = 1e-3;
  sum.correct = true;
  w.set_summary(sum);
  for (int v = 0; v < s.waves; ++v)
    w.add_wave({static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(v / 4), static_cast<std::uint16_t>(v % 2),
                static_cast<std::uint8_t>(v % 4), static_cast<std::uint8_t>(v / 4), v,
                8LL * (s.events_per_wave - 1) + v + 8});
  for (int k = 0; k < s.events_per_wave; ++k)  // interleaved, as a simulator emits them
    for (int v = 0; v < s.waves; ++v) w.add_event(synthetic_event(s, v, k));
  traces::LdsRecord l{};
  traces::set_text(l.site, "inst 0 wave 0");
  traces::set_text(l.instruction, "ds_read_b128");
  l.phases = 4;
  l.worst_ways = 4;
  l.conflict_cycles = static_cast<std::uint64_t>(s.lds_conflicts);
  l.count = 1;
  w.add_lds(l);
  w.add_counter("SQ_LDS_BANK_CONFLICT", s.lds_conflicts);
  w.add_counter("SQ_WAVES", s.waves);
  if (s.kind == "hw") w.add_counter("GRBM_GUI_ACTIVE", 12345);
  if (s.kind == "sim") {  // the chip's counters over time: 2 XCDs x 2 windows of 1024 cycles
    w.add_xcd_counter({0, 0, 1024, 100, 75, 2048});
    w.add_xcd_counter({0, 1024, 1024, 40, 10, 0});
    w.add_xcd_counter({1, 0, 1024, 0, 0, 512});
    w.add_xcd_counter({1, 1024, 1024, 8, 8, 1024});
  }
  std::vector<std::string> ops;
  for (int i = 0; i < 32; ++i) ops.push_back("op" + std::to_string(i));
  w.set_opcode_names(ops);
  w.set_class_names(synthetic_classes());
  w.set_stall_reason_names({"none", "waitcnt"});
  w.finish();
}

}  // namespace tilelab::testing
