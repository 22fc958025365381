#include "sim/arch/arch.hpp"
#include "sim/arch/toml_text.hpp"

#include <filesystem>
#include <toml++/toml.h>

#include "sim/arch/embedded.hpp"

#include <algorithm>
#include <iomanip>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>

namespace tilelab::arch {

const char* to_string(Status s) {
  switch (s) {
    case Status::kMeasured: return "measured";
    case Status::kOfficial: return "official";
    case Status::kInferred: return "inferred";
    default: return "assumed";
  }
}

bool LdsInstruction::is_store() const {
  return name.rfind("ds_write", 0) == 0 || name.rfind("STS", 0) == 0;
}

const LdsInstruction& Arch::instruction(const std::string& n) const {
  for (const LdsInstruction& i : instructions)
    if (i.name == n) return i;
  std::string known;
  for (const LdsInstruction& i : instructions) known += (known.empty() ? "" : " ") + i.name;
  throw ArchError("unknown instruction '" + n + "' for " + name + " (known: " + known + ")");
}

const MfmaInstruction* Arch::find_mfma(std::string_view n) const {
  for (const MfmaInstruction& m : mfma)
    if (m.name == n) return &m;
  return nullptr;
}

namespace {
// A [chip] figure as a number; 0 when the file does not give it.
double chip_figure(const Arch& a, const std::string& key) {
  for (const auto& [k, v] : a.figures)
    if (k == key) return std::atof(v.c_str());
  return 0;
}
}  // namespace

int chip_cus(const Arch& a) {
  const double cus = chip_figure(a, "chip.xcds") * chip_figure(a, "chip.cus_per_xcd");
  if (cus < 1) throw ArchError(a.file + ": chip.xcds and chip.cus_per_xcd are needed for the chip's CUs");
  return static_cast<int>(cus);
}

int chip_xcds(const Arch& a) {
  const double x = chip_figure(a, "chip.xcds");
  if (x < 1) throw ArchError(a.file + ": chip.xcds is needed");
  return static_cast<int>(x);
}

double peak_clock_mhz(const Arch& a) {
  const double mhz = chip_figure(a, "chip.peak_clock_mhz");
  if (mhz <= 0) throw ArchError(a.file + ": chip.peak_clock_mhz is needed");
  return mhz;
}

double hbm_bytes_per_clock(const Arch& a) {
  const double hbm = chip_figure(a, "chip.hbm_tb_per_s"), peak_mhz = chip_figure(a, "chip.peak_clock_mhz");
  if (hbm <= 0 || peak_mhz <= 0)
    throw ArchError(a.file + ": chip.hbm_tb_per_s and peak_clock_mhz are needed for the memory bandwidth");
  return hbm * 1e12 / ((a.has_timing ? a.timing.clock_mhz : peak_mhz) * 1e6);
}

double hbm_sustained_bytes_per_clock(const Arch& a) {
  const double peak = hbm_bytes_per_clock(a);
  if (!a.has_memory || a.memory.hbm_refresh_interval_ns <= 0) return peak;
  return peak * (1 - a.memory.hbm_refresh_ns / a.memory.hbm_refresh_interval_ns);
}

double memory_bytes_per_clock_per_cu(const Arch& a, double busy_cus) {
  const double hbm = chip_figure(a, "chip.hbm_tb_per_s"), peak_mhz = chip_figure(a, "chip.peak_clock_mhz");
  if (hbm <= 0 || peak_mhz <= 0)
    throw ArchError(a.file + ": chip.hbm_tb_per_s and peak_clock_mhz are needed for the memory bandwidth");
  const double mhz = a.has_timing ? a.timing.clock_mhz : peak_mhz;
  const double busy = std::clamp(busy_cus, 1.0, static_cast<double>(chip_cus(a)));
  const double share = hbm * 1e12 / (mhz * 1e6) / busy;
  return a.has_timing ? std::min(share, a.timing.l1_bytes_per_clock) : share;
}

int Timing::read_wait_states(int passes) const {
  int best = 0;
  for (const auto& [p, w] : mfma_read_wait_states) {
    best = w;
    if (p >= passes) break;
  }
  return best;
}

namespace {

// Errors name file:line and the dotted key.
class Reader {
 public:
  Reader(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(const toml::node* at, const std::string& key, const std::string& what) const {
    std::string where = file_;
    if (at && at->source().begin.line) where += ":" + std::to_string(at->source().begin.line);
    throw ArchError(where + ": " + key + ": " + what);
  }

  const toml::table& table(const toml::table& parent, const std::string& key, const std::string& path) const {
    const toml::node* n = parent.get(key);
    if (!n) fail(&parent, path.empty() ? key : path + "." + key, "missing table");
    if (!n->is_table()) fail(n, path.empty() ? key : path + "." + key, "must be a table");
    return *n->as_table();
  }

  void only(const toml::table& t, const std::string& path, std::initializer_list<const char*> allowed) const {
    for (const auto& [k, v] : t) {
      std::string key(k.str());
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }))
        fail(&v, path.empty() ? key : path + "." + key, "unknown key");
    }
  }

