#include "traces/rocprof/thread_trace.hpp"
#include "traces/rocprof/file_tree.hpp"

#include <charconv>
#include <cmath>

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

namespace tilelab::traces::rocprof {

namespace {

namespace fs = std::filesystem;
using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// Runs f on the parsed file, turning simdjson's errors into one line naming the file.
template <class F>
void with_json(const std::string& path, F f) {
  std::error_code ec;  // only a regular file: a FIFO would block forever, a loop throw
  if (!fs::exists(path, ec)) throw FormatError(path + ": missing");
  if (!fs::is_regular_file(path, ec)) throw FormatError(path + ": not a regular file");
  simdjson::dom::parser parser;
  try {
    f(parser.load(path).value());
  } catch (const simdjson::simdjson_error& e) {
    throw FormatError(path + ": " + e.what());
  }
}

// A JSON number as a 64-bit integer: a fraction, or a value beyond int64
// (1e300, 2^64 - 1), is refused rather than cast (the cast wrapped or was
// undefined).
std::int64_t int_of(element e) {
  if (e.is_int64()) return e.get_int64().value();
  if (e.is_uint64()) throw FormatError("the number " + std::to_string(e.get_uint64().value()) + " is beyond 64-bit signed");
  const double d = e.get_double().value();
  if (!(d >= -0x1p63 && d < 0x1p63) || d != std::floor(d))
    throw FormatError("the number " + std::to_string(d) + " is not a 64-bit integer");
  return static_cast<std::int64_t>(d);
}

// A field of a wave file within the range of what stores it.
std::int64_t field(const std::string& path, const char* name, element e, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  try {
    v = int_of(e);
  } catch (const FormatError& x) {
    throw FormatError(path + ": " + name + ": " + x.what());
  }
  if (v < lo || v > hi)
    throw FormatError(path + ": " + name + " " + std::to_string(v) + " is out of range (" + std::to_string(lo) + " to " +
                      std::to_string(hi) + ")");
  return v;
}

constexpr std::int64_t kMaxTime = std::int64_t{1} << 62;  // cycles: differences stay in range

}  // namespace

const std::vector<std::string>& trace_category_names() {
  static const std::vector<std::string> names = {"other", "SMEM", "SALU", "VMEM", "FLAT", "LDS", "VALU/MFMA",
                                                 "JUMP",  "NEXT", "IMMED", "",    "MSG"};
  return names;
}

// A number of the trace's names, digits only, as an unsigned 64-bit value.
static std::uint64_t folder_number(const std::string& where, const std::string& digits, const char* what) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size())
    throw FormatError(where + ": the " + std::string(what) + " number " + digits + " is beyond 64 bits");
  return v;
}

