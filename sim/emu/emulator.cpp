#include "sim/emu/emulator.hpp"

#include <mutex>
#include "sim/isa/kernel_arguments.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "sim/isa/decoder.hpp"

namespace tilelab::emu {

const HandlerTable& handlers() {
  static const HandlerTable table = [] {
    HandlerTable t;
    add_scalar_ops(t);
    add_vector_ops(t);
    add_memory_ops(t);
    add_mfma_ops(t);
    return t;
  }();
  return table;
}

std::string refusal(std::string_view opcode) {
  // AMD's Composable Kernel hardware test (test/smfmac_op) settles CDNA3's
  // 16-bit sparse forms: A compressed in the lane's K chunk, one 2-bit
  // position per kept value.  For gfx950's K=64/128 forms nothing public says
  // whether B follows the dense f8f6f4 split-K layout or a contiguous one, nor
  // which K a compressed A value covers; a guess would give wrong sums silently.
  const bool settled_16bit = opcode.ends_with("16x16x32_f16") || opcode.ends_with("16x16x32_bf16") ||
                             opcode.ends_with("32x32x16_f16") || opcode.ends_with("32x32x16_bf16");
  if (opcode.starts_with("v_smfmac_") && !settled_16bit)
    return "refused: the lane layout of the sparse MFMA's operands (compressed A, dense B, the index VGPR) "
           "is not settled from a public source for this form";
  return "";
}

// Collects the bank-model cost of each LDS site from the lanes' addresses.
struct Emulator::Trace : LdsTrace {
  const arch::Arch& arch;
  std::vector<LdsSite> sites;                          // by instruction index
  std::vector<std::unique_ptr<lds::BankModel>> model;  // by instruction index; null: not modelled
  std::vector<bool> seen;
  AccessObserver* observer;

  Trace(const arch::Arch& a, std::size_t n, AccessObserver* o) : arch(a), sites(n), model(n), seen(n, false), observer(o) {}

  // Adds another thread's statistics of the same run (sums do not depend on the order).
  void merge(const Trace& o) {
    for (std::size_t i = 0; i < sites.size(); ++i) {
      if (!o.seen[i]) continue;
      LdsSite& s = sites[i];
      const LdsSite& t = o.sites[i];
      if (!seen[i]) {
        seen[i] = true;
        s = t;
        continue;
      }
      s.modelled = s.modelled && t.modelled;
      s.executions += t.executions;
      s.cycles += t.cycles;
      s.conflict_cycles += t.conflict_cycles;
      s.max_ways = std::max(s.max_ways, t.max_ways);
    }
  }

