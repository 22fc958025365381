// The AMD bank model against the measured phase tables of arch-facts (written
// out here independently of sim/arch/*.toml) and worked cases.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include "sim/lds/bank_model.hpp"

namespace tilelab {
namespace {

using Phases = std::vector<std::string>;

std::vector<int> lanes_of(const std::string& ranges) {
  std::vector<int> out;
  std::stringstream s(ranges);
  std::string part;
  while (std::getline(s, part, ',')) {
    auto dash = part.find('-');
    int lo = std::stoi(part.substr(0, dash)), hi = dash == std::string::npos ? lo : std::stoi(part.substr(dash + 1));
    for (int l = lo; l <= hi; ++l) out.push_back(l);
  }
  return out;
}

// docs/facts/arch-facts.md, "LDS (gfx950 vs gfx942)", phases table.
const std::vector<std::tuple<std::string, std::string, Phases, int>> kMeasuredTables = {
    {"gfx950", "ds_read_b32", {"0-63"}, 64},
    {"gfx950", "ds_read_b64", {"0-31", "32-63"}, 64},
    {"gfx950", "ds_read_b96", {"0-3,20-23", "4-7,16-19", "8-11,28-31", "12-15,24-27", "32-35,52-55", "36-39,48-51",
                               "40-43,60-63", "44-47,56-59"}, 32},
    {"gfx950", "ds_read_b128", {"0-3,12-15,20-27", "4-11,16-19,28-31", "32-35,44-47,52-59", "36-43,48-51,60-63"}, 64},
    {"gfx950", "ds_write_b64", {"0-15", "16-31", "32-47", "48-63"}, 32},
    {"gfx942", "ds_read_b32", {"0-31", "32-63"}, 32},
    {"gfx942", "ds_read_b64", {"0-15", "16-31", "32-47", "48-63"}, 32},
    {"gfx942", "ds_read_b128", {"0-3,20-23", "32-35,52-55", "4-7,16-19", "36-39,48-51", "8-11,28-31", "40-43,60-63",
                                "12-15,24-27", "44-47,56-59"}, 32},
    {"gfx942", "ds_write_b128", {"0-7", "8-15", "16-23", "24-31", "32-39", "40-47", "48-55", "56-63"}, 32},
};

// Lanes i and j on the same bank (in the instruction's bank period) at
// different addresses, all other lanes idle: a 2-way conflict exactly when
// i and j share a phase.
TEST(BankModel, MeasuredPhaseTablesComeOutOfTheModel) {
  for (const auto& [arch_name, inst, phases, period] : kMeasuredTables) {
    arch::Arch a = arch::load_arch(arch_name);
    lds::BankModel model(a, a.instruction(inst));
    std::vector<int> phase_of(64, -1);
    for (std::size_t p = 0; p < phases.size(); ++p)
      for (int l : lanes_of(phases[p])) phase_of[l] = static_cast<int>(p);
    std::vector<std::uint32_t> addr(64, 0);
    for (int i = 0; i < 64; ++i)
      for (int j = 0; j < 64; ++j) {
        if (i == j) continue;
        addr[i] = 0;
        addr[j] = static_cast<std::uint32_t>(period * 4 * 16);  // same bank, another word (16-byte aligned)
        lds::Analysis r = model.analyze(addr, (std::uint64_t{1} << i) | (std::uint64_t{1} << j));
        ASSERT_EQ(r.conflict_cycles, phase_of[i] == phase_of[j] ? 1 : 0) << arch_name << " " << inst << " lanes " << i
                                                                        << "," << j;
      }
  }
}

std::vector<std::uint32_t> addresses(std::uint32_t (*f)(int)) {
  std::vector<std::uint32_t> a(64);
  for (int l = 0; l < 64; ++l) a[l] = f(l);
  return a;
}

lds::Analysis run(const char* arch_name, const char* inst, const std::vector<std::uint32_t>& addr,
                  std::uint64_t mask = ~std::uint64_t{0}) {
  arch::Arch a = arch::load_arch(arch_name);
  return lds::BankModel(a, a.instruction(inst)).analyze(addr, mask);
}

TEST(BankModel, RowMajor64BitReadsAreConflictFree) {
  auto addr = addresses([](int l) { return 8u * l; });
  EXPECT_EQ(run("gfx950", "ds_read_b64", addr).conflict_cycles, 0);
  EXPECT_EQ(run("gfx950", "ds_read_b64", addr).cycles, 2);  // two phases of 32 lanes, one clock each
  EXPECT_EQ(run("gfx942", "ds_read_b64", addr).conflict_cycles, 0);
}

TEST(BankModel, A128ByteStrideIsTwoWayOnGfx950AndWorseOnGfx942) {
  // Lane l reads the 16-byte chunk l/8 of row l%8 of a tile with 128-byte rows.
  auto addr = addresses([](int l) { return 128u * (l % 8) + 16u * (l / 8); });
  lds::Analysis g950 = run("gfx950", "ds_read_b128", addr), g942 = run("gfx942", "ds_read_b128", addr);
  EXPECT_EQ(g950.max_ways, 2);
  EXPECT_EQ(g950.conflict_cycles, 4);   // 4 phases, each 2-way
  EXPECT_EQ(g942.max_ways, 4);
  EXPECT_EQ(g942.conflict_cycles, 24);  // 8 phases, each 4-way
}

TEST(BankModel, FullyConflictedReadB32) {
  auto addr = addresses([](int l) { return 256u * l; });  // bank 0 on both chips, 64 different words
  EXPECT_EQ(run("gfx950", "ds_read_b32", addr).conflict_cycles, 63);  // one 64-lane phase
  EXPECT_EQ(run("gfx942", "ds_read_b32", addr).conflict_cycles, 62);  // two phases of 32
}

TEST(BankModel, BroadcastIsFree) {
  auto addr = addresses([](int) { return 4096u; });
  EXPECT_EQ(run("gfx950", "ds_read_b32", addr).conflict_cycles, 0);
  EXPECT_EQ(run("gfx950", "ds_read_b128", addr).conflict_cycles, 0);
  EXPECT_EQ(run("gfx942", "ds_read_b128", addr).conflict_cycles, 0);
}

TEST(BankModel, MfmaOperandReadOfARowMajorTileConflicts) {
  // v_mfma_f32_16x16x32_bf16 A operand from a row-major bf16 tile with 128-byte rows.
  auto addr = addresses([](int l) { return 128u * (l % 16) + 16u * (l / 16); });
  lds::Analysis r = run("gfx950", "ds_read_b128", addr);
  EXPECT_EQ(r.max_ways, 4);
  EXPECT_EQ(r.conflict_cycles, 12);
}

TEST(BankModel, InactiveLanesCostNothing) {
  auto addr = addresses([](int l) { return 256u * l; });
  EXPECT_EQ(run("gfx950", "ds_read_b32", addr, 0x1).conflict_cycles, 0);
  EXPECT_EQ(run("gfx950", "ds_read_b32", addr, 0xF).conflict_cycles, 3);
  EXPECT_EQ(run("gfx950", "ds_read_b32", addr, 0).passes, 0);
}

TEST(BankModel, RejectsMisalignedAddressesAndWrongLaneCounts) {
  auto addr = addresses([](int l) { return 16u * l; });
  addr[5] = 8;
  try {
    run("gfx950", "ds_read_b128", addr);
    FAIL();
  } catch (const lds::ModelError& e) {
    EXPECT_EQ(std::string(e.what()), "lane 5: address 8 is not 16-byte aligned for ds_read_b128");
  }
  EXPECT_THROW(run("gfx950", "ds_read_b128", std::vector<std::uint32_t>(32, 0)), lds::ModelError);
  arch::Arch g942 = arch::load_arch("gfx942");
  EXPECT_THROW(g942.instruction("ds_read_b64_tr_b16"), arch::ArchError);  // a gfx950 instruction
}

}  // namespace
}  // namespace tilelab

