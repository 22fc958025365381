// The hardware path's device-free parts: kernel-argument layout against the
// code objects' metadata, the timing statistics, the wave-stamp decoding, the
// emulator as a Device, and the HIP backend end to end against the
// emulator-backed shim (the backend's dlopen, properties, argument buffer,
// launch, events and stamps all run).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>

#include "hw/emu/emu_device.hpp"
#include "hw/hip/hip_device.hpp"
#include "hw/wave_stamps.hpp"
#include "kernels/device_run.hpp"
#include "kernels/spec.hpp"
#include "sim/arch/arch.hpp"
#include "sim/isa/code_object.hpp"
#include "sim/isa/kernel_arguments.hpp"

namespace tilelab {
namespace {

std::string code_object(const std::string& arch, const std::string& kernel) {
  const std::string source = kernels::find_spec(kernel).source;  // "rmsnorm/rmsnorm.hip"
  const std::string stem = source.substr(source.find('/') + 1, source.rfind('.') - source.find('/') - 1);
  return std::string(TILELAB_CODE_OBJECTS) + "/" + arch + "/" + stem + ".hsaco";
}

// ---- kernel arguments ----

// rmsnorm_bf16 (out, in, gamma, rows, hidden, eps): pointers at 0, 8, 16,
// 32-bit values at 24, 28, 32; the buffer ends at 36, where eps ends.
TEST(KernelArguments, RmsnormLayoutByHand) {
  const isa::CodeObject co = isa::read_code_object(code_object("gfx950", "rmsnorm_bf16"));
  const auto slots = isa::explicit_arguments(co.kernel("rmsnorm_bf16"));
  const std::vector<std::uint64_t> values = {0x1122334455667788, 0x99aabbccddeeff00, 0x0102030405060708, 7, 8,
                                             0x358637bd /* 1e-6f */};
  const std::vector<std::uint8_t> b = isa::pack_arguments(slots, values, "rmsnorm_bf16");
  ASSERT_EQ(b.size(), 36u);
  std::uint64_t out = 0, in = 0;
  std::uint32_t rows = 0, hidden = 0, eps = 0;
  std::memcpy(&out, &b[0], 8);
  std::memcpy(&in, &b[8], 8);
  std::memcpy(&rows, &b[24], 4);
  std::memcpy(&hidden, &b[28], 4);
  std::memcpy(&eps, &b[32], 4);
  EXPECT_EQ(out, 0x1122334455667788u);
  EXPECT_EQ(in, 0x99aabbccddeeff00u);
  EXPECT_EQ(rows, 7u);
  EXPECT_EQ(hidden, 8u);
  EXPECT_EQ(eps, 0x358637bdu);
}

// Every suite kernel on both archs, 200 random value lists each: every byte
// of the buffer is value i's byte at slot i (its low `size` bytes) or zero
// between slots; the hidden block counts, group size and grid dimensions
// land at their metadata offsets in the whole segment.
TEST(KernelArguments, EveryKernelPlacesEveryByteByItsMetadata) {
  std::mt19937_64 rng(17);
  int kernels_seen = 0;
  for (const std::string arch : {"gfx950", "gfx942"})
    for (const kernels::KernelSpec& spec : kernels::all_specs()) {
      if (std::find(spec.archs.begin(), spec.archs.end(), arch) == spec.archs.end()) continue;
      SCOPED_TRACE(spec.name + " " + arch);
      const isa::CodeObject co = isa::read_code_object(code_object(arch, spec.name));
      const isa::Kernel& k = co.kernel(spec.name);
      const auto slots = isa::explicit_arguments(k);
      ++kernels_seen;
      for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::uint64_t> values(slots.size());
        for (auto& v : values) v = rng();
        const std::array<std::uint32_t, 3> grid{static_cast<std::uint32_t>(rng() % 1000 + 1), 3, 1},
            block{static_cast<std::uint32_t>(rng() % 1024 + 1), 1, 1};
        const std::vector<std::uint8_t> seg = isa::kernarg_segment(k, values, grid, block);
        std::vector<int> owner(seg.size(), -1);
        for (std::size_t i = 0; i < slots.size(); ++i)
          for (std::uint32_t b = 0; b < slots[i].size; ++b) {
            owner[slots[i].offset + b] = static_cast<int>(i);
            ASSERT_EQ(seg[slots[i].offset + b], static_cast<std::uint8_t>(values[i] >> (8 * b)));
          }
        for (const isa::KernelArg& a : k.args) {
          std::uint64_t v = 0;
          std::memcpy(&v, &seg[a.offset], a.size);
          const std::uint64_t want = a.value_kind == "hidden_block_count_x" ? grid[0]
                                     : a.value_kind == "hidden_block_count_y" ? grid[1]
                                     : a.value_kind == "hidden_group_size_x"  ? block[0]
                                     : a.value_kind == "hidden_grid_dims"     ? 2u
                                                                              : v;
          EXPECT_EQ(v, want) << a.value_kind;
        }
        const std::vector<std::uint8_t> explicit_only = isa::pack_arguments(slots, values, spec.name);
        ASSERT_EQ(explicit_only.size(), slots.back().offset + slots.back().size);
        for (std::size_t i = 0; i < explicit_only.size(); ++i) {
          ASSERT_EQ(explicit_only[i], seg[i]);
          if (owner[i] == -1) {
            ASSERT_EQ(explicit_only[i], 0) << "byte " << i << " between arguments";
          }
        }
      }
    }
  EXPECT_GE(kernels_seen, 30);
}

TEST(KernelArguments, WrongCountIsRefusedNamingTheKernel) {
  const isa::CodeObject co = isa::read_code_object(code_object("gfx950", "pointer_chase"));
  const auto slots = isa::explicit_arguments(co.kernel("pointer_chase"));
  try {
    isa::pack_arguments(slots, {1, 2}, "pointer_chase");
    FAIL();
  } catch (const isa::IsaError& e) {
    EXPECT_STREQ(e.what(), "pointer_chase takes 3 arguments, got 2");
  }
}

// ---- timing statistics ----

// numpy's np.median, np.quantile (linear) and x.std() / x.mean() of
// [3, 1, 4, 1, 5, 9, 2, 6], worked by hand: sorted 1 1 2 3 4 5 6 9; q1 at
// rank 1.75, q3 at 5.25, p90 at 6.3; mean 3.875, variance 52.875 / 8.
TEST(TimingStats, LiteralValuesAsNumpyComputesThem) {
  const kernels::TimingStats t = kernels::timing_stats({3, 1, 4, 1, 5, 9, 2, 6});
  EXPECT_DOUBLE_EQ(t.median, 3.5);
  EXPECT_DOUBLE_EQ(t.q1, 1.75);
  EXPECT_DOUBLE_EQ(t.q3, 5.25);
  EXPECT_DOUBLE_EQ(t.iqr, 3.5);
  EXPECT_DOUBLE_EQ(t.p10, 1.0);
  EXPECT_DOUBLE_EQ(t.p90, 6.9);
  EXPECT_DOUBLE_EQ(t.min, 1);
  EXPECT_DOUBLE_EQ(t.max, 9);
  EXPECT_NEAR(t.cv, 0.66345045, 1e-8);
  EXPECT_EQ(kernels::timing_stats({5}).cv, 0);
  EXPECT_EQ(kernels::timing_stats({5}).median, 5);
  EXPECT_THROW(kernels::timing_stats({}), std::invalid_argument);
}

// 2000 random lists: the order statistics are ordered, do not depend on
// the order of the repetitions, and scale with the times.
TEST(TimingStats, PropertiesOverRandomRepetitions) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<double> x(rng() % 40 + 1);
    for (double& v : x) v = 1e-6 * static_cast<double>(rng() % 100000 + 1);
    const kernels::TimingStats a = kernels::timing_stats(x);
    ASSERT_LE(a.min, a.p10);
    ASSERT_LE(a.p10, a.q1);
    ASSERT_LE(a.q1, a.median);
    ASSERT_LE(a.median, a.q3);
    ASSERT_LE(a.q3, a.p90);
    ASSERT_LE(a.p90, a.max);
    ASSERT_GE(a.cv, 0);
    std::shuffle(x.begin(), x.end(), rng);
    for (double& v : x) v *= 4;
    const kernels::TimingStats b = kernels::timing_stats(x);
    ASSERT_DOUBLE_EQ(b.median, 4 * a.median);
    ASSERT_NEAR(b.iqr, 4 * a.iqr, 1e-15);
    ASSERT_NEAR(b.cv, a.cv, 1e-12);
  }
}

