// The functional emulator: runs a kernel's machine code, decoded from its
// code object, on the CPU.  A dispatch is a grid of workgroups; each
// workgroup has its LDS and its waves; each wave executes one instruction at
// a time.  Workgroups run one after another (they cannot communicate within
// a dispatch except through atomics, which the kernels here do not use).
//
// Steppable for the cycle model: start_workgroup() then step(wave) executes
// exactly one wave-instruction of the wave the caller picks; run() is the
// plain scheduler (each wave runs until it reaches a barrier or ends, then
// the barrier releases when every live wave of the workgroup is there).
//
// Errors: an unimplemented opcode, an out-of-bounds access or an instruction
// the emulator cannot read stops the run with EmuError, one line:
// "KERNEL pc 0xN (instruction text): what".
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/emu/memory.hpp"
#include "sim/emu/semantics.hpp"
#include "sim/isa/code_object.hpp"
#include "sim/isa/program.hpp"
#include "sim/lds/bank_model.hpp"

namespace tilelab::emu {

// Scratch: the most bytes per lane the emulator gives (a wave's segment is
// allocated whole, 64 lanes of it), and where the cycle model sees the
// segments (a synthetic aperture above any buffer the emulator allocates).
inline constexpr std::uint32_t kMaxPrivateBytes = 1u << 20;
inline constexpr std::uint64_t kScratchAperture = std::uint64_t{1} << 56;

struct Launch {
  std::array<std::uint32_t, 3> grid{1, 1, 1};   // workgroups per dimension
  std::array<std::uint32_t, 3> block{1, 1, 1};  // work-items per workgroup per dimension
  // One value per explicit kernel argument, in the metadata's order:
  // pointers as device addresses, integers and floats as their bits.
  std::vector<std::uint64_t> args;
};

// The bank-model cost of every LDS instruction site, from the addresses the
// lanes really used.
struct LdsSite {
  std::uint64_t pc = 0;
  std::string text;         // the instruction as printed
  std::string instruction;  // ds_read_b128, ...
  bool modelled = false;    // false: the architecture file has no phase table for it
  std::uint64_t executions = 0;   // wave-level accesses (a ds_read2/ds_write2 counts two)
  std::uint64_t cycles = 0, conflict_cycles = 0;
  int max_ways = 0;
};

struct RunStats {
  std::uint64_t wave_instructions = 0;
  std::uint64_t workgroups = 0, waves = 0;
  double seconds = 0;              // wall time of the dispatch (not stored in traces: not deterministic)
  std::vector<LdsSite> lds_sites;  // by pc
  // LDS accesses of two waves between the same barriers, one a write (the
  // functional scheduler only: a timed run leaves this empty).
  LdsRaceLog lds_races;
};

class Emulator;

// Decides when each wave executes: run() hands the dispatch to it when one is
// set (the cycle model, sim/timing); without one, each wave runs until it
// blocks.  It starts the workgroups (start_workgroup) and executes their
// wave-instructions (step) in the order it chooses, and says what it ran.
class Scheduler {
 public:
  virtual ~Scheduler() = default;
  struct Ran {
    std::uint64_t workgroups = 0, waves = 0, wave_instructions = 0;
  };
  virtual Ran dispatch(Emulator& e, GlobalMemory& memory, const Launch& launch, std::uint64_t kernarg) = 0;
};

class Emulator {
 public:
  // The kernel `kernel` of a code object for gfx950 or gfx942; `arch` is the
  // matching description (its LDS phase tables cost the LDS accesses).
  Emulator(const isa::CodeObject& co, const std::string& kernel, const arch::Arch& arch);
  // A bare program (e.g. instructions assembled by a test): wave64, the
  // kernarg pointer in s[0:1], the workgroup id x in s2, work-item ids packed
  // in v0, IEEE denormals kept, `lds_bytes` of LDS, no arguments.
  Emulator(isa::Program program, const arch::Arch& arch, std::uint32_t lds_bytes);
  ~Emulator();

  // The code object as loaded (CodeObject::loaded_image) when the kernel reads
  // its own address (s_getpc_b64), else empty.  A device maps it once per
  // code object and says where (map_code_object); otherwise each run maps
  // its own copy after the kernel arguments.
  const std::vector<std::uint8_t>& loaded_image() const { return image_; }
  void map_code_object(std::uint64_t base) { code_base_ = base, device_mapped_ = true; }

  const isa::Program& program() const { return program_; }
  // Mnemonics (without encoding suffix) in the kernel that cannot run: no
  // semantics yet, or operands the emulator cannot read.
  std::vector<std::string> unimplemented() const;
  // Why no launch of this kernel can start (its initial register state asks
  // for user SGPRs the emulator does not set up), or "" when one can.
  std::string launch_refusal() const;