  long long integer(const toml::table& t, const std::string& path, const char* key, bool required = true,
                    long long fallback = 0) const {
    const toml::node* n = t.get(key);
    std::string full = path + "." + key;
    if (!n) {
      if (required) fail(&t, full, "missing");
      return fallback;
    }
    auto v = n->value<long long>();
    if (!n->is_integer() || !v) fail(n, full, "must be an integer");
    if (*v <= 0) fail(n, full, "must be positive");
    return *v;
  }

  std::string string(const toml::table& t, const std::string& path, const char* key) const {
    const toml::node* n = t.get(key);
    std::string full = path.empty() ? key : path + "." + key;
    if (!n) fail(&t, full, "missing");
    if (!n->is_string()) fail(n, full, "must be a string");
    return std::string(**n->as_string());
  }

  // "0-3,12-15,20-27" -> lanes
  std::vector<int> lanes(const toml::node& n, const std::string& key, int wave) const {
    if (!n.is_string()) fail(&n, key, "a phase is a string of lane ranges such as \"0-3,12-15\"");
    std::string s(**n.as_string());
    std::vector<int> out;
    std::stringstream ss(s);
    std::string part;
    while (std::getline(ss, part, ',')) {
      std::size_t dash = part.find('-');
      try {
        std::size_t used = 0;
        int lo = std::stoi(part.substr(0, dash), &used);
        int hi = dash == std::string::npos ? lo : std::stoi(part.substr(dash + 1));
        if (lo > hi || lo < 0 || hi >= wave) throw std::out_of_range("lane");
        for (int l = lo; l <= hi; ++l) out.push_back(l);
      } catch (const std::exception&) {
        fail(&n, key, "bad lane range '" + part + "' (lanes 0.." + std::to_string(wave - 1) + ")");
      }
    }
    return out;
  }

 private:
  std::string file_;
};

std::string text_of(const toml::node& n) {
  std::ostringstream s;
  if (n.is_string()) s << **n.as_string();
  else if (n.is_integer()) s << **n.as_integer();
  else if (n.is_floating_point()) s << **n.as_floating_point();
  else if (const toml::array* arr = n.as_array()) s << *arr;
  else s << "?";
  return s.str();
}

LdsInstruction read_instruction(const Reader& r, const std::string& name, const toml::node& node, const Arch& a) {
  std::string path = "instructions." + name;
  if (!node.is_table()) r.fail(&node, path, "must be a table");
  const toml::table& t = *node.as_table();
  r.only(t, path, {"bytes", "phases", "bank_period", "pair_merge", "status", "source"});
  LdsInstruction ins;
  ins.name = name;
  ins.bytes = static_cast<int>(r.integer(t, path, "bytes"));
  if (ins.bytes != 1 && ins.bytes != 2 && (ins.bytes % 4 != 0 || ins.bytes > 16))
    r.fail(t.get("bytes"), path + ".bytes", "must be 1, 2, 4, 8, 12 or 16");
  ins.bank_period = static_cast<int>(r.integer(t, path, "bank_period", false, a.lds.banks));
  if (ins.bank_period > a.lds.banks || a.lds.banks % ins.bank_period != 0)
    r.fail(t.get("bank_period"), path + ".bank_period", "must divide the " + std::to_string(a.lds.banks) + " banks");
  const toml::node* ph = t.get("phases");
  if (!ph) r.fail(&t, path + ".phases", "missing");
  if (!ph->is_array() || ph->as_array()->empty()) r.fail(ph, path + ".phases", "must be a non-empty array");
  std::vector<int> owner(a.wave_size, -1);
  for (std::size_t p = 0; p < ph->as_array()->size(); ++p) {
    const toml::node& pn = *ph->as_array()->get(p);
    ins.phases.push_back(r.lanes(pn, path + ".phases", a.wave_size));
    for (int l : ins.phases.back()) {
      if (owner[l] >= 0)
        r.fail(&pn, path + ".phases", "lane " + std::to_string(l) + " is in phases " + std::to_string(owner[l]) +
                                          " and " + std::to_string(p));
      owner[l] = static_cast<int>(p);
    }
  }
  for (int l = 0; l < a.wave_size; ++l)
    if (owner[l] < 0) r.fail(ph, path + ".phases", "lane " + std::to_string(l) + " is in no phase");
  if (const toml::node* qm = t.get("pair_merge")) {
    if (!qm->is_array()) r.fail(qm, path + ".pair_merge", "must be an array of phase-index arrays");
    for (const toml::node& set : *qm->as_array()) {
      if (!set.is_array()) r.fail(&set, path + ".pair_merge", "must be an array of phase-index arrays");
      std::vector<int> idx;
      for (const toml::node& i : *set.as_array()) {
        auto v = i.value<long long>();
        if (!i.is_integer() || !v || *v < 0 || *v >= static_cast<long long>(ins.phases.size()))
          r.fail(&i, path + ".pair_merge", "phase index out of range");
        idx.push_back(static_cast<int>(*v));
      }
      ins.pair_merge.push_back(idx);
    }
  }
  std::string status = r.string(t, path, "status");
  if (status == "measured") ins.status = Status::kMeasured;
  else if (status == "official") ins.status = Status::kOfficial;
  else if (status == "inferred") ins.status = Status::kInferred;
  else if (status == "assumed") ins.status = Status::kAssumed;
  else r.fail(t.get("status"), path + ".status", "must be measured, official, inferred or assumed");
  ins.source = r.string(t, path, "source");
  return ins;
}