// ---- wave stamps ----

std::vector<std::uint64_t> record(std::uint64_t unit, std::uint64_t slot, std::uint64_t block, std::uint64_t wave) {
  return {1000, 1500, 20, 30, unit, slot, block, wave};
}

// HW_ID 0xB635 = slot 5 | SIMD 3 << 4 | CU 6 << 8 | SH 1 << 12 | SE 5 << 13
// (hw-facts §1 field layout), XCC_ID 7: CU 1974 of the chip
// (((7 x 8 + 5) x 2 + 1) x 16 + 6).
TEST(WaveStamps, AmdHardwareIdsDecodeByTheRegisterLayout) {
  const auto w = hw::decode_wave_stamps(record(0xB635, 7, 3ull | 9ull << 32, 2), "amd");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].slot, 5);
  EXPECT_EQ(w[0].simd, 3);
  EXPECT_EQ(w[0].cu, 6);
  EXPECT_EQ(w[0].sh, 1);
  EXPECT_EQ(w[0].se, 5);
  EXPECT_EQ(w[0].xcc, 7);
  EXPECT_EQ(w[0].chip_cu(), 1974);
  EXPECT_EQ(w[0].block_x, 3u);
  EXPECT_EQ(w[0].block_y, 9u);
  EXPECT_EQ(w[0].wave, 2u);
  EXPECT_EQ(w[0].clock_end - w[0].clock_start, 500u);
  EXPECT_DOUBLE_EQ(hw::ticks_to_ns(w[0].timer_end - w[0].timer_start, 100000), 100);  // 10 ticks at 100 MHz
}