  RunStats run(GlobalMemory& memory, const Launch& launch);
  // The scheduler run() uses (nullptr: the plain one) and the observer of
  // every access and of s_memtime (see AccessObserver).  Not owned.
  void set_scheduler(Scheduler* s) { scheduler_ = s; }
  // The most wave-instructions one wave may execute: a wave that goes past it
  // (a branch turned into an endless loop) stops the run with one line naming
  // the wave, its workgroup and the pc where it spins.
  static constexpr std::uint64_t kDefaultWaveBudget = std::uint64_t{1} << 24;
  void set_wave_budget(std::uint64_t n) { wave_budget_ = n ? n : kDefaultWaveBudget; }
  // The most wave-instructions one launch may execute (2^32 by default, an
  // hour or two of emulation): a grid that needs more, counting for each wave
  // at least the instructions before its first branch, is refused before it
  // starts; one that turns out to need more stops with one line.
  static constexpr std::uint64_t kDefaultLaunchBudget = std::uint64_t{1} << 32;
  void set_launch_budget(std::uint64_t n) { launch_budget_ = n ? n : kDefaultLaunchBudget; }
  void set_observer(AccessObserver* o) { observer_ = o; }

  // The kernel as loaded: its descriptor, registers and LDS size.
  const isa::Kernel& kernel() const { return kernel_; }
  // Dynamic LDS (a launch's extra bytes beyond the kernel's fixed LDS), and
  // the LDS a workgroup gets in all.
  // EmuError when the static and dynamic LDS together exceed what the arch
  // gives a workgroup (lds.bytes_per_cu: 160 KiB on gfx950).
  void set_dynamic_lds(std::uint32_t bytes);
  // Functional runs: each workgroup's waves take their turns last to first
  // (another order the hardware can produce; a race check runs both).
  void set_reverse_wave_order(bool reverse) { reverse_waves_ = reverse; }
  std::uint32_t lds_bytes() const { return descriptor_.group_segment_fixed_size + dynamic_lds_; }
  // Instruction i as the emulator reads it (operands and modifiers).
  const Op& op(std::size_t i) const { return ops_[i]; }

  // ---- stepping ----
  struct Workgroup {
    std::array<std::uint32_t, 3> id{};
    std::vector<Wave> waves;
    std::vector<std::uint8_t> lds;
    std::unique_ptr<LdsRaceCheck> races;  // set by the functional scheduler
  };
  // Lays the kernel arguments into a kernarg buffer (once per launch).
  std::uint64_t prepare(GlobalMemory& memory, const Launch& launch);
  Workgroup start_workgroup(const Launch& launch, std::uint64_t kernarg, std::array<std::uint32_t, 3> id) const;
  // Executes one instruction of wave `w`; false if it cannot run (done, or
  // waiting at a barrier).  Releases the barrier when the last wave arrives.
  // Several threads may step waves of different workgroups at once (the
  // cycle model's threads) when each holds its own ThreadScope; their
  // workgroups must not share memory a store of one changes and the other
  // reads, and the run's LDS statistics are theirs added up.
  bool step(GlobalMemory& memory, Workgroup& wg, int w);

 private:
  struct Trace;

 public:
  class ThreadScope {
   public:
    explicit ThreadScope(Emulator& e);
    ~ThreadScope();  // adds this thread's LDS statistics to the run's
    ThreadScope(const ThreadScope&) = delete;
    ThreadScope& operator=(const ThreadScope&) = delete;

   private:
    Emulator& e_;
    std::unique_ptr<Trace> trace_;
    ThreadScope* outer_;
    std::uint64_t executed_ = 0;  // wave-instructions not yet added to the launch's count
    friend class Emulator;
  };

 private:
  static ThreadScope* thread_scope_of(const Emulator* e);
  void load_ops();
  void check_lds(std::uint32_t dynamic) const;
  Scheduler::Ran run_plain(GlobalMemory& memory, const Launch& launch, std::uint64_t kernarg);
  Env env_for(GlobalMemory& memory, Workgroup& wg) const;
  void execute(Env& env, Wave& wave);
  [[noreturn]] void fail(const Op& op, const std::string& what) const;

  isa::Program program_;
  std::vector<Op> ops_;
  isa::KernelDescriptor descriptor_;
  isa::Kernel kernel_;
  const arch::Arch& arch_;
  std::unique_ptr<Trace> trace_;
  Scheduler* scheduler_ = nullptr;
  std::uint64_t wave_budget_ = kDefaultWaveBudget;
  std::uint64_t launch_budget_ = kDefaultLaunchBudget;
  std::atomic<std::uint64_t> launch_executed_{0};  // by the threads' scopes, now and then
  std::uint64_t launch_unscoped_ = 0;              // by the thread without a scope
  void check_launch_budget(const Launch& launch) const;
  std::uint32_t dynamic_lds_ = 0;
  AccessObserver* observer_ = nullptr;
  LdsRaceLog race_log_;  // of the current run
  int denorm_mode_32_ = 3;  // FLOAT_DENORM_MODE_32 of the descriptor
  std::uint32_t private_bytes_ = 0;  // scratch per lane (the descriptor's fixed size)
  bool reverse_waves_ = false;
  bool ocp_fp8_ = true;     // gfx950's OCP FP8 (gfx942: FNUZ)
  // The code object as loaded, mapped into global memory by prepare() when the
  // kernel reads its own address (s_getpc_b64): code_base_ + virtual address.
  std::vector<std::uint8_t> image_;
  std::uint64_t code_base_ = 0;
  bool device_mapped_ = false;  // by map_code_object; else prepare() maps a copy per run
};

}  // namespace tilelab::emu
