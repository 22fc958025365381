#include "tools/cli/error_text.hpp"
#include "tools/cli/code_object_report.hpp"

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

void print_listing(std::ostream& out, const isa::Program& p, bool colour) {
  const char* reset = colour ? "\033[0m" : "";
  for (std::size_t i = 0; i < p.instructions.size(); ++i) {
    const auto& inst = p.instructions[i];
    for (std::size_t l = 0; l < p.loops.size(); ++l)
      if (p.loops[l].head == i) out << "        loop " << l + 1 << ":\n";
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

namespace {

// Bytes per lane of a VMEM or LDS-DMA mnemonic (global_load_dwordx4: 16).
int lane_bytes(std::string_view m) {
  if (m.find("dwordx4") != std::string_view::npos) return 16;
  if (m.find("dwordx3") != std::string_view::npos) return 12;
  if (m.find("dwordx2") != std::string_view::npos) return 8;
  if (m.find("dword") != std::string_view::npos) return 4;
  if (m.find("short") != std::string_view::npos) return 2;
  if (m.find("byte") != std::string_view::npos) return 1;
  return 4;
}

// The LDS instruction the bank model costs, and how many of it: ds_read2_b64
// is two ds_read_b64 (as the emulator costs it).
std::pair<std::string, int> lds_access(const std::string& base) {
  for (const char* two : {"ds_read2st64_", "ds_read2_", "ds_write2st64_", "ds_write2_"}) {
    const std::string t(two);
    if (base.rfind(t, 0) == 0) {
      const bool read = t.find("read") != std::string::npos;
      return {std::string(read ? "ds_read_" : "ds_write_") + base.substr(t.size()), 2};
    }
  }
  return {base, 1};
}

}  // namespace

void print_loop_bounds(std::ostream& out, const isa::Program& p, const arch::Arch& a) {
  if (p.loops.empty()) {
    out << "  no loops: nothing repeats to bound\n";
    return;
  }
  const double share = arch::memory_bytes_per_clock_per_cu(a, 1e9);  // every CU busy
  const double pass_clocks = a.has_timing ? static_cast<double>(a.lds.banks * a.lds.bank_bytes) / a.timing.lds_port_bytes_per_clock : 1;
  const int simds = std::max(1, a.simds_per_cu);
  out << "  per loop iteration, one wave of it on every SIMD (LDS conflict-free; global at " << share
      << " B/clock per CU with every CU busy):\n";
  for (std::size_t l = 0; l < p.loops.size(); ++l) {
    const auto& loop = p.loops[l];
    double mfma = 0, lds = 0, bytes = 0;
    int unknown_mfma = 0, unknown_lds = 0;
    for (std::size_t i = loop.head; i <= loop.latch; ++i) {
      const isa::Instruction& in = p.instructions[i];
      if (in.cls != isa::InstClass::MFMA && in.cls != isa::InstClass::LDS && in.cls != isa::InstClass::VMEM_LOAD &&
          in.cls != isa::InstClass::VMEM_STORE && in.cls != isa::InstClass::LDS_DMA)
        continue;
      emu::ParsedText t;
      try {
        t = emu::parse_text(in.text);
      } catch (const emu::EmuError&) {
        t.base = std::string(in.mnemonic());
      }
      if (in.cls == isa::InstClass::MFMA) {
        const arch::MfmaInstruction* m = a.find_mfma(t.base);
        if (!m) {
          ++unknown_mfma;
          continue;
        }
        const bool fp8 = t.mods.cbsz <= 1 || t.mods.blgp <= 1;
        mfma += fp8 ? m->cycles : m->cycles_fp6_fp4;
      } else if (in.cls == isa::InstClass::LDS) {
        const auto [name, count] = lds_access(t.base);
        int passes = 1;
        const auto it = std::find_if(a.instructions.begin(), a.instructions.end(), [&](const auto& x) { return x.name == name; });
        if (it != a.instructions.end()) passes = static_cast<int>(it->phases.size());
        else ++unknown_lds;
        lds += count * passes * pass_clocks * 2;  // two SIMDs share a pair's port
      } else {
        bytes += 64.0 * lane_bytes(in.mnemonic());
      }
    }
    const double global = bytes * simds / share;
    const std::pair<double, const char*> parts[] = {{mfma, "MFMA"}, {lds, "LDS"}, {global, "global memory"}};
    const auto* most = std::max_element(std::begin(parts), std::end(parts), [](const auto& x, const auto& y) { return x.first < y.first; });
    char line[384];
    std::snprintf(line, sizeof line, "    loop %zu (%s..%s): MFMA %.0f, LDS %.0f, global %.0f cycles (%.0f bytes per wave)",
                  l + 1, hex(p.instructions[loop.head].pc).c_str(), hex(p.instructions[loop.latch].pc).c_str(), mfma, lds,
                  global, bytes);
    std::snprintf(line + std::strlen(line), sizeof line - std::strlen(line), "; bound %.0f cycles, %s", most->first,
                  most->first > 0 ? most->second : "nothing");
    out << line << "\n";
    if (unknown_mfma) out << "      (" << unknown_mfma << " MFMAs the " << a.name << " arch file does not describe: not counted)\n";
    if (unknown_lds) out << "      (" << unknown_lds << " LDS instructions without a phase table: counted as one pass)\n";
  }
}

}  // namespace tilelab::cli
