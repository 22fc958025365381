// LDS accesses whose order only the scheduler decides.  Two waves of one
// workgroup touch the same LDS halfword between the same two barriers (each
// has executed the same number of s_barrier), and at least one of them
// writes: no barrier orders them, so the result depends on which wave the
// scheduler runs first.  The functional emulator runs each wave until it
// blocks; the hardware interleaves them; a kernel with such a pair can pass
// here and fail there (or the reverse, as AMD's MoE kernel did).
//
// Granularity: 2-byte halfwords (the smallest LDS store the suite makes is
// ds_write_b16); two waves writing different bytes of one halfword would be
// reported, and no kernel here does that.  (The emulator has no LDS atomics,
// which would be exempt.)  Only the functional emulator's own scheduler
// checks (one workgroup at a time); the cycle model does not.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilelab::emu {

struct LdsRace {
  std::string kind;                  // "write-write", "read-write" (a read, then another wave's write), "write-read"
  std::uint32_t address = 0;         // the halfword's byte address
  std::uint32_t first_index = 0;     // program index of the earlier access (as executed)
  std::uint32_t second_index = 0;    // and of the later one
  int first_wave = 0, second_wave = 0;
  std::uint32_t barriers = 0;        // how many barriers both waves had passed
  std::array<std::uint32_t, 3> workgroup{};
  // Filled in by the emulator at the end of the run, from the program.
  std::uint64_t first_pc = 0, second_pc = 0;
  std::string first_text, second_text;
};

// What a run found: every racing pair is counted; the first of each kind and
// pair of instructions is kept (at most kKept).
struct LdsRaceLog {
  static constexpr std::size_t kKept = 16;
  std::uint64_t count = 0;
  std::vector<LdsRace> first;
  void add(LdsRace r);
};

// One workgroup's shadow of its LDS: per halfword, the last writer and the
// readers since, with the barrier count of each access.
class LdsRaceCheck {
 public:
  LdsRaceCheck(std::size_t lds_bytes, std::array<std::uint32_t, 3> workgroup, LdsRaceLog& log);
  // Wave `wave`, having passed `barriers` barriers, at program index `index`,
  // reads or writes `bytes` bytes at `address` (inside the LDS: checked before).
  // Inline: it runs for every lane of every LDS instruction.
  void access(int wave, std::uint32_t barriers, std::uint32_t index, std::uint32_t address, int bytes, bool write) {
    const std::uint32_t epoch = barriers + 1;
    for (std::uint32_t h = address / 2; h <= (address + static_cast<std::uint32_t>(bytes) - 1) / 2; ++h) {
      Halfword& s = shadow_[h];
      if (s.write_epoch == epoch && s.writer != wave)
        report(write ? "write-write" : "write-read", h, s.write_index, s.writer, wave, barriers, index);
      if (write) {
        if (s.read_epoch == epoch && s.reader != wave) report("read-write", h, s.read_index, s.reader, wave, barriers, index);
        else if (s.read_epoch == epoch && s.other_reader >= 0)
          report("read-write", h, s.other_index, s.other_reader, wave, barriers, index);
        s.write_epoch = epoch, s.write_index = index, s.writer = wave;
      } else if (s.read_epoch != epoch) {
        s.read_epoch = epoch, s.read_index = index, s.reader = wave, s.other_reader = -1;
      } else if (s.reader != wave) {
        s.other_reader = wave, s.other_index = index;
      }
    }
  }

 private:
  void report(const char* kind, std::uint32_t halfword, std::uint32_t first_index, int first_wave, int wave,
              std::uint32_t barriers, std::uint32_t index);
  struct Halfword {
    std::uint32_t write_epoch = 0;  // barriers + 1 of the last write (0: none yet)
    std::uint32_t write_index = 0;
    std::int32_t writer = -1;
    std::uint32_t read_epoch = 0;   // barriers + 1 of the reads kept
    std::uint32_t read_index = 0;
    std::int32_t reader = -1;       // the first reader of that epoch
    std::int32_t other_reader = -1; // the latest reader of that epoch that is not `reader`
    std::uint32_t other_index = 0;
  };
  std::vector<Halfword> shadow_;
  std::array<std::uint32_t, 3> workgroup_;
  LdsRaceLog& log_;
};

}  // namespace tilelab::emu