  void access(const Op& op, std::string_view instruction, const std::uint32_t* addresses,
              std::uint64_t active) override {
    if (!active) return;
    LdsSite& s = sites[op.index];
    if (!seen[op.index]) {
      seen[op.index] = true;
      s.pc = op.inst ? op.inst->pc : 0;
      s.text = op.inst ? op.inst->text : op.t.mnemonic;
      s.instruction = std::string(instruction);
      for (const auto& ins : arch.instructions)
        if (ins.name == s.instruction) model[op.index] = std::make_unique<lds::BankModel>(arch, ins);
      s.modelled = model[op.index] != nullptr;
    }
    ++s.executions;
    if (!model[op.index]) {
      if (observer) observer->lds_access(0, 0, false);
      return;
    }
    try {
      lds::Analysis a = model[op.index]->analyze(std::span<const std::uint32_t>(addresses, kLanes), active);
      if (observer) observer->lds_access(a.cycles, a.conflict_cycles, true);
      s.cycles += static_cast<std::uint64_t>(a.cycles);
      s.conflict_cycles += static_cast<std::uint64_t>(a.conflict_cycles);
      if (a.max_ways > s.max_ways) s.max_ways = a.max_ways;
    } catch (const lds::ModelError&) {  // e.g. an address the bank model's alignment rule refuses
      model[op.index].reset();
      s.modelled = false;
      if (observer) observer->lds_access(0, 0, false);
    }
  }
};

namespace {
// The ThreadScope of this thread (one per emulator a thread steps for).
thread_local Emulator::ThreadScope* tl_scope = nullptr;
}  // namespace

Emulator::ThreadScope* Emulator::thread_scope_of(const Emulator* e) {
  for (ThreadScope* s = tl_scope; s; s = s->outer_)
    if (&s->e_ == e) return s;
  return nullptr;
}

Emulator::ThreadScope::ThreadScope(Emulator& e)
    : e_(e), trace_(std::make_unique<Trace>(e.arch_, e.ops_.size(), e.observer_)), outer_(tl_scope) {
  tl_scope = this;
}

Emulator::ThreadScope::~ThreadScope() {
  tl_scope = outer_;
  e_.launch_executed_.fetch_add(executed_, std::memory_order_relaxed);
  static std::mutex merging;  // threads leave together
  std::lock_guard<std::mutex> lock(merging);
  e_.trace_->merge(*trace_);
}

Emulator::Emulator(const isa::CodeObject& co, const std::string& kernel, const arch::Arch& arch)
    : program_(isa::decode_kernel(co, kernel)), kernel_(co.kernel(kernel)), arch_(arch) {
  descriptor_ = kernel_.descriptor;
  if (co.arch != "gfx950" && co.arch != "gfx942")
    throw EmuError(co.path + ": the emulator runs gfx950 and gfx942 code, not " + co.arch);
  if (descriptor_.wave32()) throw EmuError(kernel + ": wave32 kernels are not emulated");
  private_bytes_ = std::max(kernel_.private_segment_fixed_size, descriptor_.private_segment_fixed_size);
  if (private_bytes_ > kMaxPrivateBytes)
    throw EmuError(kernel + ": " + std::to_string(private_bytes_) + " bytes of scratch per lane, more than the " +
                   std::to_string(kMaxPrivateBytes) + " the emulator gives a lane");
  check_lds(0);
  load_ops();
  const bool reads_its_address = std::any_of(ops_.begin(), ops_.end(), [](const Op& op) { return op.t.base == "s_getpc_b64"; });
  if (reads_its_address) {
    try {
      image_ = co.loaded_image();
    } catch (const isa::IsaError& e) {
      throw EmuError(e.what());
    }
  }
}

Emulator::Emulator(isa::Program program, const arch::Arch& arch, std::uint32_t lds_bytes)
    : program_(std::move(program)), arch_(arch) {
  kernel_.name = program_.kernel.empty() ? "program" : program_.kernel;
  descriptor_.group_segment_fixed_size = lds_bytes;
  descriptor_.compute_pgm_rsrc1 = 3u << 16;              // FLOAT_DENORM_MODE_32: keep denormals
  descriptor_.compute_pgm_rsrc2 = (2u << 1) | (1u << 7);  // USER_SGPR_COUNT 2, workgroup id x
  descriptor_.compute_pgm_rsrc3 = 0;
  descriptor_.kernel_code_properties = 1u << 3;          // kernarg segment pointer
  descriptor_.private_segment_fixed_size = 0;
  load_ops();
}

void Emulator::check_lds(std::uint32_t dynamic) const {
  const std::uint64_t total = std::uint64_t{descriptor_.group_segment_fixed_size} + dynamic;
  if (total > static_cast<std::uint64_t>(arch_.lds.bytes_per_cu))
    throw EmuError(kernel_.name + ": asks for " + std::to_string(total) + " bytes of LDS (" +
                   std::to_string(descriptor_.group_segment_fixed_size) + " static, " + std::to_string(dynamic) +
                   " dynamic); a workgroup on " + arch_.name + " can have at most " +
                   std::to_string(arch_.lds.bytes_per_cu) + " (" + std::to_string(arch_.lds.bytes_per_cu / 1024) + " KiB)");
}

void Emulator::set_dynamic_lds(std::uint32_t bytes) {
  check_lds(bytes);
  dynamic_lds_ = bytes;
}

void Emulator::load_ops() {
  denorm_mode_32_ = descriptor_.float_denorm_mode_32();
  ocp_fp8_ = program_.arch != "gfx942";
  const HandlerTable& table = handlers();
  ops_.resize(program_.instructions.size());
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    const isa::Instruction& in = program_.instructions[i];
    Op& op = ops_[i];
    op.index = static_cast<std::uint32_t>(i);
    op.inst = &in;
    try {
      // hwreg(...) operands are read from the encoding (the handler), not the text.
      op.t = parse_text(in.mnemonic() == "s_getreg_b32" ? in.text.substr(0, in.text.find(',')) : in.text);
    } catch (const EmuError& e) {  // reported if the instruction is ever executed
      op.t.mnemonic = op.t.base = std::string(in.mnemonic());
      op.error = e.what();
      continue;
    }
    if (in.target >= 0) op.target = static_cast<std::int32_t>(program_.index_of(static_cast<std::uint64_t>(in.target)));
    auto h = table.find(op.t.base);
    if (h != table.end()) op.fn = h->second;
  }
}

