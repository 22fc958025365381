// Importing a large decoded thread trace (issue 18): a synthetic
// ui_output_agent_1_dispatch_1/ in rocprof-trace-decoder's layout with W waves
// of N instruction records each (written here, deterministic), read with
// simdjson and stored; and a counter collection of D dispatches x C counters
// read through the CSV reader.  Prints the read, store and Perfetto export
// times and the rates.
// Run: build/bin/bench_rocprof_import [waves, default 512] [records per wave, default 4096]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "traces/analysis.hpp"
#include "traces/perfetto.hpp"
#include "traces/rocprof/profile.hpp"
#include "traces/store.hpp"

using namespace tilelab::traces;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
}  // namespace

int main(int argc, char** argv) {
  const int waves = argc > 1 ? std::atoi(argv[1]) : 512, records = argc > 2 ? std::atoi(argv[2]) : 4096;
  const fs::path root = fs::temp_directory_path() / ("tilelab_rocprof_bench_" + std::to_string(::getpid()));
  const fs::path dir = root / "ui_output_agent_1_dispatch_1";
  fs::create_directories(dir);
  constexpr int kCode = 64;
  {
    std::ofstream code(dir / "code.json");
    code << "{\"code\": [[\"; bench_kernel\", 0, 0, \"\", 0, 0, 0, 0, 0, 0]";
    for (int i = 1; i <= kCode; ++i)
      code << ",\n[\"v_add_f32_e32 v1, v2, v3\", 0, " << i << ", \"\", 1, " << 4096 + 4 * i << ", " << waves << ", 100, 10, 5]";
    code << "]}\n";
    std::ofstream names(dir / "filenames.json");
    names << "{\"gfxip\": 9, \"wave_filenames\": {\"0\": {\"0\": {";
    for (int w = 0; w < waves; ++w) {
      names << (w ? "," : "") << "\"" << w << "\": {\"0\": [\"se0_sm0_sl" << w << "_wv0.json\", 0, 0]}";
      std::ofstream f(dir / ("se0_sm0_sl" + std::to_string(w) + "_wv0.json"));
      f << "{\"num_insts\": " << records << ", \"wave\": {\"cu\": " << w % 32 << ", \"simd\": " << w % 4 << ", \"slot\": "
        << w / 4 % 8 << ", \"begin\": " << 1000 * w << ", \"end\": " << 1000 * w + 8 * records << ", \"instructions\": [";
      for (int i = 0; i < records; ++i)
        f << (i ? "," : "") << "[" << 1000 * w + 8 * i << ", 6, " << i % 3 << ", " << 4 + i % 3 << ", " << 1 + i % kCode << "]";
      f << "], \"timeline\": [], \"waitcnt\": []}}\n";
    }
    names << "}}}}\n";
  }
  std::uintmax_t bytes = 0;
  for (const auto& e : fs::directory_iterator(dir)) bytes += e.file_size();

  auto t = Clock::now();
  const rocprof::Profile p = rocprof::read_profile(dir.string());
  const double read_s = seconds_since(t);
  const double n = static_cast<double>(waves) * records;
  t = Clock::now();
  rocprof::import_profile(p, (root / "s.h5").string(), {});
  const double store_s = seconds_since(t);
  std::printf("thread trace: %d waves x %d records = %.3g records, %.1f MB of JSON\n", waves, records, n, bytes / 1e6);
  std::printf("  read (simdjson): %.3f s = %.1f M records/s, %.0f MB/s\n", read_s, n / read_s / 1e6, bytes / 1e6 / read_s);
  std::printf("  stored as events: %.3f s = %.1f M records/s\n", store_s, n / store_s / 1e6);
  // The Perfetto export of the imported run (issue 24 item 10: linear in the events).
  t = Clock::now();
  std::ofstream trace(root / "trace.json");
  const Reader reader((root / "s.h5").string());
  const PerfettoStats st = export_perfetto(reader, reader.run_ids().front(), trace);
  const double export_s = seconds_since(t);
  std::printf("  Perfetto export: %.3f s = %.1f M records/s (%llu slices)\n", export_s, n / export_s / 1e6,
              static_cast<unsigned long long>(st.slices));

  // A counter collection: 2000 dispatches x 16 counters through the CSV reader.
  const fs::path csv = root / "counter_collection.csv";
  {
    std::ofstream f(csv);
    f << "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\",\"Thread_Id\",\"Grid_Size\",\"Kernel_Id\","
         "\"Kernel_Name\",\"Workgroup_Size\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\","
         "\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\",\"End_Timestamp\"\n";
    for (int d = 1; d <= 2000; ++d)
      for (int c = 0; c < 16; ++c)
        f << d << "," << d << ",\"Agent 1\",1,1,1,1048576,7,\"void gemm<bf16>(float*, int)\",256,0,0,128,64,32,\"SQ_C" << c
          << "\"," << d * 16 + c << ".000000," << 1000 * d << "," << 1000 * d + 500 << "\n";
  }
  t = Clock::now();
  rocprof::Profile q;
  rocprof::add_counter_collection(q, csv.string());
  const double csv_s = seconds_since(t);
  std::printf("counter collection: 32000 rows, %.1f MB: read in %.3f s = %.2f M rows/s\n", fs::file_size(csv) / 1e6,
              csv_s, 32000 / csv_s / 1e6);
  fs::remove_all(root);
  return 0;
}
