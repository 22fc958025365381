#include "traces/analysis.hpp"
#include "traces/text_table.hpp"

#include <functional>
#include <tuple>
#include <nlohmann/json.hpp>
#include <set>

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <unordered_map>

namespace tilelab::traces {

std::string name_or(const std::vector<std::string>& names, std::size_t i, const std::string& prefix) {
  return i < names.size() ? names[i] : prefix + std::to_string(i);
}

namespace {

std::map<std::string, Totals> totals(const Reader& r, const std::string& run, CompareBy by, bool as_thread_trace) {
  std::vector<std::string> classes = r.class_names(run), opcodes = r.opcode_names(run);
  if (as_thread_trace) {  // each opcode's category stands in for its class
    std::vector<std::string> category(opcodes.size());
    for (std::size_t i = 0; i < opcodes.size(); ++i) category[i] = thread_trace_category(opcodes[i]);
    classes = std::move(category);
  }
  std::map<std::string, Totals> out;
  std::unordered_map<std::uint64_t, Totals> by_int;  // pc or wave keys, named afterwards
  std::unordered_map<std::uint32_t, std::uint16_t> pc_opcode;
  r.for_each_event_block(run, [&](const EventRecord* e, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      Totals* t;
      if (by == CompareBy::kClass) t = &out[name_or(classes, as_thread_trace ? e[i].opcode : e[i].cls, "class ")];
      else if (by == CompareBy::kPc) {
        t = &by_int[e[i].pc];
        pc_opcode.emplace(e[i].pc, e[i].opcode);
      } else {
        t = &by_int[e[i].wave];
      }
      ++t->instructions;
      t->cycles += e[i].complete - e[i].issue;
      t->stall += e[i].stall;
    }
  });
  for (const auto& [key, t] : by_int) {
    std::ostringstream k;
    if (by == CompareBy::kPc)
      k << "0x" << std::hex << std::setw(6) << std::setfill('0') << key << " "
        << name_or(opcodes, pc_opcode[static_cast<std::uint32_t>(key)], "op ");
    else
      k << "wave " << std::setw(6) << key;
    out[k.str()] = t;
  }
  return out;
}

std::uint64_t lds_conflicts(const Reader& r, const std::string& run) {
  std::uint64_t c = 0;
  for (const LdsRecord& l : r.lds(run)) c += l.conflict_cycles;
  return c;
}


}  // namespace

std::string thread_trace_category(std::string_view m) {
  auto starts = [&](std::string_view p) { return m.substr(0, p.size()) == p; };
  for (std::string_view p : {"s_load", "s_buffer_load", "s_store", "s_buffer_store", "s_memtime", "s_memrealtime",
                             "s_dcache", "s_scratch_", "s_atomic", "s_buffer_atomic"})
    if (starts(p)) return "SMEM";
  for (std::string_view p : {"s_branch", "s_cbranch", "s_setpc", "s_swappc", "s_call"})
    if (starts(p)) return "JUMP";
  for (std::string_view p : {"s_waitcnt", "s_nop", "s_barrier", "s_sleep", "s_setprio", "s_endpgm", "s_trap", "s_sethalt"})
    if (starts(p)) return "IMMED";
  if (starts("s_sendmsg")) return "MSG";
  if (starts("s_")) return "SALU";
  if (starts("buffer_")) return "VMEM";
  if (starts("global_") || starts("flat_") || starts("scratch_")) return "FLAT";
  if (starts("ds_")) return "LDS";
  if (starts("v_")) return "VALU/MFMA";
  return "other";
}

namespace {

WaveSummary wave_summary(const Reader& r, const std::string& id) {
  WaveSummary s;
  const std::vector<WaveRecord> waves = r.waves(id);
  if (waves.empty()) return s;
  std::set<std::uint16_t> cus;
  std::int64_t first = waves[0].start, last = waves[0].end;
  double lifetimes = 0;
  for (const WaveRecord& w : waves) {
    cus.insert(w.cu);
    first = std::min(first, w.start);
    last = std::max(last, w.end);
    lifetimes += static_cast<double>(w.end - w.start);
  }
  s.waves = waves.size();
  s.cus = cus.size();
  s.mean_lifetime = lifetimes / static_cast<double>(waves.size());
  s.span = last - first;
  return s;
}

}  // namespace