Emulator::~Emulator() = default;

std::vector<std::string> Emulator::unimplemented() const {
  std::vector<std::string> out;
  for (const Op& op : ops_)
    if (!op.fn && std::find(out.begin(), out.end(), op.t.base) == out.end()) out.push_back(op.t.base);
  return out;
}

std::string Emulator::launch_refusal() const {
  const int pointer_sgprs = descriptor_.kernarg_segment_ptr() ? 2 : 0;
  if ((descriptor_.kernel_code_properties & 0x77) || descriptor_.user_sgpr_count() != pointer_sgprs)
    return kernel_.name + ": only the kernarg-pointer user SGPRs are set up by the emulator";
  return "";
}

void Emulator::fail(const Op& op, const std::string& what) const {
  throw EmuError(kernel_.name + " pc " + hex(op.inst->pc) + " (" + op.inst->text + "): " + what);
}

std::uint64_t Emulator::prepare(GlobalMemory& memory, const Launch& launch) {
  std::vector<std::uint8_t> seg;
  try {
    seg = isa::kernarg_segment(kernel_, launch.args, launch.grid, launch.block);
  } catch (const isa::IsaError& e) {
    throw EmuError(e.what());
  }
  std::uint64_t kernarg = memory.allocate(seg.size(), kernel_.name + " kernel arguments");
  memory.write(kernarg, seg.data(), seg.size());
  if (!image_.empty() && !device_mapped_) {  // after the kernel arguments: no other kernel's addresses move
    code_base_ = memory.allocate(image_.size(), kernel_.name + "'s code object (as loaded)");
    memory.write(code_base_, image_.data(), image_.size());
  }
  return kernarg;
}

Emulator::Workgroup Emulator::start_workgroup(const Launch& launch, std::uint64_t kernarg,
                                              std::array<std::uint32_t, 3> id) const {
  Workgroup wg;
  wg.id = id;
  wg.lds.assign(lds_bytes(), 0);
  std::uint32_t items = launch.block[0] * launch.block[1] * launch.block[2];
  int waves = static_cast<int>((items + kLanes - 1) / kLanes);
  wg.waves.resize(static_cast<std::size_t>(waves));
  // User SGPRs: only the kernarg segment pointer is set up.  The private
  // segment buffer, dispatch and queue pointers, dispatch id, flat-scratch init
  // and private segment size (kernel_code_properties bits 0-2, 4-6) and
  // preloaded kernel arguments (more user SGPRs than those) are refused.
  const int pointer_sgprs = descriptor_.kernarg_segment_ptr() ? 2 : 0;
  if (const std::string why = launch_refusal(); !why.empty()) throw EmuError(why);
  for (int n = 0; n < waves; ++n) {
    Wave& w = wg.waves[static_cast<std::size_t>(n)];
    w.id = n;
    w.workgroup = id;
    if (pointer_sgprs) {
      w.s[0] = static_cast<std::uint32_t>(kernarg);
      w.s[1] = static_cast<std::uint32_t>(kernarg >> 32);
    }
    int sgpr = pointer_sgprs;  // then the system SGPRs: workgroup ids as enabled
    for (int d = 0; d < 3; ++d)
      if (descriptor_.workgroup_id_enabled(d)) w.s[static_cast<std::size_t>(sgpr++)] = id[static_cast<std::size_t>(d)];
    // Workgroup info (its waves in bits 5:0, AMDGPUUsage's initial state), then
    // the private segment wavefront offset: 0, each wave's segment is its own.
    if (descriptor_.workgroup_info_enabled()) w.s[static_cast<std::size_t>(sgpr++)] = static_cast<std::uint32_t>(waves);
    if (descriptor_.private_segment()) w.s[static_cast<std::size_t>(sgpr++)] = 0;
    if (private_bytes_) {
      w.private_bytes = private_bytes_;
      w.scratch.assign(static_cast<std::size_t>(private_bytes_) * kLanes, 0);
      // Unique per wave of the launch, far above any buffer: the cycle model's view.
      const std::uint64_t linear = id[0] + static_cast<std::uint64_t>(launch.grid[0]) *
                                               (id[1] + static_cast<std::uint64_t>(launch.grid[1]) * id[2]);
      const std::uint64_t per_wave = (static_cast<std::uint64_t>(private_bytes_) * kLanes + 4095) & ~std::uint64_t{4095};
      w.scratch_base = kScratchAperture + (linear * static_cast<std::uint64_t>(waves) + static_cast<std::uint64_t>(n)) * per_wave;
    }
    bool packed = descriptor_.workitem_id_vgprs() > 0;
    std::uint32_t* v0 = w.vgpr(0);
    for (int l = 0; l < kLanes; ++l) {
      std::uint32_t flat = static_cast<std::uint32_t>(n * kLanes + l);
      if (flat >= items) break;
      w.exec |= 1ull << l;
      std::uint32_t x = flat % launch.block[0], y = flat / launch.block[0] % launch.block[1],
                    z = flat / (launch.block[0] * launch.block[1]);
      v0[l] = packed ? x | y << 10 | z << 20 : x;
    }
  }
  return wg;
}

