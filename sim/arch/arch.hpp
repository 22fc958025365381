// Architecture descriptions: the hardware figures of one GPU, read from a
// TOML data file (sim/arch/<name>.toml) with every figure's source beside it.
// A new architecture is a new file; nothing here is specific to one chip.
#pragma once

#include <stdexcept>
#include <string>
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

struct Arch {
  std::string name;
  std::string vendor;        // amd, nvidia
  std::string description;
  std::string file;          // where it was read from ("<built-in>/gfx950.toml" or a path)
  int wave_size = 0;
  int simds_per_cu = 0;
  int wave_slots_per_simd = 0;
  int max_workgroup_size = 0;
  bool has_registers = false;
  Registers registers;
  Lds lds;
  std::vector<LdsInstruction> instructions;   // in file order
  std::vector<MfmaInstruction> mfma;          // in file order (may be empty)
  // Every [chip] and [lds] figure as written, for display.
  std::vector<std::pair<std::string, std::string>> figures;

  // Throws ArchError naming the instruction, the arch and what it does have.
  const LdsInstruction& instruction(const std::string& name) const;
};

// A built-in description by name (gfx950, gfx942, sm90), or a .toml file by path.
Arch load_arch(const std::string& name_or_path);
// Parse and validate TOML text; `file` names it in error messages.
Arch parse_arch(const std::string& toml_text, const std::string& file);
std::vector<std::string> builtin_arch_names();

// The description as text, unknown and assumed figures marked.
std::string describe(const Arch& a);

}  // namespace tilelab::arch