// A figure { value = ..., status = "...", source = "..." }: its name, status
// and source; `value` set to its value node (not read).
TimingFigure read_figure_meta(const Reader& r, const toml::node& v, const std::string& key, const std::string& path,
                              const toml::node*& value) {
  if (!v.is_table()) r.fail(&v, path, "must be { value = ..., status = \"...\", source = \"...\" }");
  const toml::table& f = *v.as_table();
  r.only(f, path, {"value", "status", "source"});
  TimingFigure fig;
  fig.name = key;
  fig.source = r.string(f, path, "source");
  const std::string status = r.string(f, path, "status");
  if (status == "official") fig.status = Status::kOfficial;
  else if (status == "measured") fig.status = Status::kMeasured;
  else if (status == "inferred") fig.status = Status::kInferred;
  else if (status == "assumed") fig.status = Status::kAssumed;
  else r.fail(f.get("status"), path + ".status", "must be official, measured, inferred or assumed");
  value = f.get("value");
  if (!value) r.fail(&f, path + ".value", "missing");
  return fig;
}

// A figure whose value is a number in [0, 1e9] (positive unless zero_ok).
TimingFigure read_figure(const Reader& r, const toml::node& v, const std::string& key, const std::string& path,
                         bool zero_ok) {
  const toml::node* value = nullptr;
  TimingFigure fig = read_figure_meta(r, v, key, path, value);
  std::optional<double> x = value->value<double>();
  if (!x || !(value->is_integer() || value->is_floating_point())) r.fail(value, path + ".value", "must be a number");
  if (!(*x >= 0) || *x > 1e9) r.fail(value, path + ".value", "must be between 0 and 1e9");
  if (*x == 0 && !zero_ok) r.fail(value, path + ".value", "must be positive");
  fig.value = *x;
  return fig;
}

// The value of figure `key` of a section; the loader's error when it is missing.
double figure_value(const Reader& r, const toml::table& t, const std::vector<TimingFigure>& figures,
                    const std::string& section, const char* key) {
  for (const TimingFigure& f : figures)
    if (f.name == key) return f.value;
  r.fail(&t, section + "." + key, "missing (the cycle model needs every " + section + " figure)");
}

// Figures in the order the file writes them (a table iterates by key).
void sort_as_written(const toml::table& t, std::vector<TimingFigure>& figures) {
  std::stable_sort(figures.begin(), figures.end(), [&](const TimingFigure& x, const TimingFigure& y) {
    return t.get(x.name)->source().begin.line < t.get(y.name)->source().begin.line;
  });
}