namespace {

// Vector ALU (VALU, transcendental, MFMA): what GPR indexing moves.
bool is_vector_alu(const Op& op) {
  const isa::InstClass c = op.inst->cls;
  return c == isa::InstClass::VALU || c == isa::InstClass::TRANS || c == isa::InstClass::MFMA;
}

// The vector ALU, vector memory and LDS: what VSKIP skips.
bool is_vector_instruction(const Op& op) {
  const isa::InstClass c = op.inst->cls;
  return is_vector_alu(op) || c == isa::InstClass::LDS || c == isa::InstClass::LDS_DMA ||
         c == isa::InstClass::VMEM_LOAD || c == isa::InstClass::VMEM_STORE;
}

// The instruction with its indexed VGPR operands moved by M0[7:0]: the
// first destination when M0 bit 15 is set, source k (the k-th operand after
// the destinations) when bit 12 + k is.  An index past v255 is an error, not
// the hardware's silent v0.
Op gpr_indexed(const Op& op, std::uint32_t m0) {
  if (!is_vector_alu(op)) return op;
  Op out = op;
  const int defs = static_cast<int>(std::count_if(op.inst->operands.begin(), op.inst->operands.end(),
                                                  [](const isa::Operand& o) { return o.is_def; }));
  const std::uint32_t index = m0 & 0xff, mask = (m0 >> 12) & 15;
  for (int i = 0; i < static_cast<int>(out.t.ops.size()); ++i) {
    Operand& o = out.t.ops[static_cast<std::size_t>(i)];
    const int bit = i == 0 && defs > 0 ? 3 : i - defs;
    if (o.loc != Loc::VGPR || bit < 0 || bit > 3 || !((mask >> bit) & 1)) continue;
    if (o.index + index + o.count - 1 > 255)
      throw EmuError("GPR-indexed v" + std::to_string(o.index) + " + M0 index " + std::to_string(index) +
                     " is past v255");
    o.index = static_cast<std::uint16_t>(o.index + index);
  }
  return out;
}

}  // namespace