Comparison compare(const Reader& r, const std::string& a, const std::string& b, CompareBy by, bool force) {
  Comparison c;
  c.a = r.run(a);
  c.b = r.run(b);
  // A run simulated --like the other is its twin, whatever names the profiler gave.
  auto simulates = [](const RunView& sim, const RunView& hw) {
    // Most configs name no twin: not parsed then (nlohmann::json's destructor
    // allocates and is noexcept, so a parse failing on memory mid-way ends
    // the process; the fault test, tests/tools/cli_faults_test.sh, found it).
    if (sim.info.config_json.find("\"like\"") == std::string::npos) return false;
    const nlohmann::json cfg = nlohmann::json::parse(sim.info.config_json, nullptr, false);
    return cfg.is_object() && cfg.contains("like") && cfg["like"] == hw.info.id;
  };
  force = force || simulates(c.a, c.b) || simulates(c.b, c.a);
  if (!force && c.a.info.kernel != c.b.info.kernel)
    throw StoreError("runs differ in kernel ('" + c.a.info.kernel + "' vs '" + c.b.info.kernel +
                     "'); use --force to compare anyway");
  if (!force && c.a.info.problem_shape != c.b.info.problem_shape)
    throw StoreError("runs differ in problem shape ('" + c.a.info.problem_shape + "' vs '" + c.b.info.problem_shape +
                     "'); use --force to compare anyway");
  if (c.a.summary && c.b.summary && c.a.summary->median_ns > 0) c.time_ratio = c.b.summary->median_ns / c.a.summary->median_ns;
  // A thread trace's categories on one side only: the other side in the same words.
  auto is_trace = [&](const std::string& id) {
    const auto names = r.class_names(id);
    return std::find(names.begin(), names.end(), "VALU/MFMA") != names.end();
  };
  const bool trace_a = is_trace(a), trace_b = is_trace(b);
  std::map<std::string, Totals> ta = totals(r, a, by, trace_b && !trace_a), tb = totals(r, b, by, trace_a && !trace_b);
  for (const auto& [k, t] : ta) c.rows[k].first = t;
  for (const auto& [k, t] : tb) c.rows[k].second = t;
  {
    const std::vector<PcStatRecord> pa = r.pc_stats(a), pb = r.pc_stats(b);
    if (!pa.empty() && !pb.empty()) {
      std::map<std::uint32_t, PcRow> by_pc;
      for (const PcStatRecord& s : pa) by_pc[s.pc].a = s, by_pc[s.pc].pc = s.pc, by_pc[s.pc].instruction = s.instruction;
      for (const PcStatRecord& s : pb) {
        PcRow& row = by_pc[s.pc];
        row.b = s;
        row.pc = s.pc;
        if (row.instruction.empty()) row.instruction = s.instruction;
      }
      // The source line of each pc from either run (a simulated run of a code
      // object with a line table has them; an imported thread trace does not).
      for (const std::string& id : {b, a})
        for (const PcSourceRecord& p : r.pc_sources(id))
          if (const auto it = by_pc.find(p.pc); it != by_pc.end())
            it->second.source = std::string(p.source, strnlen(p.source, sizeof p.source));
      for (auto& [pc, row] : by_pc) c.pc_rows.push_back(row);
      auto d = [](std::int64_t x, std::int64_t y) { return x > y ? x - y : y - x; };
      std::stable_sort(c.pc_rows.begin(), c.pc_rows.end(), [&](const PcRow& l, const PcRow& r2) {
        const auto kl = std::make_tuple(d(l.a.latency, l.b.latency), d(l.a.stall, l.b.stall), d(l.a.idle, l.b.idle));
        const auto kr = std::make_tuple(d(r2.a.latency, r2.b.latency), d(r2.a.stall, r2.b.stall), d(r2.a.idle, r2.b.idle));
        return kl > kr;
      });
    }
  }
  c.waves_a = wave_summary(r, a);
  c.waves_b = wave_summary(r, b);
  c.lds_conflicts_a = lds_conflicts(r, a);
  c.lds_conflicts_b = lds_conflicts(r, b);
  std::map<std::string, double> ca = r.counters(a), cb = r.counters(b);
  for (const auto& [k, v] : ca)
    if (cb.count(k)) c.counters[k] = {v, cb[k]};
  const std::vector<DerivedMetric> da = derived_metrics(ca), db = derived_metrics(cb);
  for (const DerivedMetric& x : da)
    for (const DerivedMetric& y : db)
      if (x.name == y.name) c.derived.push_back({x, y});
  return c;
}

