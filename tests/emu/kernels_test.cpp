// The project's kernels run in the functional emulator against their CPU
// references, on several shapes and both arches; determinism; the emulated
// LDS conflicts against the design check; opcode coverage of every kernel.
#include <gtest/gtest.h>

#include <set>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "generated/kernel_build.hpp"
#include "hw/emu/emu_device.hpp"
#include "kernels/design_check.hpp"
#include "tests/common/run_suite.hpp"
#include "kernels/host.hpp"
#include "kernels/spec.hpp"
#include "sim/timing/cycle_model.hpp"

namespace tilelab {
namespace {

struct Case {
  const char* kernel;
  std::vector<long long> shape;
};

const std::vector<Case> kCases = {
    {"rmsnorm_bf16", {4, 2048}}, {"rmsnorm_bf16", {7, 8}},        {"rmsnorm_bf16", {3, 16384}},
    {"rmsnorm_bf16", {2, 4104}}, {"gemm_bf16", {128, 128, 64}},   {"gemm_bf16", {256, 128, 128}},
    {"gemm_bf16", {128, 256, 192}},
    {"topk_f32", {4, 1024, 8}},        {"topk_f32", {3, 64, 32}},           {"topk_f32", {2, 4096, 1}},
    {"topk_bf16", {3, 64, 32}},        {"topk_bf16", {2, 2048, 17}},
    {"grouped_gemm_bf16", {4, 128, 256, 128}}, {"grouped_gemm_bf16", {3, 256, 128, 64}},
    {"attention_fwd_d64", {1, 128, 0}},  {"attention_fwd_d64", {2, 256, 1}}, {"attention_fwd_d64", {1, 384, 0}},
    {"attention_fwd_d128", {1, 128, 1}}, {"attention_fwd_d128", {1, 256, 0}}, {"attention_fwd_d128", {1, 384, 1}},
    // The backward pass at sequence lengths that are and are not multiples of the 64-row tiles.
    {"attention_bwd_d64", {1, 64, 0}},   {"attention_bwd_d64", {2, 100, 1}}, {"attention_bwd_d64", {1, 200, 0}},
    {"attention_bwd_d64", {1, 33, 1}},   {"attention_bwd_d128", {1, 128, 1}}, {"attention_bwd_d128", {1, 100, 0}},
    {"attention_bwd_d128", {2, 70, 1}},  {"attention_bwd_prep_d64", {3, 100}}, {"attention_bwd_prep_d128", {2, 64}},
};

// gfx950 only: the scaled f8f6f4 MFMA, and attention at D = 256 (80 KiB of LDS).
const std::vector<Case> kGfx950Cases = {
    {"attention_fwd_d256", {1, 64, 0}}, {"attention_fwd_d256", {1, 128, 1}}, {"attention_fwd_d256", {2, 192, 0}},
    {"attention_fwd_d256", {1, 320, 1}},
    {"attention_bwd_tr_d64", {1, 100, 1}}, {"attention_bwd_tr_d64", {2, 128, 0}},
    {"attention_bwd_tr_d128", {1, 70, 0}}, {"attention_bwd_tr_d128", {1, 192, 1}},
    {"gemm_mxfp8", {128, 128, 128}}, {"gemm_mxfp8", {256, 128, 256}},
    {"gemm_mxfp4", {128, 128, 128}}, {"gemm_mxfp4", {128, 256, 256}},
    {"gemm_mxfp8_32x32", {128, 128, 128}}, {"gemm_mxfp8_32x32", {256, 128, 384}},
    {"gemm_mxfp4_32x32", {128, 128, 256}}, {"gemm_mxfp4_32x32", {128, 256, 128}},
};

TEST(EmuKernels, MatchTheirReferences) {
  for (const char* arch : {"gfx950", "gfx942"})
    for (const Case& c : kCases)
      for (std::uint64_t seed : {1u, 2u}) {
        app::FunctionalRun r = testing::run_suite(c.kernel, arch, c.shape, seed);
        EXPECT_TRUE(r.pass) << c.kernel << " " << arch << " seed " << seed << ": error " << r.max_rel_error
                            << " > " << r.tolerance;
        EXPECT_GT(r.stats.wave_instructions, 0u);
        EXPECT_EQ(r.stats.lds_races.count, 0u) << c.kernel << " " << arch << ": two waves meet in LDS between barriers";
        EXPECT_EQ(r.stats.workgroups * static_cast<std::uint64_t>(kernels::find_spec(c.kernel).waves(64)), r.stats.waves);
      }
  for (const Case& c : kGfx950Cases)
    for (std::uint64_t seed : {1u, 2u}) {
      app::FunctionalRun r = testing::run_suite(c.kernel, "gfx950", c.shape, seed);
      EXPECT_TRUE(r.pass) << c.kernel << " seed " << seed << ": error " << r.max_rel_error << " > " << r.tolerance;
      EXPECT_EQ(r.stats.lds_races.count, 0u) << c.kernel;
    }
}

// The microbenchmarks: LDS sites cost what the bank model says for the
// documented per-lane addresses (several strides and swizzles from the
// seeds), MFMA checksums, the pointer chase and the copy.
TEST(EmuKernels, MicrobenchmarksDoWhatTheySay) {
  for (const char* arch : {"gfx950", "gfx942"})
    for (const char* k : {"lds_read_b32", "lds_read_b64", "lds_read_b128", "lds_read_b64_tr_b16", "lds_write_b32", "lds_write_b64",
                          "lds_write_b128", "mfma_dependent_chain", "mfma_independent_streams", "pointer_chase",
                          "stream_copy"})
      for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
        if (std::string(k) == "lds_read_b64_tr_b16" && std::string(arch) == "gfx942") continue;  // gfx950 only
        app::FunctionalRun r = testing::run_suite(k, arch, {20}, seed);
        EXPECT_TRUE(r.pass) << k << " " << arch << " seed " << seed << ": " << r.tolerance_why;
      }
}

// topk's per-thread insertion once wrote each new element into slot 0; with
// distinct increasing inputs that is invisible, with ties and shuffled
// values it loses elements.  The emulated kernel must now rank like the
// reference on inputs full of ties and NaNs (the host draws them).
TEST(EmuKernels, TopkKeepsTiesAndNaNsInOrder) {
  for (const char* arch : {"gfx950", "gfx942"}) {
    app::FunctionalRun r = testing::run_suite("topk_f32", arch, {2, 8192, 32}, 11);
    EXPECT_TRUE(r.pass) << arch;
    EXPECT_EQ(r.max_rel_error, 0.0);
  }
}

// A broken input (other data than the reference sees) must fail: the check bites.
TEST(EmuKernels, TheComparisonBites) {
  app::FunctionalRun a = testing::run_suite("gemm_bf16", "gfx950", {128, 128, 64}, 1);
  app::FunctionalRun b = testing::run_suite("gemm_bf16", "gfx950", {128, 128, 64}, 2);
  ASSERT_EQ(a.output.size(), b.output.size());
  std::vector<std::uint16_t> out(a.output.size() / 2), ref(b.output.size() / 2);
  std::memcpy(out.data(), a.output.data(), a.output.size());
  std::memcpy(ref.data(), b.output.data(), b.output.size());
  EXPECT_GT(kernels::max_rel_error_bf16(out, ref), 0.5);
}

TEST(EmuKernels, SameSeedSameBytes) {
  for (const char* kernel : {"rmsnorm_bf16", "gemm_bf16"}) {
    std::vector<long long> shape = std::string(kernel) == "gemm_bf16" ? std::vector<long long>{128, 128, 128}
                                                                      : std::vector<long long>{3, 4096};
    app::FunctionalRun a = testing::run_suite(kernel, "gfx950", shape, 7);
    app::FunctionalRun b = testing::run_suite(kernel, "gfx950", shape, 7);
    EXPECT_EQ(a.output, b.output) << kernel;
    EXPECT_EQ(a.stats.wave_instructions, b.stats.wave_instructions);
    ASSERT_EQ(a.stats.lds_sites.size(), b.stats.lds_sites.size());
    for (std::size_t i = 0; i < a.stats.lds_sites.size(); ++i) {
      EXPECT_EQ(a.stats.lds_sites[i].conflict_cycles, b.stats.lds_sites[i].conflict_cycles);
      EXPECT_EQ(a.stats.lds_sites[i].executions, b.stats.lds_sites[i].executions);
    }
  }
}

// The causal mask changes the result (the check is not blind to it), and
// every causal row's output depends only on keys up to it: the first query
// block's output is the same whatever lies in later keys.
TEST(EmuKernels, AttentionCausalMaskMatters) {
  app::FunctionalRun full = testing::run_suite("attention_fwd_d64", "gfx950", {1, 256, 0}, 5);
  app::FunctionalRun causal = testing::run_suite("attention_fwd_d64", "gfx950", {1, 256, 1}, 5);
  ASSERT_TRUE(full.pass && causal.pass);
  EXPECT_NE(full.output, causal.output);
}

// The backward pass needs its preprocessing: the host's pass (delta, then the
// gradients) passes; the main kernel launched alone, on the delta buffer the
// host allocated and never wrote (zeros), fails the check.
TEST(EmuKernels, AttentionBackwardNeedsItsPreprocessing) {
  hw::EmuDevice device(arch::load_arch("gfx950"));
  const isa::CodeObject co = isa::read_code_object(std::string(TILELAB_CODE_OBJECTS) + "/gfx950/attention_bwd.hsaco");
  const hw::Kernel k = device.load_kernel(co, "attention_bwd_d64");
  kernels::HostLaunch alone = kernels::find_host("attention_bwd_d64")(device, {1, 100, 1}, 3);
  ASSERT_EQ(alone.before.size(), 1u);
  EXPECT_EQ(alone.before[0].kernel, "attention_bwd_prep_d64");
  device.launch(k, alone.grid, alone.block, alone.dynamic_lds, alone.arguments);
  EXPECT_FALSE(alone.check().pass());
  kernels::HostLaunch pass = kernels::find_host("attention_bwd_d64")(device, {1, 100, 1}, 3);
  kernels::launch_pass(device, kernels::load_pass(device, co.bytes, k, pass), pass);
  EXPECT_TRUE(pass.check().pass());
}

// The backward pass's causal mask matters: each of dQ, dK, dV changes.
TEST(EmuKernels, AttentionBackwardCausalMaskMatters) {
  app::FunctionalRun full = testing::run_suite("attention_bwd_d64", "gfx950", {1, 100, 0}, 5);
  app::FunctionalRun causal = testing::run_suite("attention_bwd_d64", "gfx950", {1, 100, 1}, 5);
  ASSERT_TRUE(full.pass && causal.pass);
  ASSERT_EQ(full.output.size(), causal.output.size());
  const std::size_t third = full.output.size() / 3;
  for (int part = 0; part < 3; ++part)
    EXPECT_FALSE(std::equal(full.output.begin() + static_cast<long>(part * third), full.output.begin() + static_cast<long>((part + 1) * third),
                            causal.output.begin() + static_cast<long>(part * third)))
        << "gradient " << part;
}

// The kernels' LDS accesses as the code really makes them cost what the
// design check says: conflict cycles per wave-instruction, per instruction kind.
TEST(EmuKernels, LdsConflictsEqualTheDesignCheck) {
  for (const auto& [kernel, shape] : std::vector<std::pair<std::string, std::vector<long long>>>{
           {"gemm_bf16", {256, 256, 128}}, {"attention_fwd_d64", {1, 256, 1}}, {"attention_fwd_d128", {1, 256, 0}},
           {"gemm_mxfp8_32x32", {128, 128, 256}}, {"gemm_mxfp4_32x32", {128, 128, 256}},
           {"attention_fwd_d256", {1, 128, 1}}, {"attention_bwd_d64", {1, 128, 1}}, {"attention_bwd_d128", {1, 100, 0}},
           {"attention_bwd_tr_d128", {1, 100, 1}}}) {
  for (const char* arch : {"gfx950", "gfx942"}) {
    const auto& archs = kernels::find_spec(kernel).archs;
    if (std::find(archs.begin(), archs.end(), arch) == archs.end()) continue;
    app::FunctionalRun r = testing::run_suite(kernel, arch, shape, 1);
    kernels::DesignReport d = kernels::design_check(kernels::find_spec(kernel), arch::load_arch(arch), std::nullopt, shape);
    std::map<std::string, std::pair<double, double>> emulated, designed;  // kind -> (instructions, conflicts)
    for (const auto& s : r.stats.lds_sites) {
      ASSERT_TRUE(s.modelled) << s.text;
      emulated[s.instruction].first += static_cast<double>(s.executions);
      emulated[s.instruction].second += static_cast<double>(s.conflict_cycles);
    }
    for (const auto& a : d.accesses) {
      designed[a.instruction].first += static_cast<double>(a.instructions);
      designed[a.instruction].second += static_cast<double>(a.conflict_cycles);
    }
    ASSERT_EQ(emulated.size(), designed.size()) << arch;
    for (const auto& [kind, e] : emulated) {
      ASSERT_TRUE(designed.count(kind)) << kind;
      EXPECT_DOUBLE_EQ(e.second / e.first, designed[kind].second / designed[kind].first) << arch << " " << kind;
    }
    // gemm: each wave stores 8 KiB of the 32 KiB A+B stage per K step of 64:
    // 8 ds_write_b128; 4 workgroups x 4 waves x 2 K steps.
    if (kernel == "gemm_bf16") {
      EXPECT_EQ(emulated["ds_write_b128"].first, 16.0 * 8 * (128 / 64)) << arch;
    }
  }
}
}

// Every compiled kernel of the suite uses only opcodes the emulator implements,
// and every one has an emulated host.
TEST(EmuKernels, OpcodeCoverage) {
  namespace fs = std::filesystem;
  std::vector<std::string> emulated = app::emulated_kernels();
  int kernels_seen = 0;
  for (const char* arch : {"gfx950", "gfx942"}) {
    arch::Arch a = arch::load_arch(arch);
    for (const auto& entry : fs::directory_iterator(fs::path(TILELAB_CODE_OBJECTS) / arch)) {
      isa::CodeObject co = isa::read_code_object(entry.path().string());
      for (const auto& k : co.kernels) {
        emu::Emulator e(co, k.name, a);
        std::vector<std::string> missing = e.unimplemented();
        ++kernels_seen;
        EXPECT_TRUE(std::find(emulated.begin(), emulated.end(), k.name) != emulated.end()) << k.name << " has no host";
        EXPECT_TRUE(missing.empty()) << k.name << " on " << arch << " uses unimplemented " << missing.front();
      }
    }
  }
  EXPECT_GT(kernels_seen, 30);
}

TEST(EmuKernels, RefusesBadRequests) {
  EXPECT_THROW(testing::run_suite("no_such_kernel", "gfx950", {1}, 1), std::invalid_argument);
  EXPECT_THROW(testing::run_suite("gemm_bf16", "gfx950", {100, 128, 64}, 1), std::invalid_argument);  // M % 128
  EXPECT_THROW(testing::run_suite("gemm_bf16", "gfx950", {128, 128}, 1), std::invalid_argument);
  try {
    testing::run_suite("attention_fwd_d256", "gfx942", {1, 64, 0}, 1);
    FAIL() << "a gfx950-only kernel ran on gfx942";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "attention_fwd_d256 is not built for gfx942 (only for gfx950)");
  }
}