inline void Emulator::execute(Env& env, Wave& w) {
  const Op& op = ops_[w.pc];
  if (!op.fn) {
    const std::string refused = refusal(op.t.base);
    fail(op, !op.error.empty()  ? op.error
             : refused.empty() ? "opcode '" + op.t.base + "' is not implemented by the emulator"
                               : "opcode '" + op.t.base + "' " + refused);
  }
  if (w.executed >= wave_budget_)
    fail(op, "wave " + std::to_string(w.id) + " of workgroup (" + std::to_string(w.workgroup[0]) + "," +
                 std::to_string(w.workgroup[1]) + "," + std::to_string(w.workgroup[2]) + ") executed " +
                 std::to_string(w.executed) + " instructions without ending, spinning here (an endless loop?); "
                 "--max-wave-instructions raises the budget");
  // The launch's count: a thread of the cycle model counts in its scope and
  // adds to the shared count now and then (one shared write per instruction
  // would have the threads take the count's cache line from each other).
  std::uint64_t& counted = env.executed ? *env.executed : launch_unscoped_;
  if (++counted >= 4096 && env.executed) launch_executed_.fetch_add(counted, std::memory_order_relaxed), counted = 0;
  if (launch_executed_.load(std::memory_order_relaxed) + (env.executed ? counted : 0) + launch_unscoped_ > launch_budget_)
    fail(op, "the launch executed more than " + std::to_string(launch_budget_) +
                 " wave-instructions; --max-launch-instructions raises the budget");
  w.pc = op.index + 1;
  const std::size_t in_flight = w.vmem_in_flight.size();
  try {
    if ((w.vskip || w.gpr_index_mode) && is_vector_instruction(op)) {
      if (!w.vskip) {
        const Op indexed = gpr_indexed(op, w.m0);
        indexed.fn(w, indexed, env);
      }
    } else {
      op.fn(w, op, env);
    }
  } catch (const EmuError& e) {
    fail(op, e.what());
  }
  if (w.waiting_memory) {  // not executed yet: it runs again once memory has returned
    w.pc = op.index;
    if (counted) --counted;
    else launch_executed_.fetch_sub(1, std::memory_order_relaxed);
    return;
  }
  // Once an LDS-DMA load is in flight, every later vector-memory instruction
  // is counted behind it, so that vmcnt retires them in order.
  const isa::InstClass c = op.inst->cls;
  if (in_flight && w.vmem_in_flight.size() == in_flight &&
      (c == isa::InstClass::VMEM_LOAD || c == isa::InstClass::VMEM_STORE || c == isa::InstClass::LDS_DMA))
    w.vmem_in_flight.emplace_back(std::nullopt);
  ++w.executed;
  if (w.pc >= ops_.size() && !w.done) fail(op, "ran past the end of the kernel");
}

// What a handler of this kernel may touch in workgroup wg.  The denorm mode
// and FP8 flavour are the kernel's; nothing here is recomputed per instruction.
Env Emulator::env_for(GlobalMemory& memory, Workgroup& wg) const {
  Env env;
  env.memory = &memory;
  env.lds = &wg.lds;
  ThreadScope* scope = thread_scope_of(this);
  env.lds_trace = scope ? scope->trace_.get() : trace_.get();
  env.executed = scope ? &scope->executed_ : nullptr;
  env.observer = observer_;
  env.races = wg.races.get();
  env.denorm_mode_32 = denorm_mode_32_;
  env.ocp_fp8 = ocp_fp8_;
  env.code_base = code_base_;
  env.program = &program_;
  return env;
}

bool Emulator::step(GlobalMemory& memory, Workgroup& wg, int n) {
  Wave& w = wg.waves[static_cast<std::size_t>(n)];
  if (w.done || w.at_barrier) return false;
  Env env = env_for(memory, wg);
  execute(env, w);
  if (w.at_barrier || w.done) {  // release the barrier when every live wave is there
    bool all = true, any = false;
    for (const Wave& o : wg.waves) {
      if (o.done) continue;
      any = true;
      all = all && o.at_barrier;
    }
    if (all && any)
      for (Wave& o : wg.waves) o.at_barrier = false;
  }
  return true;
}

