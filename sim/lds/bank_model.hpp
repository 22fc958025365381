// The LDS / shared-memory bank model: what one wave-level LDS instruction
// costs, exactly, given every lane's byte address.
//
// A pass serves the active lanes of one phase (or of several phases that the
// architecture merges).  Within a pass each bank delivers one 4-byte word per
// clock, lanes asking for the same word share it (broadcast), so the pass
// takes `ways` clocks: the largest number of distinct words any bank must
// deliver.  Per instruction:
//   cycles          = sum of ways over passes  (NVIDIA: wavefronts)
//   conflict_cycles = sum of (ways - 1)         (AMD SQ_LDS_BANK_CONFLICT units;
//                                                NVIDIA l1tex__data_bank_conflicts)
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"

namespace tilelab::lds {

// (Plain members without initialisers: an Analysis is filled per call and
// only pass[0, entries) is meaningful, so nothing is zeroed needlessly.)
struct Pass {
  std::uint64_t lanes;   // lanes of the phase(s) served, as a mask (active or not)
  std::uint64_t active;  // active lanes in this pass
  int banks;             // banks touched (in the instruction's bank period)
  int ways;              // distinct words in the busiest bank; 0 if no lane is active
};

struct Analysis {
  std::array<Pass, 64> pass;
  int entries = 0;         // pass[0, entries): one per phase (or merged phase set)
  int passes = 0;          // passes with at least one active lane
  int cycles = 0;          // sum of ways
  int conflict_cycles = 0; // sum of (ways - 1)
  int max_ways = 0;
};

namespace avx512 {
struct VectorPass;
}

class BankModel {
 public:
  // fastest: the AVX-512 path where the CPU has it and every pass has at most
  // 16 lanes of a power-of-two width; scalar: always the portable path.  Both
  // give identical analyses.
  enum class Path { fastest, scalar };

  BankModel(const arch::Arch& a, const arch::LdsInstruction& ins, Path path = Path::fastest);
  ~BankModel();
  BankModel(const BankModel&);
  BankModel& operator=(const BankModel&);

  const arch::LdsInstruction& instruction() const { return ins_; }
  int wave_size() const { return wave_size_; }
  bool vector_path() const { return !vector_phases_.empty(); }

  // addresses: one byte address per lane (wave_size of them); active: lane mask.
  // Throws ModelError on a misaligned address or a wrong number of addresses.
  Analysis analyze(std::span<const std::uint32_t> addresses, std::uint64_t active) const;

 private:
  int ways_of(std::uint64_t lanes, std::span<const std::uint32_t> addr, int& banks) const;
  struct PassLanes {
    std::uint64_t mask = 0;
    int count = 0;
    std::array<std::uint8_t, 64> lane{};
  };
  static PassLanes lanes_of(std::uint64_t mask);
  static std::vector<avx512::VectorPass> vector_passes(const std::vector<PassLanes>& passes);
  void analyze_pass(const PassLanes& p, std::span<const std::uint32_t> addr, std::uint64_t active, Pass& out) const;
  bool lanes_pair_up(std::span<const std::uint32_t> addr, std::uint64_t active) const;
  void count_ways(const PassLanes& p, std::span<const std::uint32_t> addr, Pass& out) const;
  template <unsigned Shift>
  void scan_wave(const std::uint32_t* a, std::uint64_t& seen, std::uint64_t& dup) const;

  arch::LdsInstruction ins_;
  int wave_size_;
  int period_;                 // banks per period
  int words_;                  // 4-byte words per lane
  bool unit_path_;             // power-of-two width: one bank group per lane
  std::uint32_t unit_shift_ = 0;   // log2(bytes): address -> unit
  std::uint32_t group_mask_ = 0;   // unit -> bank group (groups per period - 1)
  // Whole-wave fast path: when phases x groups fit in 64 bits, lane l's
  // (phase, group) is bit lane_bit_base_[l] + group of one mask for the wave.
  bool wave_fast_ = false;
  std::array<std::uint8_t, 64> lane_bit_base_{};
  std::vector<PassLanes> phase_passes_;   // one per phase
  std::vector<PassLanes> merged_passes_;  // when lanes pair up (pair_merge); empty if the instruction has none
  // The same passes for the vector path; empty when it does not apply.
  std::vector<avx512::VectorPass> vector_phases_, vector_merged_;
};

class ModelError : public std::runtime_error {
 public:
  explicit ModelError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace tilelab::lds