void print_table(const Comparison& c, CompareBy by, std::ostream& o) {
  auto ratio = [](double a, double b) {
    std::ostringstream s;
    if (a == 0) s << (b == 0 ? "1" : "-");
    else s << std::fixed << std::setprecision(2) << b / a;
    return s.str();
  };
  o << "A: " << c.a.info.id << " (" << c.a.info.kind << ", " << c.a.info.arch << ", " << c.a.info.device << ")\n"
    << "B: " << c.b.info.id << " (" << c.b.info.kind << ", " << c.b.info.arch << ", " << c.b.info.device << ")\n"
    << "kernel " << c.a.info.kernel << ", shape " << c.a.info.problem_shape << "\n";
  if (c.time_ratio > 0)
    o << "median time: A " << c.a.summary->median_ns << " ns, B " << c.b.summary->median_ns << " ns, B/A "
      << std::fixed << std::setprecision(3) << c.time_ratio << "\n" << std::defaultfloat;
  if (c.waves_a.waves || c.waves_b.waves) {
    auto line = [&](const char* name, const WaveSummary& w, const RunView& v) {
      std::ostringstream mean;
      mean << std::fixed << std::setprecision(1) << w.mean_lifetime;
      o << "waves " << name << ": " << w.waves << " on " << w.cus << " CUs, mean lifetime " << mean.str() << " "
        << v.info.time_unit << ", first start to last end " << w.span << " " << v.info.time_unit << "\n";
    };
    line("A", c.waves_a, c.a);
    line("B", c.waves_b, c.b);
  }
  using Align = TextTable::Align;
  if (by == CompareBy::kPc && !c.pc_rows.empty()) {  // the thread trace's per-pc columns, both sides
    o << (c.program_order ? "per pc (the thread trace's columns), in program order:\n"
                          : "per pc (the thread trace's columns; the pcs that differ most first):\n");
    const bool sources = std::any_of(c.pc_rows.begin(), c.pc_rows.end(), [](const PcRow& r) { return !r.source.empty(); });
    std::vector<TextTable::Column> columns = {{"pc", Align::left}, {"instruction", Align::left}, {"hits A"}, {"hits B"},
                                              {"latency A"}, {"latency B"}, {"B/A"}, {"stall A"}, {"stall B"},
                                              {"idle A"}, {"idle B"}};
    // In program order the line is marked where it changes (as a source view
    // does); sorted by difference, on every row.
    if (sources) columns.push_back({"source", Align::left});
    TextTable t(columns);
    std::string last_source;
    for (const PcRow& row : c.pc_rows) {
      char pc[16];
      std::snprintf(pc, sizeof pc, "0x%x", row.pc);
      std::vector<std::string> cells = {pc, row.instruction.substr(0, 40), std::to_string(row.a.hits),
                                        std::to_string(row.b.hits), std::to_string(row.a.latency),
                                        std::to_string(row.b.latency),
                                        ratio(static_cast<double>(row.a.latency), static_cast<double>(row.b.latency)),
                                        std::to_string(row.a.stall), std::to_string(row.b.stall),
                                        std::to_string(row.a.idle), std::to_string(row.b.idle)};
      if (sources) cells.push_back(c.program_order ? source_cell(row.source, last_source) : row.source);
      t.add_row(cells);
    }
    t.print(o);
  }
  const char* key = by == CompareBy::kClass ? "class" : by == CompareBy::kPc ? "pc" : "wave";
  TextTable t({{key, Align::left}, {"instr A"}, {"instr B"}, {"cycles A"}, {"cycles B"}, {"B/A"}, {"stall A"},
               {"stall B"}, {"B/A"}});
  // Per pc, the instructions where the runs differ most come first.
  std::vector<std::pair<std::string, std::pair<Totals, Totals>>> rows(c.rows.begin(), c.rows.end());
  if (by == CompareBy::kPc && !c.program_order) {  // keys are 0x%06x: their text order is program order
    auto gap = [](const std::pair<Totals, Totals>& ab) {
      auto d = [](std::uint64_t a, std::uint64_t b) { return a > b ? a - b : b - a; };
      return std::max(d(ab.first.cycles, ab.second.cycles), d(ab.first.stall, ab.second.stall));
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& l, const auto& r) { return gap(l.second) > gap(r.second); });
  }
  for (const auto& [k, ab] : rows) {
    const Totals &x = ab.first, &y = ab.second;
    t.add_row({k, std::to_string(x.instructions), std::to_string(y.instructions), std::to_string(x.cycles),
               std::to_string(y.cycles), ratio(static_cast<double>(x.cycles), static_cast<double>(y.cycles)),
               std::to_string(x.stall), std::to_string(y.stall),
               ratio(static_cast<double>(x.stall), static_cast<double>(y.stall))});
  }
  t.print(o);
  o << "LDS conflict cycles: A " << c.lds_conflicts_a << ", B " << c.lds_conflicts_b << "\n";
  if (!c.counters.empty()) {
    TextTable k({{"counter", Align::left}, {"A"}, {"B"}, {"B/A"}});
    for (const auto& [name, v] : c.counters) k.add_row({name, number(v.first), number(v.second), ratio(v.first, v.second)});
    k.print(o);
  }
  if (!c.derived.empty()) {
    TextTable d({{"derived", Align::left}, {"A"}, {"B"}, {"B/A"}, {"formula", Align::left}});
    for (const auto& [x, y] : c.derived) d.add_row({x.name, number(x.value), number(y.value), ratio(x.value, y.value), x.formula});
    d.print(o);
  }
}