// The plain scheduler: each wave of a workgroup runs until it blocks, in
// turn; a barrier releases once every live wave waits at it.
Scheduler::Ran Emulator::run_plain(GlobalMemory& memory, const Launch& launch, std::uint64_t kernarg) {
  Scheduler::Ran ran;
  for (std::uint32_t z = 0; z < launch.grid[2]; ++z)
    for (std::uint32_t y = 0; y < launch.grid[1]; ++y)
      for (std::uint32_t x = 0; x < launch.grid[0]; ++x) {
        Workgroup wg = start_workgroup(launch, kernarg, {x, y, z});
        wg.races = std::make_unique<LdsRaceCheck>(wg.lds.size(), wg.id, race_log_);
        Env env = env_for(memory, wg);
        env.memory_last = true;
        // Each wave runs until it ends, waits at a barrier or waits for an
        // LDS-DMA load; a barrier opens when every live wave is there; loads
        // return only when no wave can move otherwise (memory as slow as it
        // may be, so another wave's LDS reads before the load lands see what
        // was there, as on the hardware).
        for (;;) {
          for (std::size_t i = 0; i < wg.waves.size(); ++i) {
            Wave& w = wg.waves[reverse_waves_ ? wg.waves.size() - 1 - i : i];
            while (!w.done && !w.at_barrier && !w.waiting_memory) execute(env, w);
          }
          bool all_done = true, all_at_barrier = true, any_memory = false;
          for (const Wave& w : wg.waves) {
            all_done = all_done && w.done;
            if (!w.done) all_at_barrier = all_at_barrier && w.at_barrier;
            any_memory = any_memory || w.waiting_memory;
          }
          if (all_done) break;
          if (all_at_barrier) {
            for (Wave& w : wg.waves) w.at_barrier = false;
          } else if (any_memory) {
            for (Wave& w : wg.waves)
              if (w.waiting_memory) {
                retire_vmem(w, env, w.waiting_keep);
                w.waiting_memory = false;
              }
          } else {
            throw EmuError(kernel_.name + ": no wave can make progress");
          }
        }
        ++ran.workgroups;
        for (const Wave& w : wg.waves) ran.wave_instructions += w.executed;
        ran.waves += wg.waves.size();
      }
  return ran;
}

// Every wave runs at least the instructions before the program's first
// branch (or its end): a grid whose waves need more than the budget that way
// is refused before it starts, with the arithmetic.
void Emulator::check_launch_budget(const Launch& launch) const {
  std::uint64_t straight = 0;
  for (const isa::Instruction& in : program_.instructions) {
    ++straight;
    if (in.cls == isa::InstClass::BRANCH) break;
  }
  const long double groups = static_cast<long double>(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  const long double threads = static_cast<long double>(launch.block[0]) * launch.block[1] * launch.block[2];
  const long double waves = groups * std::ceil(threads / static_cast<long double>(arch_.wave_size));
  if (waves * static_cast<long double>(straight) > static_cast<long double>(launch_budget_))
    throw EmuError(kernel_.name + ": the grid's " + std::to_string(static_cast<unsigned long long>(waves)) + " waves run at least " +
                   std::to_string(straight) + " instructions each, more than the launch budget of " +
                   std::to_string(launch_budget_) + " wave-instructions (--max-launch-instructions)");
}

RunStats Emulator::run(GlobalMemory& memory, const Launch& launch) {
  const auto start = std::chrono::steady_clock::now();
  check_launch_budget(launch);
  launch_executed_ = 0;
  launch_unscoped_ = 0;
  trace_ = std::make_unique<Trace>(arch_, ops_.size(), observer_);
  race_log_ = LdsRaceLog{};
  const std::uint64_t kernarg = prepare(memory, launch);
  const Scheduler::Ran ran = scheduler_ ? scheduler_->dispatch(*this, memory, launch, kernarg)
                                        : run_plain(memory, launch, kernarg);
  RunStats stats;
  stats.workgroups = ran.workgroups;
  stats.waves = ran.waves;
  stats.wave_instructions = ran.wave_instructions;
  stats.lds_races = race_log_;
  for (LdsRace& r : stats.lds_races.first) {
    const isa::Instruction &a = program_.instructions[r.first_index], &b = program_.instructions[r.second_index];
    r.first_pc = a.pc, r.first_text = a.text, r.second_pc = b.pc, r.second_text = b.text;
  }
  for (std::size_t i = 0; i < trace_->sites.size(); ++i)
    if (trace_->seen[i]) stats.lds_sites.push_back(trace_->sites[i]);
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace tilelab::emu