// A kernel clang-22 compiled with forced spills (tests/data/compiled/spills.hip:
// 168 bytes of scratch per lane, 72 scratch instructions) gives its exact
// integer result through the private segment, run functionally and under
// the cycle model (issue 26).
// Assembly as input: gemm_bf16 as clang -S writes it, assembled and linked by
// tilelab (sim/isa/assembler.hpp), runs functionally and under the cycle
// model and matches its reference.
TEST(EmuKernels, AssembledCompilerOutputRunsAndMatchesItsReference) {
  const std::vector<std::uint8_t> co = hw::read_code_object(std::string(TILELAB_COMPILED_TEST_COS) + "/gfx950/gemm_bf16.s");
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tilelab-asm-run-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "gfx950");
  {
    std::ofstream o(dir / "gfx950" / "gemm_bf16.hsaco", std::ios::binary);
    o.write(reinterpret_cast<const char*>(co.data()), static_cast<std::streamsize>(co.size()));
  }
  const app::FunctionalRun f = testing::run_suite("gemm_bf16", "gfx950", {256, 256, 128}, 3, dir.string());
  EXPECT_TRUE(f.pass) << f.max_rel_error;
  const arch::Arch a = arch::load_arch("gfx950");
  timing::CycleModel m(a);
  const app::FunctionalRun t = testing::run_suite("gemm_bf16", "gfx950", {256, 256, 128}, 3, dir.string(),
                                                  [&](emu::Emulator& e) { m.attach(e); });
  EXPECT_TRUE(t.pass);
  EXPECT_EQ(m.result().workgroups, 4u);
  std::filesystem::remove_all(dir);
}