void print_json(const Comparison& c, std::ostream& o) {
  using Json = nlohmann::ordered_json;
  auto totals = [](const Totals& t) {
    return Json{{"instructions", t.instructions}, {"cycles", t.cycles}, {"stall", t.stall}};
  };
  auto waves = [](const WaveSummary& w, const RunView& v) {
    return Json{{"waves", w.waves}, {"cus", w.cus}, {"mean_lifetime", w.mean_lifetime}, {"span", w.span},
                {"time_unit", v.info.time_unit}};
  };
  Json rows = Json::object(), counters = Json::object(), pcs = Json::array();
  auto stat = [](const PcStatRecord& s) {
    return Json{{"hits", s.hits}, {"latency", s.latency}, {"stall", s.stall}, {"idle", s.idle}};
  };
  for (const PcRow& row : c.pc_rows)
    pcs.push_back({{"pc", row.pc}, {"instruction", row.instruction}, {"source", row.source.empty() ? Json() : Json(row.source)},
                   {"a", stat(row.a)}, {"b", stat(row.b)}});
  for (const auto& [k, ab] : c.rows) rows[k] = {{"a", totals(ab.first)}, {"b", totals(ab.second)}};
  for (const auto& [k, v] : c.counters) counters[k] = {{"a", v.first}, {"b", v.second}};
  Json derived = Json::object();
  for (const auto& [x, y] : c.derived) derived[x.name] = {{"a", x.value}, {"b", y.value}, {"formula", x.formula}};
  const Json j = {{"a", c.a.info.id},
                  {"b", c.b.info.id},
                  {"kernel", c.a.info.kernel},
                  {"time_ratio", c.time_ratio},
                  {"rows", rows},
                  {"lds_conflict_cycles", {{"a", c.lds_conflicts_a}, {"b", c.lds_conflicts_b}}},
                  {"waves", {{"a", waves(c.waves_a, c.a)}, {"b", waves(c.waves_b, c.b)}}},
                  {"counters", counters},
                  {"derived", derived},
                  {"pc_stats", pcs}};
  o << j.dump() << "\n";
}