// [memory]: the chip below the L1s, every key a figure.
void read_memory(const Reader& r, const toml::table& t, Arch& a) {
  static const char* const kKeys[] = {
      "l2_bytes", "l2_ways", "l2_channels", "l2_read_bytes_per_clock", "l2_write_bytes_per_clock", "l2_latency",
      "fabric_bytes_per_clock", "mall_bytes", "mall_ways", "mall_channels", "mall_channel_bytes_per_clock",
      "mall_latency", "hbm_stacks", "hbm_interleave_bytes", "hbm_channels_per_stack", "hbm_channel_interleave_bytes",
      "hbm_refresh_ns", "hbm_refresh_interval_ns", "hbm_latency", "launch_cycles"};
  MemorySystem& m = a.memory;
  for (const auto& [k, v] : t) {
    const std::string key(k.str()), path = "memory." + key;
    if (std::none_of(std::begin(kKeys), std::end(kKeys), [&](const char* x) { return key == x; }))
      r.fail(&v, path, "unknown memory figure");
    m.figures.push_back(read_figure(r, v, key, path, key == "launch_cycles" || key == "hbm_refresh_ns"));
  }
  auto get = [&](const char* key) { return figure_value(r, t, m.figures, "memory", key); };
  auto i = [&](const char* key) { return static_cast<int>(get(key)); };
  m.l2_bytes = i("l2_bytes");
  m.l2_ways = i("l2_ways");
  m.l2_channels = i("l2_channels");
  m.l2_read_bytes_per_clock = get("l2_read_bytes_per_clock");
  m.l2_write_bytes_per_clock = get("l2_write_bytes_per_clock");
  m.l2_latency = i("l2_latency");
  m.fabric_bytes_per_clock = get("fabric_bytes_per_clock");
  m.mall_bytes = static_cast<long long>(get("mall_bytes"));
  m.mall_ways = i("mall_ways");
  m.mall_channels = i("mall_channels");
  m.mall_channel_bytes_per_clock = get("mall_channel_bytes_per_clock");
  m.mall_latency = i("mall_latency");
  m.hbm_stacks = i("hbm_stacks");
  m.hbm_interleave_bytes = i("hbm_interleave_bytes");
  m.hbm_channels_per_stack = i("hbm_channels_per_stack");
  m.hbm_channel_interleave_bytes = i("hbm_channel_interleave_bytes");
  m.hbm_refresh_ns = get("hbm_refresh_ns");
  m.hbm_refresh_interval_ns = get("hbm_refresh_interval_ns");
  m.hbm_latency = i("hbm_latency");
  m.launch_cycles = i("launch_cycles");
  sort_as_written(t, m.figures);
  const int line = a.timing.l1_line_bytes;
  if (m.hbm_stacks < 1) r.fail(t.get("hbm_stacks"), "memory.hbm_stacks", "must be at least 1");
  if (m.hbm_channels_per_stack < 1)
    r.fail(t.get("hbm_channels_per_stack"), "memory.hbm_channels_per_stack", "must be at least 1");
  if (m.mall_channels < 1 || m.mall_channels % m.hbm_stacks)
    r.fail(t.get("mall_channels"), "memory.mall_channels", "must be a positive multiple of hbm_stacks");
  if (m.l2_bytes % (line * m.l2_ways))
    r.fail(t.get("l2_bytes"), "memory.l2_bytes", "must be a multiple of timing.l1_line_bytes x l2_ways");
  if (m.mall_bytes % (static_cast<long long>(line) * m.mall_ways * m.mall_channels))
    r.fail(t.get("mall_bytes"), "memory.mall_bytes", "must be a multiple of the line x mall_ways x mall_channels");
  // The address map folds block numbers: every interleave a power of two, at least a line.
  auto power_of_two_blocks = [&](const char* key, int bytes) {
    if (bytes < line || (bytes & (bytes - 1)))
      r.fail(t.get(key), std::string("memory.") + key, "must be a power of two of at least timing.l1_line_bytes");
  };
  power_of_two_blocks("hbm_interleave_bytes", m.hbm_interleave_bytes);
  power_of_two_blocks("hbm_channel_interleave_bytes", m.hbm_channel_interleave_bytes);
  if (!(m.hbm_refresh_ns >= 0 && m.hbm_refresh_ns < m.hbm_refresh_interval_ns))
    r.fail(t.get("hbm_refresh_ns"), "memory.hbm_refresh_ns", "must be at least 0 and below hbm_refresh_interval_ns");
  if (!(m.l2_latency >= a.timing.l1_latency && m.mall_latency >= m.l2_latency && m.hbm_latency >= m.mall_latency))
    r.fail(&t, "memory", "latencies must grow with distance (timing.l1_latency <= l2 <= mall <= hbm)");
}

