// Writes a store with two synthetic runs (sim and hw) for the h5py and CLI tests.
// usage: make_trace_fixture FILE
#include <filesystem>
#include <iostream>

#include "synthetic_runs.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_trace_fixture FILE\n";
    return 2;
  }
  std::filesystem::remove(argv[1]);
  tilelab::testing::SyntheticRun sim, hw;
  hw.id = "hw-0";
  hw.kind = "hw";
  hw.valu_cycles = 8;
  hw.median_ns = 1500;
  hw.lds_conflicts = 0;
  tilelab::testing::write_synthetic(argv[1], sim);
  tilelab::testing::write_synthetic(argv[1], hw);
  return 0;
}
