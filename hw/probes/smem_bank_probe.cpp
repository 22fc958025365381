// smem_bank_probe — runs the shared-memory access cases the sm_90 bank model
// is validated against, one warp-instruction per kernel launch, so that
// Nsight Compute reports each case's wavefronts and bank conflicts as one
// launch (in case order).
//
// usage: smem_bank_probe CUBIN CASES_OUT [--holdout SEED]
//   CUBIN      smem_bank_kernels.cubin (nvcc -arch=sm_90 -cubin)
//   CASES_OUT  file to write the cases to: name, kernel, mask, 32 byte offsets
//   --holdout SEED  random cases from SEED instead of the fitted suite
// Run under Nsight Compute as hw/probes/run_smem_probe.sh does.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "hw/cuda/cuda_device.hpp"
#include "layouts/swizzle.hpp"

namespace {

struct Case {
  std::string name;
  std::string kernel;  // ld32 ld64 ld128 st32 st64 st128
  unsigned mask = 0xffffffffu;
  std::vector<unsigned> offsets = std::vector<unsigned>(32, 0);
};

std::vector<Case> make_cases() {
  std::vector<Case> cases;
  std::mt19937 rng(90);
  for (const char* op : {"ld", "st"}) {
    for (unsigned bytes : {4u, 8u, 16u}) {
      std::string kernel = std::string(op) + std::to_string(bytes * 8);
      auto add = [&](const std::string& what, unsigned mask, auto offset_of) {
        Case c;
        c.name = kernel + "." + what;
        c.kernel = kernel;
        c.mask = mask;
        for (unsigned lane = 0; lane < 32; ++lane) c.offsets[lane] = offset_of(lane);
        cases.push_back(c);
      };
      // Lane i at element i·s (s = 0 is a broadcast of one element).
      std::vector<unsigned> strides = bytes == 4 ? std::vector<unsigned>{0, 1, 2, 3, 4, 5, 8, 16, 32, 33}
                                      : bytes == 8 ? std::vector<unsigned>{0, 1, 2, 3, 4, 8, 16, 17}
                                                   : std::vector<unsigned>{0, 1, 2, 3, 4, 8, 9};
      for (unsigned s : strides)
        add("stride" + std::to_string(s), 0xffffffffu, [&](unsigned i) { return i * s * bytes; });
      // Pairs of lanes on one element; each half-warp on the same elements.
      add("pairs", 0xffffffffu, [&](unsigned i) { return (i / 2) * bytes; });
      add("halves_same", 0xffffffffu, [&](unsigned i) { return (i % 16) * bytes; });
      add("quarters_same", 0xffffffffu, [&](unsigned i) { return (i % 8) * bytes; });
      // Partial warps.
      add("stride1_lower_half", 0x0000ffffu, [&](unsigned i) { return i * bytes; });
      add("stride2_even_lanes", 0x55555555u, [&](unsigned i) { return i * 2 * bytes; });
      add("stride32_first4", 0x0000000fu, [&](unsigned i) { return i * 32 * 4; });
      add("stride1_lane31", 0x80000000u, [&](unsigned i) { return i * bytes; });
      // Row-major tile of 128-byte rows read down a column, plain and XOR-swizzled
      // (the swizzle acts on element indices; 128 / bytes elements per row).
      unsigned per_row = 128 / bytes, row_bits = per_row == 32 ? 5 : per_row == 16 ? 4 : 3;
      for (int b = 0; b <= static_cast<int>(row_bits); ++b) {
        tilelab::Swizzle sw(b, 0, static_cast<int>(row_bits));
        add("column_" + (b ? tilelab::to_string(sw) : std::string("plain")), 0xffffffffu,
            [&](unsigned i) { return static_cast<unsigned>(sw(i * per_row + 1)) * bytes; });
      }
      // Random element offsets in a 4 KiB window.
      for (int r = 0; r < 3; ++r) {
        std::vector<unsigned> pick(32);
        for (unsigned& p : pick) p = static_cast<unsigned>(rng() % (4096 / bytes)) * bytes;
        add("random" + std::to_string(r), 0xffffffffu, [&](unsigned i) { return pick[i]; });
      }
      // Random offsets among few elements (many lanes share), and random partial warps.
      for (int r = 0; r < 3; ++r) {
        std::vector<unsigned> pick(32);
        for (unsigned& p : pick) p = static_cast<unsigned>(rng() % 16) * bytes;
        add("random_shared" + std::to_string(r), 0xffffffffu, [&](unsigned i) { return pick[i]; });
      }
      for (int r = 0; r < 2; ++r) {
        std::vector<unsigned> pick(32);
        for (unsigned& p : pick) p = static_cast<unsigned>(rng() % (2048 / bytes)) * bytes;
        unsigned mask = static_cast<unsigned>(rng()) | 1u;
        add("random_mask" + std::to_string(r), mask, [&](unsigned i) { return pick[i]; });
      }
      // Which lanes can share one element without costing a wavefront: lanes
      // i and i^d read the same element, 16 distinct elements in all.
      for (unsigned d : {1u, 2u, 4u, 8u, 16u}) {
        add("share_lane_xor" + std::to_string(d), 0xffffffffu, [&](unsigned i) {
          unsigned g = i & ~d;                                  // the group's first lane
          unsigned below = g & (d - 1), above = (g >> 1) & ~(d - 1);  // drop bit log2(d)
          return (above | below) * bytes;
        });
      }
      add("share_lane_groups4", 0xffffffffu, [&](unsigned i) { return (i / 4) * bytes; });
      // Per lane group (8 lanes for 128-bit, 16 for 64-bit, 32 for 32-bit) one
      // element: groups on different banks, or on the same bank at different words.
      unsigned group = 128 / bytes;
      add("group_broadcast_other_banks", 0xffffffffu, [&](unsigned i) { return (i / group) * bytes; });
      add("group_broadcast_same_bank", 0xffffffffu, [&](unsigned i) { return (i / group) * 128; });
      add("lower_stride1_upper_lane0", 0xffffffffu, [&](unsigned i) { return i < 16 ? i * bytes : 0; });
      add("sparse_two_groups", 0x00ff00ffu, [&](unsigned i) { return i < 16 ? i * bytes : 64 + (i - 16) * bytes; });
      add("upper_overlaps_lower", 0x00ffffffu,
          [&](unsigned i) { return i < 16 ? i * bytes : 2048 + (i - 16) * bytes; });
      add("reversed", 0xffffffffu, [&](unsigned i) { return (31 - i) * bytes; });
      // Quads whose lanes pair up by different rules (lane l shares with l^s):
      // which pairings let loads merge phases, and must all quads use the same one?
      auto paired = [&](const std::vector<unsigned>& scheme) {
        return [scheme, bytes](unsigned i) {
          unsigned q = i / 4, s = scheme[q % scheme.size()], l = i % 4;
          unsigned lead = std::min(l, l ^ s);          // the pair's lower lane
          unsigned slot = s == 1 ? lead / 2 : lead;    // each quad's two pairs: slot 0 and 1
          return (q * 2 + slot) * bytes;
        };
      };
      add("pairs_xor3", 0xffffffffu, paired({3}));
      add("pairs_xor1_xor2_mixed", 0xffffffffu, paired({1, 2}));
      add("pairs_xor1_xor3_mixed", 0xffffffffu, paired({1, 3}));
      add("pairs_xor2_xor3_mixed", 0xffffffffu, paired({2, 3}));
      add("pairs_xor1_one_quad_xor2", 0xffffffffu, paired({1, 1, 1, 1, 1, 2, 1, 1}));
      add("xor5_permuted", 0xffffffffu, [&](unsigned i) { return (i ^ 5u) * bytes; });
    }
  }
  return cases;
}

// Held-out cases: random patterns from another seed, for checking the model's
// predictions on cases it was not fitted to.
std::vector<Case> make_holdout_cases(unsigned seed) {
  std::vector<Case> cases;
  std::mt19937 rng(seed);
  for (const char* op : {"ld", "st"})
    for (unsigned bytes : {4u, 8u, 16u})
      for (int r = 0; r < 20; ++r) {
        Case c;
        c.kernel = std::string(op) + std::to_string(bytes * 8);
        c.name = c.kernel + ".holdout" + std::to_string(r);
        unsigned window = std::vector<unsigned>{8, 16, 32, 64, 256}[rng() % 5];  // elements
        c.mask = rng() % 3 == 0 ? static_cast<unsigned>(rng()) | 1u : 0xffffffffu;
        bool grouped = rng() % 2;  // lanes in runs sharing an element
        unsigned run = 1u << (rng() % 3);
        unsigned base = static_cast<unsigned>(rng() % 64);
        for (unsigned lane = 0; lane < 32; ++lane) {
          unsigned e = grouped ? (base + (lane / run) * (1 + rng() % 3)) % 1024 : static_cast<unsigned>(rng() % window);
          c.offsets[lane] = e * bytes;
        }
        cases.push_back(c);
      }
  return cases;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && !(argc == 5 && std::string(argv[3]) == "--holdout")) {
    std::cerr << "usage: smem_bank_probe CUBIN CASES_OUT [--holdout SEED]\n";
    return 2;
  }
  std::vector<Case> cases = argc == 5 ? make_holdout_cases(static_cast<unsigned>(std::stoul(argv[4]))) : make_cases();
  {
    std::ofstream out(argv[2]);
    out << "# name\tkernel\tmask\toffsets (bytes, lanes 0..31)\n";
    for (const Case& c : cases) {
      char mask[16];
      std::snprintf(mask, sizeof mask, "0x%08x", c.mask);
      out << c.name << '\t' << c.kernel << '\t' << mask << '\t';
      for (unsigned i = 0; i < 32; ++i) out << (i ? "," : "") << c.offsets[i];
      out << '\n';
    }
  }
  try {
    auto dev = tilelab::hw::open_cuda_device(0);
    auto cubin = tilelab::hw::read_code_object(argv[1]);
    std::cerr << "device: " << dev->info().name << ", " << cases.size() << " cases\n";
    const std::uint64_t offsets = dev->allocate(32 * sizeof(unsigned), "offsets");
    const std::uint64_t out = dev->allocate(32 * sizeof(unsigned), "out");
    std::vector<unsigned> zeros(32, 0);
    dev->copy_to_device(out, zeros.data(), 32 * sizeof(unsigned));
    std::map<std::string, tilelab::hw::Kernel> kernels;
    for (const Case& c : cases) {
      if (!kernels.count(c.kernel)) kernels[c.kernel] = dev->load_kernel(cubin, c.kernel);
      const tilelab::hw::Kernel& k = kernels[c.kernel];
      dev->copy_to_device(offsets, c.offsets.data(), 32 * sizeof(unsigned));
      dev->launch(k, {1, 1, 1}, {32, 1, 1}, 0, {offsets, c.mask, out});
      dev->synchronize();
    }
  } catch (const std::runtime_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
