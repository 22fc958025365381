// Architecture descriptions: the built-in files load and say what they know;
// malformed files are refused with file, line and key.
#include "sim/arch/arch.hpp"

#include <gtest/gtest.h>

namespace tilelab {
namespace {

std::string error_of(const std::string& toml) {
  try {
    arch::parse_arch(toml, "test.toml");
  } catch (const arch::ArchError& e) {
    return e.what();
  }
  return "no error";
}

const char* const kMinimal = R"(name = "tiny"
vendor = "nvidia"
description = "a test chip"
[chip]
wave_size = 32
[lds]
bytes_per_cu = 1024
banks = 32
bank_bytes = 4
[instructions."LDS.32"]
bytes = 4
phases = ["0-31"]
status = "measured"
source = "test"
)";

TEST(Arch, BuiltInsLoad) {
  for (const std::string& n : arch::builtin_arch_names()) {
    arch::Arch a = arch::load_arch(n);
    EXPECT_EQ(a.name, n);
    EXPECT_FALSE(a.instructions.empty());
  }
  arch::Arch g950 = arch::load_arch("gfx950");
  EXPECT_EQ(g950.lds.banks, 64);
  EXPECT_EQ(g950.lds.bytes_per_cu, 163840);
  EXPECT_EQ(g950.wave_size, 64);
  EXPECT_EQ(g950.instruction("ds_read_b128").phases.size(), 4u);
  EXPECT_EQ(g950.instruction("ds_write_b128").status, arch::Status::kAssumed);
  EXPECT_EQ(arch::load_arch("gfx942").lds.banks, 32);
  EXPECT_EQ(arch::load_arch("sm90").instruction("LDS.128").pair_merge.size(), 2u);
}

// The MFMA table reproduces the official peak: 2·M·N·K flops per instruction,
// one instruction per SIMD every `cycles`, 4 SIMDs x 256 CUs at 2.4 GHz
// = 2.5 PFLOP/s dense BF16 on MI355X (arch-facts).
TEST(Arch, MfmaTableGivesThePublishedPeak) {
  arch::Arch a = arch::load_arch("gfx950");
  const arch::MfmaInstruction* bf16 = nullptr;
  for (const auto& m : a.mfma)
    if (m.name == "v_mfma_f32_16x16x32_bf16") bf16 = &m;
  ASSERT_NE(bf16, nullptr);
  double flops_per_cycle_per_simd = 2.0 * bf16->m * bf16->n * bf16->k / bf16->cycles;
  double peak = flops_per_cycle_per_simd * 4 * 256 * 2.4e9;
  EXPECT_NEAR(peak / 1e15, 2.5, 0.02);
}

TEST(Arch, DescriptionMarksUnknownsAndAssumptions) {
  std::string d = arch::describe(arch::load_arch("gfx950"));
  EXPECT_NE(d.find("lds.max_workgroups_per_cu = unknown   [not known; not used]"), std::string::npos);
  EXPECT_NE(d.find("ds_write_b128: 16 B/lane, 8 phases, bank period 32, assumed (NOT KNOWN: assumption)"),
            std::string::npos);
  EXPECT_NE(d.find("phases: {0-3,12-15,20-27} {4-11,16-19,28-31}"), std::string::npos);
}

TEST(Arch, MinimalFileParses) { EXPECT_EQ(arch::parse_arch(kMinimal, "test.toml").name, "tiny"); }

// An MFMA table's source grades its shape and cycles: without the tag the file is refused.
TEST(Arch, MfmaSourceMustCarryItsGrade) {
  const std::string mfma = "[mfma.v_x]\nm = 16\nn = 16\nk = 32\ncycles = 16\nsource = ";
  EXPECT_NO_THROW(arch::parse_arch(kMinimal + mfma + "\"[O] a table\"\n", "test.toml"));
  EXPECT_EQ(error_of(kMinimal + mfma + "\"a table\"\n"),
            "test.toml:20: mfma.v_x.source: must start with its grade: [O], [M], [I] or [?]");
}

TEST(Arch, ErrorsNameFileLineAndKey) {
  std::string t = kMinimal;
  EXPECT_EQ(error_of(std::string(t).replace(t.find("wave_size"), 9, "wave_sise")),
            "test.toml:5: chip.wave_sise: unknown key");
  EXPECT_EQ(error_of(std::string(t).replace(t.rfind("bytes = 4\n"), 10, "")),
            "test.toml:10: instructions.LDS.32.bytes: missing");
  EXPECT_EQ(error_of(std::string(t).replace(t.find("\"0-31\""), 6, "\"0-30\"")),
            "test.toml:12: instructions.LDS.32.phases: lane 31 is in no phase");
  EXPECT_EQ(error_of(std::string(t).replace(t.find("\"0-31\""), 6, "\"0-31\", \"5\"")),
            "test.toml:12: instructions.LDS.32.phases: lane 5 is in phases 0 and 1");
  EXPECT_EQ(error_of(std::string(t).replace(t.find("\"0-31\""), 6, "\"0-40\"")),
            "test.toml:12: instructions.LDS.32.phases: bad lane range '0-40' (lanes 0..31)");
  EXPECT_EQ(error_of(std::string(t).replace(t.find("measured"), 8, "guessed")),
            "test.toml:13: instructions.LDS.32.status: must be measured, official, inferred or assumed");
  EXPECT_EQ(error_of("name = \"x\"\nvendor = \n").rfind("test.toml:2: ", 0), 0u);  // toml++'s own message follows
  EXPECT_NE(error_of(std::string(t).replace(t.find("[lds]"), 5, "[ldsx]")).find("unknown key"), std::string::npos);
}

// Text toml++ 3.3 mishandles (found by fuzzing) is refused before it parses.
TEST(Arch, RefusesControlCharactersAndBareNonAscii) {
  std::string t = kMinimal;
  EXPECT_EQ(error_of(std::string(t).replace(t.find("[lds]"), 1, "[\x16")),
            "test.toml:6: control character 0x16 is not allowed in a TOML file");
  EXPECT_EQ(error_of("name = \"x\" \xc2\xa7\n"), "test.toml:1: non-ASCII character outside a string or comment");
  // A line-leading bracket before a character no key can start with (toml++ 3.3 assumes it away).
  EXPECT_EQ(error_of("[?"), "test.toml:1: '?' cannot start a table name");
  EXPECT_EQ(error_of("name = \"x\"\n  [[ ?x]]\n"), "test.toml:2: '?' cannot start a table name");
  // Text must be well-formed UTF-8, even in strings and comments.
  EXPECT_EQ(error_of("name = \"x\"\ndescription = \"\xdbt\"\n"), "test.toml:2: malformed UTF-8 at byte 26");
  EXPECT_EQ(error_of("# \xc0\xaf overlong\n"), "test.toml:1: malformed UTF-8 at byte 2");
  EXPECT_EQ(error_of("# \xed\xa0\x80 surrogate\n"), "test.toml:1: malformed UTF-8 at byte 2");
  // Only TOML's escapes after a backslash (toml++ 3.3 is undefined on "\\" + U+FCFF).
  EXPECT_EQ(error_of("name = \"a\\\xef\xb3\xbf\"\n"), "test.toml:1: invalid escape sequence in a string");
  EXPECT_EQ(error_of("name = \"x\"\n\ndescription = \"\"\"a \\\n b \\q\"\"\"\n"),
            "test.toml:4: invalid escape sequence in a string");
  EXPECT_EQ(error_of("name = \"\"\"a \\\n  \xc3\xa9\"\"\"\n"),
            "test.toml:1: a non-ASCII character right after a line-ending backslash (not supported)");
  EXPECT_EQ(error_of("name = \"x\"\ndescription = \"caf\xc3\xa9\"\n"),
            "test.toml:2: non-ASCII character in a string (tilelab's TOML files keep strings ASCII)");
  // In comments non-ASCII text is fine.
  EXPECT_EQ(arch::parse_arch("# \xe2\x80\x94 dash\n" + t, "test.toml").name, "tiny");
}

TEST(Arch, UnknownNamesAndFiles) {
  EXPECT_THROW(arch::load_arch("gfx1200"), arch::ArchError);
  EXPECT_THROW(arch::load_arch("/nonexistent/x.toml"), arch::ArchError);
}

}  // namespace
}  // namespace tilelab