void set_program_order(Comparison& c) {
  std::stable_sort(c.pc_rows.begin(), c.pc_rows.end(), [](const PcRow& l, const PcRow& r) { return l.pc < r.pc; });
  c.program_order = true;
}

std::vector<ListingRow> stored_listing(const Reader& r, const std::string& id) {
  std::vector<PcStatRecord> stats = r.pc_stats(id);
  std::sort(stats.begin(), stats.end(), [](const PcStatRecord& a, const PcStatRecord& b) { return a.pc < b.pc; });
  std::unordered_map<std::uint32_t, std::map<std::uint8_t, std::uint64_t>> stalled;  // pc -> reason -> cycles
  if (!stats.empty())
    r.for_each_event_block(id, [&](const EventRecord* e, std::size_t n) {
      for (std::size_t i = 0; i < n; ++i)
        if (e[i].stall > 0) stalled[e[i].pc][e[i].stall_reason] += e[i].stall;
    });
  const std::vector<std::string> reasons = r.stall_reason_names(id);
  std::unordered_map<std::uint32_t, std::string> source;
  for (const PcSourceRecord& p : r.pc_sources(id)) source[p.pc] = std::string(p.source, strnlen(p.source, sizeof p.source));
  std::vector<ListingRow> rows;
  for (const PcStatRecord& s : stats) {
    ListingRow row{s, "", ""};
    if (const auto it = source.find(s.pc); it != source.end()) row.source = it->second;
    if (const auto it = stalled.find(s.pc); it != stalled.end()) {
      const auto most = std::max_element(it->second.begin(), it->second.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
      row.waits_on = name_or(reasons, most->first, "reason ");
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string source_cell(const std::string& source, std::string& last) {
  if (source.empty() || source == last) return "";
  last = source;
  return source;
}

void print_listing(const RunView& v, const std::vector<ListingRow>& rows, std::ostream& o) {
  o << v.info.id << ": " << rows.size() << " instructions in program order (the thread trace's per-pc columns, in "
    << v.info.time_unit << ")\n";
  using Align = TextTable::Align;
  const bool sources = std::any_of(rows.begin(), rows.end(), [](const ListingRow& r) { return !r.source.empty(); });
  std::vector<TextTable::Column> columns = {{"pc", Align::left}, {"instruction", Align::left}, {"hits"}, {"latency"},
                                            {"mean"}, {"stall"}, {"idle"}, {"waits most on", Align::left}};
  if (sources) columns.push_back({"source", Align::left});  // where the line changes, as a source view marks it
  TextTable t(columns);
  std::string last_source;
  for (const ListingRow& row : rows) {
    char pc[16], mean[32];
    std::snprintf(pc, sizeof pc, "0x%06x", row.stat.pc);
    std::snprintf(mean, sizeof mean, "%.1f", row.stat.hits ? static_cast<double>(row.stat.latency) / row.stat.hits : 0.0);
    std::vector<std::string> cells = {
        pc, std::string(row.stat.instruction, strnlen(row.stat.instruction, sizeof row.stat.instruction)).substr(0, 48),
        std::to_string(row.stat.hits), std::to_string(row.stat.latency), mean, std::to_string(row.stat.stall),
        std::to_string(row.stat.idle), row.waits_on};
    if (sources) cells.push_back(source_cell(row.source, last_source));
    t.add_row(cells);
  }
  t.print(o);
}

}  // namespace tilelab::traces
