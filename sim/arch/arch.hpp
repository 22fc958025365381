// Architecture descriptions: the hardware figures of one GPU, read from a
// TOML data file (sim/arch/<name>.toml) with every figure's source beside it.
// A new architecture is a new file; nothing here is specific to one chip.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilelab::arch {

// A description that cannot be used: names the file, the line and the key.
class ArchError : public std::runtime_error {
 public:
  explicit ArchError(const std::string& what) : std::runtime_error(what) {}
};

// How well a figure is known (arch-facts tags [M], [O], [I], [?]).
enum class Status { kMeasured, kOfficial, kInferred, kAssumed };
const char* to_string(Status s);

// One LDS / shared-memory instruction as the bank model sees it.
struct LdsInstruction {
  std::string name;
  int bytes = 0;                              // per lane
  std::vector<std::vector<int>> phases;       // lanes served together, each lane exactly once
  int bank_period = 0;                        // banks an address wraps over (<= lds banks)
  std::vector<std::vector<int>> pair_merge;   // phase sets sharing a pass when the lanes pair up on one address each
  Status status = Status::kAssumed;
  std::string source;
  bool is_store() const;
};

// One MFMA instruction: its per-wave tile and how long it holds the matrix core.
struct MfmaInstruction {
  std::string name;
  int m = 0, n = 0, k = 0;
  int cycles = 0;
  int cycles_fp6_fp4 = 0;  // the f8f6f4 forms with neither operand FP8; else equal to cycles
  std::string source;
};

// The cycles one MFMA holds its matrix core: the f8f6f4 forms run at the FP8
// rate when A or B is FP8 (cbsz or blgp <= 1, the format codes), else at the
// FP6/FP4 rate; every other MFMA has one rate.  What the cycle model and the
// static bounds both use.
inline int mfma_issue_cycles(const MfmaInstruction& m, int cbsz, int blgp) {
  if (m.cycles_fp6_fp4 == m.cycles) return m.cycles;
  return cbsz <= 1 || blgp <= 1 ? m.cycles : m.cycles_fp6_fp4;
}

struct Registers {
  int vgprs_per_simd_lane = 0;   // unified VGPR + AGPR budget per lane
  int max_arch_vgprs = 0;
  int max_agprs = 0;
  int vgpr_granule = 0;
  int agpr_offset_alignment = 0;
  int max_sgprs = 0;
  std::vector<std::pair<int, int>> sgpr_occupancy;  // (at most N SGPRs, waves per SIMD)
};

struct Lds {
  long long bytes_per_cu = 0;
  long long allocation_granule = 0;  // 0: not described
  int banks = 0;
  int bank_bytes = 0;
};

// One figure of the cycle model as the arch file's [timing] part gives it.
struct TimingFigure {
  std::string name;
  double value = 0;
  Status status = Status::kAssumed;
  std::string source;
};

// The figures the cycle model (sim/timing) runs on.  Clocks are shader-engine
// clock cycles; "per pair" is per pair of SIMDs sharing an LDS port.  Every
// figure keeps its status and source in `figures` so that a run can list
// the assumptions it stood on.
struct Timing {
  double clock_mhz = 0;
  int issue_period = 0;             // clocks between two visits of one SIMD by the sequencer
  int valu_cycles = 0;              // a wave64 VALU op on a 16-lane SIMD
  int valu_latency = 0;             // a VALU result to a dependent VALU of the same wave
  int trans_cycles = 0;             // a wave64 transcendental holds the SIMD's VALU this long
  int trans_latency = 0;            // transcendental result to a dependent instruction
  // MFMA/VALU co-issue on the SIMD (cu-facts 1): after an XDL MFMA a VALU op
  // may issue from slot 1 + (widest SrcA/B bytes per lane) / this; packed
  // FP32 and dot ops from slot passes + mfma_pk_valu_extra_slots (+1 when the
  // sources are 16 B or wider); after an SMFMAC everything from smfmac_valu_slot.
  int mfma_valu_bytes_per_slot = 0;
  int mfma_pk_valu_extra_slots = 0;
  int smfmac_valu_slot = 0;
  int smem_latency = 0;
  // The SQC's caches in front of the L2: instructions and scalar data, each
  // a cache of sqc_line_bytes lines; a miss fetches the line (and, for
  // instructions, the next instruction_prefetch_lines) through the L2.
  int instruction_cache_bytes = 0, instruction_cache_ways = 0;
  int scalar_cache_bytes = 0, scalar_cache_ways = 0;
  int sqc_line_bytes = 0, instruction_prefetch_lines = 0;
  int branch_taken_cycles = 0;
  int barrier_cycles = 0;           // last arrival to the first wave issuing again
  int sleep_cycles = 0;             // s_sleep 1
  int simds_per_lds_port = 0;       // the SIMDs one LDS port serves (a pair on CDNA)
  int lds_port_bytes_per_clock = 0; // per port
  int lds_latency = 0;              // issue to first data, unloaded
  int lds_queue_depth = 0;          // requests waiting for the port, per port
  int vmem_issue_cycles = 0;        // address processing of one wave64 VMEM instruction, per CU
  int l1_bytes = 0, l1_line_bytes = 0, l1_ways = 0;
  double l1_bytes_per_clock = 0;
  int l1_latency = 0;
  int memory_latency = 0;           // beyond the L1 (L2/HBM), unloaded
  int vmem_inflight_bytes = 0;      // bytes of L1 misses a CU keeps in flight
  int vmcnt_max = 0, lgkmcnt_max = 0, expcnt_max = 0;
  std::vector<std::pair<int, int>> mfma_read_wait_states;  // (passes, wait states) before D is read
  int mfma_srcc_overlap_extra = 0;  // wait states beyond the passes when SrcC partly overlaps D
  std::vector<TimingFigure> figures;  // every figure above, in file order
  // The wait states after an MFMA of `passes` before its D may be read.
  int read_wait_states(int passes) const;
};

