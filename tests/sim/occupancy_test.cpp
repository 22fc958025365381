// Occupancy from the gfx950 / gfx942 register and LDS figures.
#include "sim/lds/occupancy.hpp"

#include <gtest/gtest.h>

namespace tilelab {
namespace {

lds::Occupancy occ(const char* a, int vgprs, int agprs, int sgprs, long long lds, int wg) {
  return lds::occupancy(arch::load_arch(a), {vgprs, agprs, sgprs, lds, wg});
}

TEST(Occupancy, RegisterLimited) {
  // 128 VGPRs + 128 AGPRs = 256 of 512 per lane -> 2 waves per SIMD; a 256-thread
  // workgroup is 4 waves spread over 4 SIMDs -> 2 workgroups per CU.
  lds::Occupancy o = occ("gfx950", 128, 128, 64, 0, 256);
  EXPECT_EQ(o.waves_per_workgroup, 4);
  EXPECT_EQ(o.workgroups_per_cu, 2);
  EXPECT_EQ(o.waves_per_simd, 2.0);
  EXPECT_EQ(o.limited_by, "VGPRs+AGPRs");
}

TEST(Occupancy, AgprsStartOnAFourRegisterBoundary) {
  // 61 VGPRs are rounded to 64 before the 64 AGPRs: 128 -> 4 waves; 60 + 68 = 128 too.
  EXPECT_EQ(occ("gfx950", 61, 64, 0, 0, 64).limits[1].detail, "128 allocated per lane of 512 -> 4 waves per SIMD");
  EXPECT_EQ(occ("gfx950", 61, 68, 0, 0, 64).limits[1].detail, "136 allocated per lane of 512 -> 3 waves per SIMD");
}

TEST(Occupancy, LdsLimitedAndGranule) {
  // 64 KiB rounds up to 52 granules of 1280 B = 66560 B: 2 fit in 160 KiB on gfx950, 0 in 64 KiB on gfx942... so use 32 KiB there.
  lds::Occupancy o = occ("gfx950", 32, 0, 32, 65536, 256);
  EXPECT_EQ(o.workgroups_per_cu, 2);
  EXPECT_EQ(o.limited_by, "LDS");
  EXPECT_EQ(occ("gfx942", 32, 0, 32, 32768, 256).workgroups_per_cu, 2);
  EXPECT_EQ(occ("gfx942", 32, 0, 32, 32769, 256).workgroups_per_cu, 1);  // 512-byte granules
}

TEST(Occupancy, WaveSlotsAndSgprs) {
  lds::Occupancy o = occ("gfx950", 16, 0, 32, 0, 64);
  EXPECT_EQ(o.workgroups_per_cu, 32);  // 8 slots x 4 SIMDs, one wave each
  EXPECT_NE(o.limited_by.find("wave slots"), std::string::npos);
  EXPECT_EQ(occ("gfx950", 16, 0, 102, 0, 64).workgroups_per_cu, 28);  // > 100 SGPRs: 7 waves per SIMD
  EXPECT_EQ(occ("gfx950", 16, 0, 102, 0, 64).limited_by, "SGPRs");
}

TEST(Occupancy, RejectsOutOfRange) {
  EXPECT_THROW(occ("gfx950", 300, 0, 0, 0, 64), std::invalid_argument);
  EXPECT_THROW(occ("gfx950", 0, 0, 0, 200000, 64), std::invalid_argument);
  EXPECT_THROW(occ("gfx950", 0, 0, 0, 0, 2048), std::invalid_argument);
  EXPECT_THROW(occ("sm90", 0, 0, 0, 0, 64), arch::ArchError);
}

}  // namespace
}  // namespace tilelab