// NVIDIA: SM 131, warp slot 13 -> sub-partition 1, slot 3.
TEST(WaveStamps, NvidiaSmAndWarpIds) {
  const auto w = hw::decode_wave_stamps(record(131, 13, 0, 0), "nvidia");
  EXPECT_EQ(w[0].cu, 131);
  EXPECT_EQ(w[0].simd, 1);
  EXPECT_EQ(w[0].slot, 3);
  EXPECT_EQ(w[0].chip_cu(), 131);
}

TEST(WaveStamps, UnwrittenOrBackwardRecordsAreRefused) {
  std::vector<std::uint64_t> raw = record(0, 0, 0, 0);
  raw.resize(16, 0);  // the second wave never wrote
  EXPECT_THROW(hw::decode_wave_stamps(raw, "amd"), std::runtime_error);
  const std::vector<std::uint64_t> backwards = {1500, 1000, 20, 30, 0, 0, 0, 0};
  EXPECT_THROW(hw::decode_wave_stamps(backwards, "amd"), std::runtime_error);
  EXPECT_THROW(hw::decode_wave_stamps(record(0, 0, 0, 0), "intel"), std::runtime_error);
}

// ---- the emulator as a device ----

TEST(EmuDevice, RefusesAnotherArchsCodeObjectNamingBoth) {
  hw::EmuDevice d(arch::load_arch("gfx950"));
  const std::vector<std::uint8_t> gfx942 = hw::read_code_object(code_object("gfx942", "rmsnorm_bf16"));
  try {
    d.load_kernel(gfx942, "rmsnorm_bf16");
    FAIL();
  } catch (const hw::DeviceError& e) {
    EXPECT_STREQ(e.what(), "the code object is built for gfx942, the device (functional emulator (gfx950)) is gfx950");
  }
}

TEST(EmuDevice, RunsAHostAndHasNoClock) {
  hw::EmuDevice d(arch::load_arch("gfx950"));
  kernels::RunOptions o;
  o.code_object_dir = TILELAB_CODE_OBJECTS;
  const kernels::DeviceRun r = kernels::run_on_device(d, "rmsnorm_bf16", {16, 256}, 3, o);
  EXPECT_TRUE(r.check.pass());
  EXPECT_FALSE(r.timed);
  EXPECT_EQ(d.last_stats().waves, 16u * 4u);
  EXPECT_THROW(d.mark(), hw::DeviceError);
}

// ---- the HIP backend against the shim ----

class HipShim : public ::testing::Test {
 protected:
  void SetUp() override { setenv("TILELAB_HIP_LIBRARY", TILELAB_HIP_SHIM, 1); }
  void TearDown() override { unsetenv("TILELAB_HIP_LIBRARY"); }
};

TEST_F(HipShim, DeviceFactsComeThroughTheR0600Properties) {
  const auto d = hw::open_hip_device(0);
  EXPECT_EQ(d->info().backend, "hip");
  EXPECT_EQ(d->info().arch, "gfx950");  // read at offset 1160
  EXPECT_EQ(d->info().arch_detail, "gfx950:sramecc+:xnack-");
  EXPECT_EQ(d->info().name, "tilelab HIP shim (functional emulator, gfx950)");
  EXPECT_EQ(d->info().wave_size, 64);
  EXPECT_EQ(d->info().core_clock_khz, 1590000);  // the cycle model's clock (timing.clock_mhz)
  // L2 (4 MiB from the shim) plus the 256 MiB Infinity Cache, twice.
  EXPECT_EQ(d->info().flush_bytes, 2u * ((4u << 20) + (256u << 20)));
}

// The whole path: the host's buffers through hipMalloc / hipMemcpy, the
// argument buffer through hipModuleLaunchKernel's `extra` (the shim reads it
// back by the metadata), events, and the stamp build's records decoded.
TEST_F(HipShim, RunsTimesAndStampsAKernel) {
  const auto d = hw::open_hip_device(0);
  kernels::RunOptions o;
  o.code_object_dir = TILELAB_CODE_OBJECTS;
  o.reps = 3;
  o.warmup = 1;
  o.flush = false;
  o.wave_stamps = true;
  const kernels::DeviceRun r = kernels::run_on_device(*d, "rmsnorm_bf16", {8, 512}, 2, o);
  EXPECT_TRUE(r.check.pass()) << r.check.max_rel_error;
  EXPECT_TRUE(r.timed);
  EXPECT_EQ(r.timing.seconds.size(), 3u);
  EXPECT_GT(r.timing.min, 0);
  ASSERT_EQ(r.waves.size(), 8u * 4u);  // 8 rows x 4 waves
  for (std::size_t i = 0; i < r.waves.size(); ++i) {
    EXPECT_EQ(r.waves[i].block_x, i / 4);
    EXPECT_EQ(r.waves[i].wave, i % 4);
    EXPECT_EQ(r.waves[i].simd, static_cast<int>(i % 4));  // the emulator's HW_ID: wave w on SIMD w % 4
    EXPECT_GT(r.waves[i].clock_end, r.waves[i].clock_start);
  }
}

}  // namespace
}  // namespace tilelab