// The chip below the CUs' L1s (the cycle model's memory system): L2 per XCD,
// the fabric link of each XCD, the Infinity Cache (MALL) and HBM.  Latencies
// are whole load-to-use round trips from issue, as a pointer chase measures
// them (the model subtracts what the L1 path already adds).  Every figure
// keeps its status and source in `figures`.
struct MemorySystem {
  int l2_bytes = 0, l2_ways = 0, l2_channels = 0;  // per XCD
  double l2_read_bytes_per_clock = 0;               // per channel
  double l2_write_bytes_per_clock = 0;              // per channel
  int l2_latency = 0;                               // an L2 hit, issue to data
  double fabric_bytes_per_clock = 0;                // each XCD's link to the IODs (MALL, HBM)
  long long mall_bytes = 0;
  int mall_ways = 0, mall_channels = 0;
  double mall_channel_bytes_per_clock = 0;
  int mall_latency = 0;                             // a MALL hit, issue to data
  int hbm_stacks = 0, hbm_interleave_bytes = 0;     // HBM bandwidth: chip.hbm_tb_per_s
  int hbm_channels_per_stack = 0, hbm_channel_interleave_bytes = 0;
  double hbm_refresh_ns = 0, hbm_refresh_interval_ns = 0;  // tRFC, tREFI: a channel's time lost to refresh
  int hbm_latency = 0;                              // a miss everywhere, issue to data, unloaded
  int launch_cycles = 0;                            // kernel launch to the first wave
  std::vector<TimingFigure> figures;                // every figure above, in file order
};

struct Arch {
  std::string name;
  std::string vendor;        // amd, nvidia
  std::string description;
  std::string file;          // where it was read from ("<built-in>/gfx950.toml" or a path)
  std::string text;          // the TOML as read (a stored run records its SHA-256)
  int wave_size = 0;
  int simds_per_cu = 0;
  int wave_slots_per_simd = 0;
  int max_workgroup_size = 0;
  bool has_registers = false;
  Registers registers;
  Lds lds;
  std::vector<LdsInstruction> instructions;   // in file order
  std::vector<MfmaInstruction> mfma;          // in file order (may be empty)
  bool has_timing = false;                    // a [timing] part: the cycle model can run
  Timing timing;
  bool has_memory = false;                    // a [memory] part: the cycle model's chip (L2, MALL, HBM)
  MemorySystem memory;
  // Every [chip] and [lds] figure as written, for display.
  std::vector<std::pair<std::string, std::string>> figures;

  // Throws ArchError naming the instruction, the arch and what it does have.
  const LdsInstruction& instruction(const std::string& name) const;
  // nullptr when the arch file does not describe the MFMA.
  const MfmaInstruction* find_mfma(std::string_view name) const;
};

// The chip's CUs (chip.xcds x chip.cus_per_xcd); ArchError when not described.
int chip_cus(const Arch& a);
int chip_xcds(const Arch& a);
// chip.peak_clock_mhz: the clock latencies measured under light load are
// counted at (the cycle model runs at timing.clock_mhz, the sustained clock).
double peak_clock_mhz(const Arch& a);
// HBM bandwidth in bytes per clock of the cycle model's clock (chip.hbm_tb_per_s).
double hbm_bytes_per_clock(const Arch& a);
// What HBM sustains with refresh taken out: the peak x (1 - tRFC / tREFI)
// (memory.hbm_refresh_ns over memory.hbm_refresh_interval_ns; the peak where
// the arch has no [memory] part).
double hbm_sustained_bytes_per_clock(const Arch& a);

// The memory bandwidth one CU gets, in bytes per clock, when `busy_cus` CUs
// run work: the chip's HBM bandwidth (chip.hbm_tb_per_s at the model's clock)
// shared equally, and with timing figures at most the CU's L1 bandwidth.
// The static bound (`tilelab check`) and the cycle model both use it.
double memory_bytes_per_clock_per_cu(const Arch& a, double busy_cus);

// A built-in description by name (gfx950, gfx942, sm90), or a .toml file by path.
Arch load_arch(const std::string& name_or_path);
// Parse and validate TOML text; `file` names it in error messages.
Arch parse_arch(const std::string& toml_text, const std::string& file);
std::vector<std::string> builtin_arch_names();

// The description as text, unknown and assumed figures marked.
std::string describe(const Arch& a);

}  // namespace tilelab::arch