TEST(EmuKernels, CompilerSpillsRunThroughThePrivateSegment) {
  const std::vector<std::uint8_t> co = hw::read_code_object(TILELAB_SPILLS_CO);
  constexpr int kItems = 256;  // 4 workgroups of 64
  std::vector<std::uint32_t> in(static_cast<std::size_t>(kItems) * 48);
  std::uint32_t x = 12345;
  for (std::uint32_t& v : in) v = x = x * 1664525u + 1013904223u;
  std::vector<std::uint32_t> want(kItems);
  for (int t = 0; t < kItems; ++t) {
    const std::uint32_t* v = &in[static_cast<std::size_t>(t) * 48];
    std::uint32_t sum = 0;
    for (int i = 0; i < 48; ++i) sum += (v[i] * v[47 - i]) ^ v[(i * 7) % 48];
    want[static_cast<std::size_t>(t)] = sum;
  }
  for (bool timed : {false, true}) {
    const arch::Arch a = arch::load_arch("gfx950");
    std::optional<timing::CycleModel> model;
    if (timed) model.emplace(a, timing::Options{});
    hw::EmuDevice d(a, [&](emu::Emulator& e) {
      if (model) model->attach(e);
    });
    const hw::Kernel k = d.load_kernel(co, "spills");
    const std::uint64_t out = d.allocate(4 * kItems, "out"), src = d.allocate(4 * in.size(), "in");
    d.copy_to_device(src, in.data(), 4 * in.size());
    d.launch(k, {kItems / 64, 1, 1}, {64, 1, 1}, 0, {out, src});
    std::vector<std::uint32_t> got(kItems);
    d.copy_to_host(got.data(), out, 4 * kItems);
    EXPECT_EQ(got, want) << (timed ? "under the cycle model" : "functional");
    if (timed) {
      EXPECT_EQ(model->result().waves, 4u);
      EXPECT_GT(model->result().global_bytes, 4u * in.size());  // the spill traffic beyond the inputs
    }
  }
}