// [timing]: every key an inline table { value = N, status = "...", source = "..." }.
void read_timing(const Reader& r, const toml::table& t, Arch& a) {
  static const char* const kKeys[] = {
      "clock_mhz", "issue_period", "valu_cycles", "valu_latency", "trans_cycles", "trans_latency",
      "mfma_valu_bytes_per_slot", "mfma_pk_valu_extra_slots", "smfmac_valu_slot",
      "smem_latency", "instruction_cache_bytes", "instruction_cache_ways", "scalar_cache_bytes", "scalar_cache_ways",
      "sqc_line_bytes", "instruction_prefetch_lines", "branch_taken_cycles", "barrier_cycles", "sleep_cycles", "simds_per_lds_port", "lds_port_bytes_per_clock",
      "lds_latency", "lds_queue_depth", "vmem_issue_cycles", "l1_bytes", "l1_line_bytes", "l1_ways",
      "l1_bytes_per_clock", "l1_latency", "memory_latency", "vmem_inflight_bytes",
      "vmcnt_max", "lgkmcnt_max", "expcnt_max", "mfma_read_wait_states", "mfma_srcc_overlap_extra"};
  Timing& g = a.timing;
  for (const auto& [k, v] : t) {
    const std::string key(k.str()), path = "timing." + key;
    if (std::none_of(std::begin(kKeys), std::end(kKeys), [&](const char* x) { return key == x; }))
      r.fail(&v, path, "unknown timing figure");
    if (key != "mfma_read_wait_states") {
      const bool zero_ok = key == "mfma_srcc_overlap_extra" || key.find("latency") != std::string::npos ||
                           key.find("_cycles") != std::string::npos || key == "mfma_pk_valu_extra_slots" ||
                           key == "instruction_prefetch_lines";
      g.figures.push_back(read_figure(r, v, key, path, zero_ok));
      continue;
    }
    const toml::node* value = nullptr;
    TimingFigure fig = read_figure_meta(r, v, key, path, value);
    const toml::array* arr = value->as_array();
    if (!arr || arr->empty()) r.fail(value, path + ".value", "an array of [passes, wait states]");
    for (const toml::node& e : *arr) {
      const toml::array* pair = e.as_array();
      if (!pair || pair->size() != 2 || !pair->get(0)->is_integer() || !pair->get(1)->is_integer() ||
          **pair->get(0)->as_integer() <= 0 || **pair->get(1)->as_integer() < 0)
        r.fail(&e, path + ".value", "each entry is [passes, wait states], passes ascending");
      const int p = static_cast<int>(**pair->get(0)->as_integer()), w = static_cast<int>(**pair->get(1)->as_integer());
      if (!g.mfma_read_wait_states.empty() && p <= g.mfma_read_wait_states.back().first)
        r.fail(&e, path + ".value", "passes must ascend");
      g.mfma_read_wait_states.emplace_back(p, w);
    }
    fig.value = g.mfma_read_wait_states.back().second;
    g.figures.push_back(fig);
  }
  auto get = [&](const char* key) { return figure_value(r, t, g.figures, "timing", key); };
  auto i = [&](const char* key) { return static_cast<int>(get(key)); };
  g.clock_mhz = get("clock_mhz");
  g.issue_period = i("issue_period");
  g.valu_cycles = i("valu_cycles");
  g.valu_latency = i("valu_latency");
  g.trans_cycles = i("trans_cycles");
  g.trans_latency = i("trans_latency");
  g.mfma_valu_bytes_per_slot = i("mfma_valu_bytes_per_slot");
  g.mfma_pk_valu_extra_slots = i("mfma_pk_valu_extra_slots");
  g.smfmac_valu_slot = i("smfmac_valu_slot");
  g.smem_latency = i("smem_latency");
  g.instruction_cache_bytes = i("instruction_cache_bytes");
  g.instruction_cache_ways = i("instruction_cache_ways");
  g.scalar_cache_bytes = i("scalar_cache_bytes");
  g.scalar_cache_ways = i("scalar_cache_ways");
  g.sqc_line_bytes = i("sqc_line_bytes");
  g.instruction_prefetch_lines = i("instruction_prefetch_lines");
  g.branch_taken_cycles = i("branch_taken_cycles");
  g.barrier_cycles = i("barrier_cycles");
  g.sleep_cycles = i("sleep_cycles");
  g.simds_per_lds_port = i("simds_per_lds_port");
  g.lds_port_bytes_per_clock = i("lds_port_bytes_per_clock");
  g.lds_latency = i("lds_latency");
  g.lds_queue_depth = i("lds_queue_depth");
  g.vmem_issue_cycles = i("vmem_issue_cycles");
  g.l1_bytes = i("l1_bytes");
  g.l1_line_bytes = i("l1_line_bytes");
  g.l1_ways = i("l1_ways");
  g.l1_bytes_per_clock = get("l1_bytes_per_clock");
  g.l1_latency = i("l1_latency");
  g.memory_latency = i("memory_latency");
  g.vmem_inflight_bytes = i("vmem_inflight_bytes");
  g.vmcnt_max = i("vmcnt_max");
  g.lgkmcnt_max = i("lgkmcnt_max");
  g.expcnt_max = i("expcnt_max");
  get("mfma_read_wait_states");
  g.mfma_srcc_overlap_extra = i("mfma_srcc_overlap_extra");
  sort_as_written(t, g.figures);
  if (g.issue_period != a.simds_per_cu)
    r.fail(t.get("issue_period"), "timing.issue_period", "must equal chip.simds_per_cu (one SIMD visited per clock)");
  if (a.simds_per_cu % g.simds_per_lds_port)
    r.fail(t.get("simds_per_lds_port"), "timing.simds_per_lds_port", "must divide chip.simds_per_cu");
  if (g.l1_line_bytes & (g.l1_line_bytes - 1)) r.fail(t.get("l1_line_bytes"), "timing.l1_line_bytes", "must be a power of two");
  if (g.l1_bytes % (g.l1_line_bytes * g.l1_ways))
    r.fail(t.get("l1_bytes"), "timing.l1_bytes", "must be a multiple of l1_line_bytes x l1_ways");
  if (g.sqc_line_bytes & (g.sqc_line_bytes - 1) || g.sqc_line_bytes > g.l1_line_bytes)
    r.fail(t.get("sqc_line_bytes"), "timing.sqc_line_bytes", "must be a power of two of at most l1_line_bytes");
  if (g.instruction_cache_bytes % (g.sqc_line_bytes * g.instruction_cache_ways))
    r.fail(t.get("instruction_cache_bytes"), "timing.instruction_cache_bytes", "must be a multiple of sqc_line_bytes x instruction_cache_ways");
  if (g.scalar_cache_bytes % (g.sqc_line_bytes * g.scalar_cache_ways))
    r.fail(t.get("scalar_cache_bytes"), "timing.scalar_cache_bytes", "must be a multiple of sqc_line_bytes x scalar_cache_ways");
  if (g.lgkmcnt_max > 63 || g.vmcnt_max > 63 || g.expcnt_max > 63)
    r.fail(&t, "timing", "waitcnt maximums above 63 are not modelled");
}

}  // namespace

