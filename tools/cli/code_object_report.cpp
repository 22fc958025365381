#include "sim/timing/loop_bound.hpp"
#include "app/error_text.hpp"
#include "tools/cli/code_object_report.hpp"

#include "traces/analysis.hpp"

#include <algorithm>

#include <array>
#include <cstdio>
#include <cstring>
#include <string>

#include "sim/arch/arch.hpp"
#include "sim/emu/operands.hpp"
#include "sim/lds/occupancy.hpp"

namespace tilelab::cli {

namespace {
std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

using Counts = std::array<int, isa::kInstClassCount>;

void print_counts(std::ostream& out, const Counts& c) {
  bool first = true;
  for (int i = 0; i < isa::kInstClassCount; ++i) {
    if (!c[i]) continue;
    out << (first ? "" : ", ") << isa::class_name(static_cast<isa::InstClass>(i)) << ' ' << c[i];
    first = false;
  }
  out << "\n";
}

Counts count(const isa::Program& p, std::size_t first, std::size_t last) {
  Counts c{};
  for (std::size_t i = first; i <= last && i < p.instructions.size(); ++i) ++c[static_cast<int>(p.instructions[i].cls)];
  return c;
}
}  // namespace

void print_resources(std::ostream& out, const isa::CodeObject& co, const isa::Kernel& k, std::uint32_t dynamic_lds) {
  out << k.name << " (" << co.target << ")\n";
  out << "  registers: " << k.vgpr_count << " VGPRs, " << k.agpr_count << " AGPRs, " << k.sgpr_count << " SGPRs";
  if (k.vgpr_spill_count || k.sgpr_spill_count)
    out << " (spills: " << k.vgpr_spill_count << " VGPRs, " << k.sgpr_spill_count << " SGPRs)";
  out << "\n  LDS: " << k.group_segment_fixed_size << " bytes"
      << (dynamic_lds ? " + " + std::to_string(dynamic_lds) + " dynamic (set at launch)" : std::string()) << "; scratch: " << k.private_segment_fixed_size
      << " bytes/lane; code: " << k.code_size << " bytes; wave" << k.wavefront_size << ", at most "
      << k.max_flat_workgroup_size << " work-items per workgroup\n";
  out << "  arguments (" << k.kernarg_segment_size << " bytes):";
  int shown = 0;
  for (const auto& a : k.args) {
    if (a.value_kind.rfind("hidden_", 0) == 0) continue;
    out << (shown ? ", " : " ") << (a.name.empty() ? "arg" + std::to_string(shown) : a.name) << " @" << a.offset
        << " (" << a.size << " B, " << a.value_kind << ")";
    ++shown;
  }
  out << "\n";
  try {
    const arch::Arch a = arch::load_arch(co.arch);
    // Hand-written objects may state more SGPRs than a wave can address (a
    // rounded count): they are counted as the most there are.
    const int sgprs = std::min(k.sgpr_count, a.registers.max_sgprs);
    lds::KernelResources r{k.vgpr_count, k.agpr_count, sgprs, k.group_segment_fixed_size + dynamic_lds,
                           k.max_flat_workgroup_size};
    const lds::Occupancy o = lds::occupancy(a, r);
    out << "  occupancy (" << a.name << ", workgroups of " << k.max_flat_workgroup_size << "): "
        << o.workgroups_per_cu << " workgroup(s)/CU, " << o.waves_per_simd << " waves/SIMD, limited by "
        << o.limited_by;
    if (sgprs != k.sgpr_count)
      out << " (the metadata's " << k.sgpr_count << " SGPRs are more than a wave addresses: counted as " << sgprs << ")";
    out << "\n";
  } catch (const std::exception& e) {
    out << "  occupancy: not computed (" << error_text(e) << ")\n";
  }
}

void print_class_counts(std::ostream& out, const isa::Program& p) {
  out << "  instructions: " << p.instructions.size() << " in " << p.blocks.size() << " blocks, " << p.loops.size()
      << " loop(s)\n    whole kernel: ";
  print_counts(out, count(p, 0, p.instructions.size() - 1));
  for (std::size_t l = 0; l < p.loops.size(); ++l) {
    const auto& loop = p.loops[l];
    out << "    loop " << l + 1 << " (depth " << loop.depth << ", " << hex(p.instructions[loop.head].pc) << ".."
        << hex(p.instructions[loop.latch].pc) << ", " << loop.latch - loop.head + 1 << " instructions): ";
    print_counts(out, count(p, loop.head, loop.latch));
  }
}

void print_listing(std::ostream& out, const isa::Program& p, bool colour, const std::vector<std::string>& source) {
  const char* reset = colour ? "\033[0m" : "";
  std::string last_source;
  for (std::size_t i = 0; i < p.instructions.size(); ++i) {
    const auto& inst = p.instructions[i];
    for (std::size_t l = 0; l < p.loops.size(); ++l)
      if (p.loops[l].head == i) out << "        loop " << l + 1 << ":\n";
    if (const std::string cell = traces::source_cell(i < source.size() ? source[i] : "", last_source); !cell.empty())
      out << "        ; " << cell << "\n";
    std::string bars;
    for (const auto& loop : p.loops)
      if (loop.head <= i && i <= loop.latch) bars += "|";
    const bool mfma = inst.cls == isa::InstClass::MFMA;
    const bool lds = inst.cls == isa::InstClass::LDS || inst.cls == isa::InstClass::LDS_DMA;
    const char* mark = mfma ? "M" : lds ? "L" : " ";
    const char* on = !colour ? "" : mfma ? "\033[1;35m" : lds ? "\033[1;36m" : "";
    char head[64];
    std::snprintf(head, sizeof head, "%8llx  %-10s %-3s %s ", static_cast<unsigned long long>(inst.pc),
                  isa::class_name(inst.cls), bars.c_str(), mark);
    out << head << on << inst.text << (*on ? reset : "");
    if (inst.target >= 0) out << "  -> " << hex(static_cast<std::uint64_t>(inst.target));
    out << "\n";
  }
}

void print_loop_bounds(std::ostream& out, const isa::Program& p, const arch::Arch& a) {
  if (p.loops.empty()) {
    out << "  no loops: nothing repeats to bound\n";
    return;
  }
  out << "  per loop iteration, one wave of it on every SIMD (LDS conflict-free; global at "
      << timing::loop_bound_memory_share(a) << " B/clock per CU with every CU busy):\n";
  const std::vector<timing::LoopBound> bounds = timing::loop_bounds(p, a);
  for (std::size_t l = 0; l < bounds.size(); ++l) {
    const timing::LoopBound& b = bounds[l];
    char line[384];
    std::snprintf(line, sizeof line, "    loop %zu (%s..%s): MFMA %.0f, LDS %.0f, global %.0f cycles (%.0f bytes per wave)",
                  l + 1, hex(p.instructions[b.head].pc).c_str(), hex(p.instructions[b.latch].pc).c_str(), b.mfma_cycles,
                  b.lds_cycles, b.global_cycles, b.global_bytes);
    std::snprintf(line + std::strlen(line), sizeof line - std::strlen(line), "; bound %.0f cycles, %s", b.cycles,
                  b.limiter);
    out << line << "\n";
    if (b.unknown_mfma)
      out << "      (" << b.unknown_mfma << " MFMAs the " << a.name << " arch file does not describe: not counted)\n";
    if (b.unknown_lds) out << "      (" << b.unknown_lds << " LDS instructions without a phase table: counted as one pass)\n";
  }
}

}  // namespace tilelab::cli