// A kernel clang-22 compiled to read a __constant__ table and count into a
// __device__ array of its own code object (tests/data/compiled/globals.hip),
// both reached pc-relative (s_getpc_b64 + rel32): exact results functionally
// and under the cycle model, and the second kernel of the same code object
// reads what the first wrote (the device maps a code object once).
TEST(EmuKernels, CompilerGlobalsReachedFromTheProgramCounter) {
  const std::vector<std::uint8_t> co = hw::read_code_object(TILELAB_GLOBALS_CO);
  const std::uint32_t table[64] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2,
                                   6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7, 1, 6, 9, 3,
                                   9, 9, 3, 7, 5, 1, 0, 5, 8, 2, 0, 9, 7, 4, 9, 4, 4, 5, 9, 2};
  constexpr std::uint32_t kItems = 192;  // 3 workgroups of 64
  std::vector<std::uint32_t> in(kItems), want(kItems);
  for (std::uint32_t t = 0; t < kItems; ++t) in[t] = t * 2654435761u, want[t] = table[(in[t] * 7u) % 64u] + t;
  for (bool timed : {false, true}) {
    const arch::Arch a = arch::load_arch("gfx950");
    std::optional<timing::CycleModel> model;
    if (timed) model.emplace(a, timing::Options{});
    hw::EmuDevice d(a, [&](emu::Emulator& e) {
      if (model) model->attach(e);
    });
    const hw::Kernel k = d.load_kernel(co, "globals"), counts_kernel = d.load_kernel(co, "global_counts");
    const std::uint64_t out = d.allocate(4 * kItems, "out"), src = d.allocate(4 * kItems, "in"), counts = d.allocate(32, "counts");
    d.copy_to_device(src, in.data(), 4 * kItems);
    d.launch(k, {kItems / 64, 1, 1}, {64, 1, 1}, 0, {out, src});
    d.launch(k, {1, 1, 1}, {64, 1, 1}, 0, {out, src});  // a second launch counts on: 192 + 64 work-items
    d.launch(counts_kernel, {1, 1, 1}, {64, 1, 1}, 0, {counts});
    std::vector<std::uint32_t> got(kItems), got_counts(8);
    d.copy_to_host(got.data(), out, 4 * kItems);
    d.copy_to_host(got_counts.data(), counts, 32);
    for (std::uint32_t t = 64; t < kItems; ++t) ASSERT_EQ(got[t], want[t]) << t << (timed ? " timed" : " functional");
    EXPECT_EQ(got_counts, std::vector<std::uint32_t>(8, (kItems + 64) / 8)) << (timed ? "timed" : "functional");
  }
}

