// libFuzzer target: a decoded thread-trace folder (traces/rocprof/thread_trace)
// made from the input: its parts, split at NUL bytes, are filenames.json,
// code.json and the wave file se0_sm0_sl0_wv0.json (a missing part is left
// out of the folder).  read_thread_trace gives a trace whose every
// instruction names a pc code.json has, or FormatError naming the file;
// never a crash, UB or a hang.

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tests/fuzz/scratch_path.hpp"
#include "traces/rocprof/thread_trace.hpp"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilelab::traces::rocprof;
  static const tilelab::fuzz::ScratchPath scratch("tilelab_fuzz_att_");
  static const fs::path dir = scratch.path / "ui_output_agent_1_dispatch_10";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t end = input.find('\0', at);
    parts.push_back(input.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos || parts.size() == 3) break;
    at = end + 1;
  }
  const char* names[] = {"filenames.json", "code.json", "se0_sm0_sl0_wv0.json"};
  for (std::size_t i = 0; i < parts.size(); ++i) std::ofstream(dir / names[i], std::ios::binary) << parts[i];
  try {
    const ThreadTrace t = read_thread_trace(dir.string());
    std::set<std::uint64_t> pcs;
    for (const TraceCode& c : t.code) pcs.insert(c.pc);
    for (const TraceWave& w : t.waves)
      for (const TraceInstruction& i : w.instructions)
        if (!pcs.count(i.pc)) std::abort();
  } catch (const FormatError&) {
  }
  return 0;
}
