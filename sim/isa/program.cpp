#include "sim/isa/program.hpp"

#include <algorithm>

namespace tilelab::isa {

const char* class_name(InstClass c) {
  static constexpr const char* kNames[kInstClassCount] = {"SALU",   "SMEM",      "VALU",       "TRANS",  "MFMA",
                                                          "LDS",    "LDS-DMA",   "VMEM-load",  "VMEM-store",
                                                          "BRANCH", "WAITCNT",   "BARRIER",    "OTHER"};
  return kNames[static_cast<int>(c)];
}

const char* file_name(RegFile f) {
  static constexpr const char* kNames[] = {"s", "v", "a", "vcc", "exec", "m0", "scc", "ttmp", "special"};
  return kNames[static_cast<int>(f)];
}

namespace {
bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool has(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }
}  // namespace

// The rules, by the text llvm-objdump prints (mnemonic, then operands):
//  WAITCNT  s_waitcnt*;  BARRIER  s_barrier;
//  BRANCH   s_branch, s_cbranch_*, s_setpc/s_swappc/s_call, s_endpgm (it ends the wave);
//  SMEM     scalar memory: s_load*, s_buffer_load/store*, s_store*, s_scratch_*, s_dcache_*, s_memtime, s_memrealtime, s_atc_probe*;
//  OTHER    s_nop, s_sleep, s_setprio, s_sendmsg*, s_trap, s_icache_inv, s_sched_barrier-like hints, cache control (buffer_inv, buffer_wbl2, ...);
//  SALU     every other s_ instruction;
//  MFMA     v_mfma*, v_smfmac*;  TRANS  v_exp/log/rcp/rsq/sqrt/sin/cos (all widths);  VALU  every other v_;
//  LDS-DMA  global_load_lds_*, buffer_load_* with the lds modifier (memory to LDS, no VGPR result);
//  LDS      ds_*;
//  VMEM-load / VMEM-store   buffer_/global_/flat_/scratch_ loads / stores; atomics count as stores.
InstClass classify(std::string_view text) {
  const std::string_view m = text.substr(0, text.find(' '));
  if (starts(m, "s_")) {
    if (starts(m, "s_waitcnt")) return InstClass::WAITCNT;
    if (m == "s_barrier") return InstClass::BARRIER;
    if (m == "s_branch" || starts(m, "s_cbranch") || m == "s_setpc_b64" || m == "s_swappc_b64" ||
        m == "s_call_b64" || m == "s_endpgm")
      return InstClass::BRANCH;
    for (std::string_view p : {"s_load", "s_buffer_", "s_store", "s_scratch_", "s_dcache_", "s_memtime",
                               "s_memrealtime", "s_atc_probe"})
      if (starts(m, p)) return InstClass::SMEM;
    for (std::string_view p : {"s_nop", "s_sleep", "s_setprio", "s_sendmsg", "s_trap", "s_icache_inv", "s_ttrace",
                               "s_sethalt", "s_code_end", "s_endpgm_"})
      if (starts(m, p)) return InstClass::OTHER;
    return InstClass::SALU;
  }
  if (starts(m, "v_")) {
    if (starts(m, "v_mfma") || starts(m, "v_smfmac")) return InstClass::MFMA;
    for (std::string_view p : {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"})
      if (starts(m, p)) return InstClass::TRANS;
    return InstClass::VALU;
  }
  if (starts(m, "ds_")) return InstClass::LDS;
  if (starts(m, "buffer_") || starts(m, "global_") || starts(m, "flat_") || starts(m, "scratch_")) {
    const bool lds_modifier = text.size() >= 4 && (text.substr(text.size() - 4) == " lds" || has(text, " lds "));
    if (has(m, "_load_lds") || (has(m, "_load") && lds_modifier)) return InstClass::LDS_DMA;
    if (has(m, "_load")) return InstClass::VMEM_LOAD;
    if (has(m, "_store") || has(m, "_atomic")) return InstClass::VMEM_STORE;
    return InstClass::OTHER;
  }
  return InstClass::OTHER;
}

long Program::index_of(std::uint64_t pc) const {
  auto it = std::lower_bound(instructions.begin(), instructions.end(), pc,
                             [](const Instruction& i, std::uint64_t p) { return i.pc < p; });
  return it != instructions.end() && it->pc == pc ? it - instructions.begin() : -1;
}

int Program::loop_of(std::size_t i) const {
  int best = -1;
  for (std::size_t l = 0; l < loops.size(); ++l)
    if (loops[l].head <= i && i <= loops[l].latch && (best < 0 || loops[l].depth > loops[best].depth))
      best = static_cast<int>(l);
  return best;
}

namespace {
bool ends_block(const Instruction& inst) { return inst.cls == InstClass::BRANCH; }
bool falls_through(const Instruction& inst) {
  const auto m = inst.mnemonic();
  return !(m == "s_branch" || m == "s_endpgm" || m == "s_setpc_b64");
}
}  // namespace

namespace {
// Immediate dominators by Cooper, Harvey and Kennedy's iterative algorithm
// over reverse post-order; idom[b] == -1 for blocks unreachable from entry.
std::vector<std::vector<int>> predecessors(const Program& p) {
  std::vector<std::vector<int>> preds(p.blocks.size());
  for (std::size_t b = 0; b < p.blocks.size(); ++b)
    for (int s : p.blocks[b].successors) preds[s].push_back(static_cast<int>(b));
  return preds;
}

std::vector<int> dominators(const Program& p, const std::vector<std::vector<int>>& preds) {
  const int n = static_cast<int>(p.blocks.size());
  std::vector<int> order;  // post-order
  std::vector<char> seen(n, 0);
  std::vector<std::pair<int, std::size_t>> stack;
  if (n) {
    stack.push_back({0, 0});
    seen[0] = 1;
  }
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < p.blocks[b].successors.size()) {
      const int s = p.blocks[b].successors[next++];
      if (!seen[s]) {
        seen[s] = 1;
        stack.push_back({s, 0});
      }
    } else {
      order.push_back(b);
      stack.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());
  std::vector<int> rpo_index(n, -1);
  for (int i = 0; i < static_cast<int>(order.size()); ++i) rpo_index[order[i]] = i;
  std::vector<int> idom(n, -1);
  if (!n) return idom;
  idom[0] = 0;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (rpo_index[a] > rpo_index[b]) a = idom[a];
      while (rpo_index[b] > rpo_index[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 1; i < order.size(); ++i) {
      const int b = order[i];
      int d = -1;
      for (int q : preds[b])
        if (idom[q] >= 0) d = d < 0 ? q : intersect(q, d);
      if (d >= 0 && idom[b] != d) {
        idom[b] = d;
        changed = true;
      }
    }
  }
  return idom;
}

bool dominates(const std::vector<int>& idom, int a, int b) {
  if (idom[b] < 0) return false;
  for (;;) {
    if (a == b) return true;
    if (b == 0) return false;
    b = idom[b];
  }
}

// Natural loops: a back edge is an edge latch -> head where head dominates
// latch; the loop is every block that reaches a latch without passing the
// head.  Back edges sharing a head form one loop.
void find_loops(Program& p) {
  const std::vector<std::vector<int>> preds = predecessors(p);
  const std::vector<int> idom = dominators(p, preds);
  const int n = static_cast<int>(p.blocks.size());
  std::vector<std::pair<int, std::vector<char>>> bodies;  // head block, membership
  for (int b = 0; b < n; ++b)
    for (int h : p.blocks[b].successors) {
      if (!dominates(idom, h, b)) continue;
      auto it = std::find_if(bodies.begin(), bodies.end(), [h](const auto& x) { return x.first == h; });
      if (it == bodies.end()) {
        bodies.push_back({h, std::vector<char>(n, 0)});
        it = bodies.end() - 1;
        it->second[h] = 1;
      }
      std::vector<int> work{b};
      while (!work.empty()) {
        const int x = work.back();
        work.pop_back();
        if (it->second[x]) continue;
        it->second[x] = 1;
        for (int q : preds[x]) work.push_back(q);
      }
    }
  p.loops.clear();
  for (const auto& [h, in] : bodies) {
    Loop l{p.blocks[h].first, p.blocks[h].last, 1};
    for (int b = 0; b < n; ++b)
      if (in[b]) {
        l.head = std::min(l.head, p.blocks[b].first);
        l.latch = std::max(l.latch, p.blocks[b].last);
      }
    l.depth = 1;
    for (const auto& [h2, in2] : bodies)
      if (h2 != h && in2[h]) ++l.depth;
    p.loops.push_back(l);
  }
  std::sort(p.loops.begin(), p.loops.end(),
            [](const Loop& a, const Loop& b) { return a.head != b.head ? a.head < b.head : a.depth < b.depth; });
}
}  // namespace

void build_control_flow(Program& p) {
  auto& insts = p.instructions;
  const std::size_t n = insts.size();
  std::vector<char> leader(n, 0);
  if (n) leader[0] = 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (insts[i].target >= 0) {
      const long t = p.index_of(static_cast<std::uint64_t>(insts[i].target));
      if (t >= 0) leader[t] = 1;
    }
    if (ends_block(insts[i]) && i + 1 < n) leader[i + 1] = 1;
  }
  p.blocks.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (leader[i]) p.blocks.push_back({i, i, {}});
    p.blocks.back().last = i;
    insts[i].block = static_cast<int>(p.blocks.size()) - 1;
  }
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const Instruction& last = insts[p.blocks[b].last];
    if (falls_through(last) && b + 1 < p.blocks.size()) p.blocks[b].successors.push_back(static_cast<int>(b + 1));
    if (last.target >= 0) {
      const long t = p.index_of(static_cast<std::uint64_t>(last.target));
      if (t >= 0 && std::find(p.blocks[b].successors.begin(), p.blocks[b].successors.end(), insts[t].block) ==
                        p.blocks[b].successors.end())
        p.blocks[b].successors.push_back(insts[t].block);
    }
  }
  find_loops(p);
}

}  // namespace tilelab::isa