// Generic pointers (tests/data/compiled/flat.hip): clang-22 builds them from
// the apertures (s_mov_b64 ..., src_shared_base / src_private_base) and goes
// through flat_load / flat_store; each work-item's pointer lands in LDS, its
// private array or global memory by its input.  Exact, functional and timed.
TEST(EmuKernels, CompilerFlatPointersReachEveryAperture) {
  const std::vector<std::uint8_t> co = hw::read_code_object(TILELAB_FLAT_CO);
  constexpr std::uint32_t kItems = 128;
  std::vector<std::uint32_t> in(kItems), want(kItems), want_scratch(kItems, 0xdeadu);
  for (std::uint32_t t = 0; t < kItems; ++t) {
    in[t] = t * 7u + 1u;
    want[t] = in[t] * 3u + t + 1u;
    if (in[t] % 3u == 2u) want_scratch[t] = in[t] * 3u + t;
  }
  for (bool timed : {false, true}) {
    const arch::Arch a = arch::load_arch("gfx950");
    std::optional<timing::CycleModel> model;
    if (timed) model.emplace(a, timing::Options{});
    hw::EmuDevice d(a, [&](emu::Emulator& e) {
      if (model) model->attach(e);
    });
    const hw::Kernel k = d.load_kernel(co, "flat");
    const std::uint64_t out = d.allocate(4 * kItems, "out"), src = d.allocate(4 * kItems, "in"),
                        side = d.allocate(4 * kItems, "scratch_out");
    d.copy_to_device(src, in.data(), 4 * kItems);
    std::vector<std::uint32_t> untouched(kItems, 0xdeadu);
    d.copy_to_device(side, untouched.data(), 4 * kItems);
    d.launch(k, {kItems / 64, 1, 1}, {64, 1, 1}, 0, {out, src, side});
    std::vector<std::uint32_t> got(kItems), got_side(kItems);
    d.copy_to_host(got.data(), out, 4 * kItems);
    d.copy_to_host(got_side.data(), side, 4 * kItems);
    EXPECT_EQ(got, want) << (timed ? "timed" : "functional");
    EXPECT_EQ(got_side, want_scratch) << (timed ? "timed" : "functional");
  }
}