ThreadTrace read_thread_trace(const std::string& folder) {
  ThreadTrace t;
  t.folder = folder;
  static const std::regex name(R"(ui_output_agent_(\d+)_dispatch_(\d+))");
  std::smatch m;
  const std::string base = fs::path(folder).filename().string();
  if (!std::regex_match(base, m, name))
    throw FormatError(folder + ": not a decoded thread trace (expected ui_output_agent_<A>_dispatch_<D>)");
  t.agent = folder_number(folder, m[1], "agent");
  t.dispatch = folder_number(folder, m[2], "dispatch");

  // code.json: [ISA, 0, LineNumber, Source, Codeobj, Vaddr, Hit, Latency, Stall, Idle]; "; name" rows name the kernel.
  const std::string code_path = (fs::path(folder) / "code.json").string();
  std::map<std::int64_t, std::size_t> by_line;
  with_json(code_path, [&](element doc) {
    for (element row : array(doc["code"])) {
      array r = row;
      const std::string isa(std::string_view(r.at(0)));
      if (isa.rfind("; ", 0) == 0) {
        if (t.kernel.empty()) t.kernel = isa.substr(2);
        continue;
      }
      const auto vaddr = static_cast<std::uint64_t>(int_of(r.at(5)));
      TraceCode c;
      c.isa = isa;
      c.pc = vaddr;
      c.hits = static_cast<std::uint64_t>(int_of(r.at(6)));
      c.latency = int_of(r.at(7));
      c.stall = int_of(r.at(8));
      c.idle = int_of(r.at(9));
      by_line[int_of(r.at(2))] = t.code.size();
      t.code.push_back(std::move(c));
    }
  });

  // The per-pc stats file beside the folder, stats_<folder name>.csv (CodeObj,
  // Vaddr, Instruction, Hitcount, Latency, Stall, Idle, Source): where present
  // it gives the per-pc columns, and must name the pcs code.json has.
  const fs::path stats = fs::path(folder).parent_path() / ("stats_" + base + ".csv");
  if (fs::exists(stats)) {
    const CsvTable s = read_csv(stats.string());
    const std::size_t vaddr = s.column("Vaddr"), hits = s.column("Hitcount"), latency = s.column("Latency"),
                      stall = s.column("Stall"), idle = s.column("Idle");
    for (std::size_t r = 0; r < s.rows.size(); ++r) {
      const auto pc = static_cast<std::uint64_t>(integer_at(s, r, vaddr));
      auto it = std::find_if(t.code.begin(), t.code.end(), [&](const TraceCode& c) { return c.pc == pc; });
      if (it == t.code.end())
        throw FormatError(s.path + ":" + std::to_string(s.lines[r]) + ": Vaddr " + std::to_string(pc) + " is not in " + code_path);
      it->hits = static_cast<std::uint64_t>(integer_at(s, r, hits));
      it->latency = integer_at(s, r, latency);
      it->stall = integer_at(s, r, stall);
      it->idle = integer_at(s, r, idle);
    }
  }

  // filenames.json: wave_filenames{se:{simd:{slot:{n:[file, begin, end]}}}}.
  std::vector<std::string> wave_files;
  const std::string names_path = (fs::path(folder) / "filenames.json").string();
  with_json(names_path, [&](element doc) {
    for (auto se : object(doc["wave_filenames"]))
      for (auto simd : object(se.value))
        for (auto slot : object(simd.value))
          for (auto n : object(slot.value)) wave_files.emplace_back(std::string_view(array(n.value).at(0)));
  });
  std::sort(wave_files.begin(), wave_files.end());

  for (const std::string& file : wave_files) {
    const std::string path = (fs::path(folder) / fs::path(file).filename()).string();
    std::error_code missing;
    if (!fs::is_regular_file(path, missing))  // a symlink loop or a folder is not a wave file
      throw FormatError(path + ": listed in " + names_path + " but missing or not a regular file");
    with_json(path, [&](element doc) {
      object w = doc["wave"];
      TraceWave wave;
      // Stored as the store's wave record: cu 16 bits, simd and slot 8 bits.
      wave.cu = static_cast<int>(field(path, "cu", w["cu"], 0, 65535));
      wave.simd = static_cast<int>(field(path, "simd", w["simd"], 0, 255));
      wave.slot = static_cast<int>(field(path, "slot", w["slot"], 0, 255));
      wave.begin = field(path, "begin", w["begin"], 0, kMaxTime);
      wave.end = field(path, "end", w["end"], wave.begin, kMaxTime);
      static const std::regex se_of(R"(se(\d+)_)");
      std::smatch s;
      if (std::regex_search(file, s, se_of)) {
        const std::uint64_t se = folder_number(path, s[1], "shader engine");
        if (se > 1024) throw FormatError(path + ": shader engine " + std::string(s[1]) + " is out of range (0-1024)");
        wave.se = static_cast<int>(se);
      }
      for (element i : array(w["instructions"])) {
        array r = i;
        TraceInstruction x;
        x.time = field(path, "instruction time", r.at(0), 0, kMaxTime);
        x.category = static_cast<int>(field(path, "instruction category", r.at(1), 0, 255));
        x.stall = field(path, "instruction stall", r.at(2), 0, 0xffffffffll);  // stored in 32 bits
        x.duration = field(path, "instruction duration", r.at(3), 0, kMaxTime);
        const std::int64_t line = int_of(r.at(4));
        const auto it = by_line.find(line);
        if (it == by_line.end())
          throw FormatError(path + ": an instruction names code line " + std::to_string(line) + ", which " + code_path +
                            " does not have");
        x.pc = t.code[it->second].pc;
        wave.instructions.push_back(x);
      }
      t.waves.push_back(std::move(wave));
    });
  }
  return t;
}

std::vector<std::string> find_thread_traces(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  for (const TreeEntry& e : list_tree(root))
    if (e.directory && fs::path(e.path).filename().string().rfind("ui_output_agent_", 0) == 0) out.push_back(e.path);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tilelab::traces::rocprof