namespace tilelab {
namespace {

// The bank rule written the plainest way: per pass, the distinct 4-byte words
// of every bank; ways = the most words any bank holds.  (No merging: used
// for the AMD instructions, which have none.)
int naive_conflict_cycles(const arch::LdsInstruction& ins, const std::vector<std::uint32_t>& addr,
                          std::uint64_t mask) {
  int total = 0;
  for (const auto& phase : ins.phases) {
    std::map<int, std::set<std::uint32_t>> words;
    for (int l : phase)
      if ((mask >> l) & 1)
        for (int w = 0; w < std::max(1, ins.bytes / 4); ++w) {
          std::uint32_t word = addr[l] / 4 + static_cast<std::uint32_t>(w);
          words[static_cast<int>(word % static_cast<std::uint32_t>(ins.bank_period))].insert(word);
        }
    int ways = 0;
    for (const auto& [bank, set] : words) ways = std::max(ways, static_cast<int>(set.size()));
    if (ways) total += ways - 1;
  }
  return total;
}

// Every AMD instruction against the plain rule on random instructions: full
// and partial masks, addresses from small windows (many conflicts and
// broadcasts) and large ones.
TEST(BankModel, AgreesWithThePlainRuleOnRandomInstructions) {
  std::mt19937 rng(77);
  for (const char* name : {"gfx950", "gfx942"}) {
    arch::Arch a = arch::load_arch(name);
    for (const arch::LdsInstruction& ins : a.instructions) {
      lds::BankModel model(a, ins);
      std::uint32_t align = ins.bytes == 12 ? 4 : static_cast<std::uint32_t>(ins.bytes);
      for (int n = 0; n < 1500; ++n) {
        std::uint32_t window = std::vector<std::uint32_t>{4, 16, 64, 1024, 65536}[n % 5];
        std::vector<std::uint32_t> addr(64);
        for (auto& x : addr) x = static_cast<std::uint32_t>(rng() % window) * align;
        std::uint64_t mask = n % 3 ? ~std::uint64_t{0} : (static_cast<std::uint64_t>(rng()) << 32) | rng();
        ASSERT_EQ(model.analyze(addr, mask).conflict_cycles, naive_conflict_cycles(ins, addr, mask))
            << name << " " << ins.name << " case " << n;
      }
    }
  }
}

// The AVX-512 path against the scalar path, pass by pass and field by field,
// for every instruction of every architecture it applies to.
TEST(BankModel, VectorPathEqualsScalarPath) {
  std::mt19937 rng(1234);
  int checked = 0;
  for (const char* name : {"gfx950", "gfx942", "sm90"}) {
    arch::Arch a = arch::load_arch(name);
    for (const arch::LdsInstruction& ins : a.instructions) {
      lds::BankModel fast(a, ins), scalar(a, ins, lds::BankModel::Path::scalar);
      ASSERT_FALSE(scalar.vector_path());
      if (!fast.vector_path()) continue;
      std::uint32_t align = ins.bytes == 12 ? 4 : static_cast<std::uint32_t>(ins.bytes);
      for (int n = 0; n < 4000; ++n) {
        std::uint32_t window = std::vector<std::uint32_t>{1, 4, 16, 64, 1024, 1u << 26}[n % 6];
        std::vector<std::uint32_t> addr(static_cast<std::size_t>(a.wave_size));
        for (auto& x : addr) x = static_cast<std::uint32_t>(rng() % window) * align;
        if (n % 7 == 0)  // lanes in pairs on one address: sm90's merged passes
          for (std::size_t l = 1; l < addr.size(); l += 2) addr[l] = addr[l - 1];
        std::uint64_t mask = n % 3 ? ~std::uint64_t{0} : (static_cast<std::uint64_t>(rng()) << 32) | rng();
        lds::Analysis v = fast.analyze(addr, mask), s = scalar.analyze(addr, mask);
        ASSERT_EQ(v.entries, s.entries) << name << " " << ins.name << " case " << n;
        for (int p = 0; p < s.entries; ++p) {
          ASSERT_EQ(v.pass[p].lanes, s.pass[p].lanes) << name << " " << ins.name << " case " << n << " pass " << p;
          ASSERT_EQ(v.pass[p].active, s.pass[p].active) << name << " " << ins.name << " case " << n << " pass " << p;
          ASSERT_EQ(v.pass[p].banks, s.pass[p].banks) << name << " " << ins.name << " case " << n << " pass " << p;
          ASSERT_EQ(v.pass[p].ways, s.pass[p].ways) << name << " " << ins.name << " case " << n << " pass " << p;
        }
        ASSERT_EQ(v.passes, s.passes);
        ASSERT_EQ(v.cycles, s.cycles);
        ASSERT_EQ(v.conflict_cycles, s.conflict_cycles);
        ASSERT_EQ(v.max_ways, s.max_ways);
        ++checked;
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "this CPU has no AVX-512 conflict detection: only the scalar path runs";
  std::printf("vector path checked on %d instructions\n", checked);
}

}  // namespace
}  // namespace tilelab