// A kernel is registered once, by its folder's line in kernels/suite.cmake:
// the build compiles the folder's sources and lists its specs and hosts from
// there.  What the folder holds must agree: every spec's source is one of the
// build's (a gfx950-only source gives gfx950-only specs; a shared source may
// still hold a kernel only gfx950 has), every spec has a host and every host
// a spec, and no source is without a spec.
TEST(EmuKernels, SpecsHostsAndBuildListsAgree) {
  std::set<std::string> sources(std::begin(kernels::build::kSources), std::end(kernels::build::kSources)), used;
  const std::set<std::string> gfx950_only(std::begin(kernels::build::kGfx950Only), std::end(kernels::build::kGfx950Only));
  const std::vector<std::string> hosts = kernels::hosted_kernels();
  for (const kernels::KernelSpec& s : kernels::all_specs()) {
    EXPECT_TRUE(sources.count(s.source)) << s.name << ": " << s.source << " is not a source of a folder in kernels/suite.cmake";
    EXPECT_NE(kernels::find_host(s.name), nullptr) << s.name << " has no host in its folder's host.cpp";
    const bool on_gfx942 = std::find(s.archs.begin(), s.archs.end(), "gfx942") != s.archs.end();
    if (gfx950_only.count(s.source)) {
      EXPECT_FALSE(on_gfx942) << s.name << ": its source is built for gfx950 only";
    }
    used.insert(s.source);
  }
  EXPECT_EQ(used, sources) << "a source of a suite folder without a spec";
  for (const std::string& h : hosts) EXPECT_NO_THROW(kernels::find_spec(h)) << h << " has a host but no spec";
}

}  // namespace
}  // namespace tilelab