Arch parse_arch(const std::string& text, const std::string& file) {
  if (const std::optional<std::string> problem = toml_text_problem(text, file)) throw ArchError(*problem);
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw ArchError(file + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  Reader r(file);
  r.only(root, "", {"name", "vendor", "description", "chip", "registers", "lds", "instructions", "mfma", "timing", "memory"});
  Arch a;
  a.file = file;
  a.text = text;
  a.name = r.string(root, "", "name");
  a.vendor = r.string(root, "", "vendor");
  if (a.vendor != "amd" && a.vendor != "nvidia") r.fail(root.get("vendor"), "vendor", "must be amd or nvidia");
  a.description = r.string(root, "", "description");

  const toml::table& chip = r.table(root, "chip", "");
  r.only(chip, "chip", {"xcds", "cus_per_xcd", "simds_per_cu", "lanes_per_simd", "wave_size", "wave_slots_per_simd",
                        "peak_clock_mhz", "hbm_gib", "hbm_tb_per_s", "l2_mib_per_xcd", "infinity_cache_mib",
                        "l1_kib_per_cu", "max_workgroup_size", "sms", "sub_partitions_per_sm"});
  for (const auto& [k, v] : chip) a.figures.emplace_back("chip." + std::string(k.str()), text_of(v));
  a.wave_size = static_cast<int>(r.integer(chip, "chip", "wave_size"));
  if (a.wave_size != 32 && a.wave_size != 64) r.fail(chip.get("wave_size"), "chip.wave_size", "must be 32 or 64");
  bool amd = a.vendor == "amd";
  a.simds_per_cu = static_cast<int>(r.integer(chip, "chip", "simds_per_cu", amd));
  a.wave_slots_per_simd = static_cast<int>(r.integer(chip, "chip", "wave_slots_per_simd", amd));
  a.max_workgroup_size = static_cast<int>(r.integer(chip, "chip", "max_workgroup_size", amd));

  if (amd || root.get("registers")) {
    const toml::table& reg = r.table(root, "registers", "");
    r.only(reg, "registers", {"vgprs_per_simd_lane", "max_arch_vgprs", "max_agprs", "vgpr_granule",
                              "agpr_offset_alignment", "max_sgprs", "sgpr_occupancy"});
    a.has_registers = true;
    Registers& g = a.registers;
    g.vgprs_per_simd_lane = static_cast<int>(r.integer(reg, "registers", "vgprs_per_simd_lane"));
    g.max_arch_vgprs = static_cast<int>(r.integer(reg, "registers", "max_arch_vgprs"));
    g.max_agprs = static_cast<int>(r.integer(reg, "registers", "max_agprs"));
    g.vgpr_granule = static_cast<int>(r.integer(reg, "registers", "vgpr_granule"));
    g.agpr_offset_alignment = static_cast<int>(r.integer(reg, "registers", "agpr_offset_alignment"));
    g.max_sgprs = static_cast<int>(r.integer(reg, "registers", "max_sgprs"));
    const toml::node* occ = reg.get("sgpr_occupancy");
    if (!occ || !occ->is_array()) r.fail(occ ? occ : &reg, "registers.sgpr_occupancy", "missing array of [sgprs, waves]");
    for (const toml::node& e : *occ->as_array()) {
      const toml::array* pair = e.as_array();
      if (!pair || pair->size() != 2 || !pair->get(0)->is_integer() || !pair->get(1)->is_integer())
        r.fail(&e, "registers.sgpr_occupancy", "each entry is [at most N SGPRs, waves per SIMD]");
      g.sgpr_occupancy.emplace_back(static_cast<int>(**pair->get(0)->as_integer()),
                                    static_cast<int>(**pair->get(1)->as_integer()));
    }
    for (const auto& [k, v] : reg) a.figures.emplace_back("registers." + std::string(k.str()), text_of(v));
  }

  const toml::table& lds = r.table(root, "lds", "");
  r.only(lds, "lds", {"bytes_per_cu", "allocation_granule", "banks", "bank_bytes", "bytes_per_clock",
                      "max_workgroups_per_cu"});
  for (const auto& [k, v] : lds) a.figures.emplace_back("lds." + std::string(k.str()), text_of(v));
  a.lds.bytes_per_cu = r.integer(lds, "lds", "bytes_per_cu");
  a.lds.allocation_granule = r.integer(lds, "lds", "allocation_granule", amd);
  a.lds.banks = static_cast<int>(r.integer(lds, "lds", "banks"));
  a.lds.bank_bytes = static_cast<int>(r.integer(lds, "lds", "bank_bytes"));
  if (a.lds.bank_bytes != 4) r.fail(lds.get("bank_bytes"), "lds.bank_bytes", "only 4-byte banks are modelled");
  if (a.lds.banks > 64) r.fail(lds.get("banks"), "lds.banks", "at most 64 banks are modelled");

  const toml::table& ins = r.table(root, "instructions", "");
  std::vector<std::pair<std::uint32_t, LdsInstruction>> in_order;  // toml++ iterates keys sorted; keep file order
  for (const auto& [k, v] : ins) in_order.emplace_back(v.source().begin.line, read_instruction(r, std::string(k.str()), v, a));
  std::stable_sort(in_order.begin(), in_order.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (auto& [line, i] : in_order) a.instructions.push_back(std::move(i));
  if (a.instructions.empty()) r.fail(&ins, "instructions", "no instruction described");

  if (const toml::node* mf = root.get("mfma")) {
    if (!mf->is_table()) r.fail(mf, "mfma", "must be a table");
    std::vector<std::pair<std::uint32_t, MfmaInstruction>> mfma;
    for (const auto& [k, v] : *mf->as_table()) {
      std::string path = "mfma." + std::string(k.str());
      if (!v.is_table()) r.fail(&v, path, "must be a table");
      const toml::table& t = *v.as_table();
      r.only(t, path, {"m", "n", "k", "cycles", "cycles_fp6_fp4", "source"});
      MfmaInstruction i;
      i.name = std::string(k.str());
      i.m = static_cast<int>(r.integer(t, path, "m"));
      i.n = static_cast<int>(r.integer(t, path, "n"));
      i.k = static_cast<int>(r.integer(t, path, "k"));
      i.cycles = static_cast<int>(r.integer(t, path, "cycles"));
      i.cycles_fp6_fp4 = t.contains("cycles_fp6_fp4") ? static_cast<int>(r.integer(t, path, "cycles_fp6_fp4")) : i.cycles;
      i.source = r.string(t, path, "source");
      // The table's source covers all its keys (the shape and the cycles): it
      // must carry the grade of the figure.
      if (!(i.source.rfind("[O]", 0) == 0 || i.source.rfind("[M]", 0) == 0 || i.source.rfind("[I]", 0) == 0 ||
            i.source.rfind("[?]", 0) == 0))
        r.fail(t.get("source"), path + ".source", "must start with its grade: [O], [M], [I] or [?]");
      mfma.emplace_back(v.source().begin.line, i);
    }
    std::stable_sort(mfma.begin(), mfma.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (auto& [line, i] : mfma) a.mfma.push_back(i);
  }
  if (const toml::node* tm = root.get("timing")) {
    if (!tm->is_table()) r.fail(tm, "timing", "must be a table");
    if (a.vendor != "amd" || !a.has_registers) r.fail(tm, "timing", "the cycle model covers AMD CDNA architectures only");
    read_timing(r, *tm->as_table(), a);
    a.has_timing = true;
    if (const toml::node* mem = root.get("memory")) {
      if (!mem->is_table()) r.fail(mem, "memory", "must be a table");
      read_memory(r, *mem->as_table(), a);
      a.has_memory = true;
    }
  } else if (const toml::node* mem = root.get("memory")) {
    r.fail(mem, "memory", "needs a [timing] part (the chip model is part of the cycle model)");
  }
  return a;
}

std::vector<std::string> builtin_arch_names() {
  std::vector<std::string> names;
  for (int i = 0; i < kEmbeddedArchCount; ++i) names.push_back(kEmbeddedArchs[i].name);
  return names;
}

Arch load_arch(const std::string& name_or_path) {
  for (int i = 0; i < kEmbeddedArchCount; ++i)
    if (name_or_path == kEmbeddedArchs[i].name)
      return parse_arch(kEmbeddedArchs[i].text, "<built-in>/" + name_or_path + ".toml");
  if (name_or_path.find('/') == std::string::npos && name_or_path.find(".toml") == std::string::npos) {
    std::string known;
    for (const std::string& n : builtin_arch_names()) known += (known.empty() ? "" : " ") + n;
    throw ArchError("unknown architecture '" + name_or_path + "' (built in: " + known + "; or give a .toml path)");
  }
  std::error_code ec;  // only a regular file: a FIFO would block forever
  if (std::filesystem::exists(name_or_path, ec) && !std::filesystem::is_regular_file(name_or_path, ec))
    throw ArchError("architecture file '" + name_or_path + "' is not a regular file");
  std::ifstream in(name_or_path, std::ios::binary);
  if (!in) throw ArchError("cannot read architecture file '" + name_or_path + "'");
  // Bounded: an arch file is a few KiB; /dev/zero or a wrong path must not fill memory.
  constexpr std::size_t kMaxArchFileBytes = 1 << 20;
  std::string text(kMaxArchFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxArchFileBytes)
    throw ArchError(name_or_path + ": larger than " + std::to_string(kMaxArchFileBytes >> 20) +
                    " MiB: not an architecture description");
  return parse_arch(text, name_or_path);
}

std::string describe(const Arch& a) {
  std::ostringstream o;
  o << a.name << " — " << a.description << "  (" << a.file << ")\n";
  for (const auto& [k, v] : a.figures) o << "  " << k << " = " << v << (v == "unknown" ? "   [not known; not used]" : "") << "\n";
  o << "LDS instructions (phases: lanes served together):\n";
  for (const LdsInstruction& i : a.instructions) {
    o << "  " << i.name << ": " << i.bytes << " B/lane, " << i.phases.size() << " phase"
      << (i.phases.size() == 1 ? "" : "s") << ", bank period " << i.bank_period;
    if (!i.pair_merge.empty()) o << ", pair merge";
    o << ", " << to_string(i.status) << (i.status == Status::kAssumed ? " (NOT KNOWN: assumption)" : "") << "\n";
    o << "      phases:";
    for (const auto& p : i.phases) {
      std::string ranges;
      for (std::size_t k = 0; k < p.size();) {
        std::size_t e = k;
        while (e + 1 < p.size() && p[e + 1] == p[e] + 1) ++e;
        ranges += (ranges.empty() ? "" : ",") + std::to_string(p[k]) + (e > k ? "-" + std::to_string(p[e]) : "");
        k = e + 1;
      }
      o << " {" << ranges << "}";
    }
    o << "\n      source: " << i.source << "\n";
  }
  if (a.has_timing) {
    o << "Timing figures (the cycle model):\n";
    for (const TimingFigure& f : a.timing.figures) {
      o << "  " << f.name << " = ";
      if (f.name == "mfma_read_wait_states") {
        for (const auto& [p, w] : a.timing.mfma_read_wait_states) o << "[" << p << "," << w << "]";
      } else {
        o << f.value;
      }
      o << "   " << to_string(f.status) << (f.status == Status::kAssumed ? " (NOT KNOWN: assumption)" : "")
        << "  (" << f.source << ")\n";
    }
  }
  if (a.has_memory) {
    o << "Memory figures (the cycle model's chip: L2, fabric, MALL, HBM):\n";
    for (const TimingFigure& f : a.memory.figures)
      o << "  " << f.name << " = " << std::setprecision(12) << f.value << std::setprecision(6) << "   " << to_string(f.status)
        << (f.status == Status::kAssumed ? " (NOT KNOWN: assumption)" : "") << "  (" << f.source << ")\n";
  }
  if (!a.mfma.empty()) o << "MFMA instructions (per wave):\n";
  for (const MfmaInstruction& m : a.mfma)
    o << "  " << m.name << ": " << m.m << "x" << m.n << "x" << m.k << ", " << m.cycles << " cycles"
      << (m.cycles_fp6_fp4 != m.cycles ? " (" + std::to_string(m.cycles_fp6_fp4) + " with FP6/FP4 operands)" : "")
      << "  (" << m.source << ")\n";
  return o.str();
}

}  // namespace tilelab::arch
