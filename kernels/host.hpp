// A kernel's host, written once against hw::Device: it draws the inputs from
// a seed, uploads them, says how to launch, and checks the output against the
// CPU reference.  The same host runs on the functional emulator, the cycle
// model, HIP hardware and CUDA hardware (run_host below, `tilelab run`,
// `tilelab sim`).
//
// Error metric (all kernels): max over output elements of
// |device - reference| / max(|reference|, floor), floor = 1e-3 x the largest
// |reference| of the output, so near-zero outputs are judged on the output's
// scale.  Each kernel states its tolerance and why.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "hw/device.hpp"

namespace tilelab::kernels {

// A device buffer read back after the run, by name.
struct SavedBuffer {
  std::string name;
  std::vector<std::uint8_t> bytes;
};

// The output compared with the reference.
struct Checked {
  bool has_reference = true;  // false: a launch file's kernel; outputs are saved, not judged
  double max_rel_error = 0, tolerance = 0;
  std::string tolerance_why;
  std::vector<std::uint8_t> output;  // the kernel's output bytes
  std::vector<SavedBuffer> saved;    // buffers a launch file marks `save`
  bool pass() const { return !has_reference || max_rel_error <= tolerance; }
};

// A launch of another kernel of the main kernel's code object.
struct KernelLaunch {
  std::string kernel;
  hw::Dim3 grid, block;
  std::vector<std::uint64_t> arguments;
};

// What a host prepared on a device: one launch, repeatable (every launch
// writes the same outputs from the same inputs), and its check.
struct HostLaunch {
  hw::Dim3 grid, block;
  unsigned dynamic_lds = 0;              // LDS bytes beyond the kernel's own
  std::vector<std::uint64_t> arguments;  // one per explicit kernel argument
  // Kernels of the same code object that run first, in this order, every
  // time the main kernel runs: a pass of several kernels (attention
  // backward's preprocessing).  `tilelab run` times the pass as a whole; the
  // cycle model reports the main kernel (the last dispatch).
  std::vector<KernelLaunch> before;
  // Work per launch, for TFLOP/s and GB/s (0: not meaningful for the kernel).
  double flops = 0, bytes = 0;
  // Reads the outputs back and compares them with the reference (after a launch).
  std::function<Checked()> check;
};

// The kernels of a prepared launch, loaded: `before`'s, then the main one.
struct LoadedPass {
  std::vector<hw::Kernel> before;
  hw::Kernel main;
};
// Loads launch.before's kernels from `code_object` (the main kernel's).
LoadedPass load_pass(hw::Device& d, const std::vector<std::uint8_t>& code_object, hw::Kernel main, const HostLaunch& launch);
// Launches the pass: every `before` kernel in order, then the main kernel.
void launch_pass(hw::Device& d, const LoadedPass& pass, const HostLaunch& launch);

using Host = HostLaunch (*)(hw::Device& device, const std::vector<long long>& shape, std::uint64_t seed);

// A kernel's host by name: each folder of kernels/suite.cmake defines
//   std::vector<HostEntry> <folder>_suite_hosts();
// in its host.cpp, and find_host() looks through them in the suite's order.
struct HostEntry {
  const char* kernel;
  Host host;
};

// The host of spec `kernel`, or nullptr.
Host find_host(const std::string& kernel);
// The kernels that have a host.
std::vector<std::string> hosted_kernels();

// ---- for the kernels' host files ----
// A device buffer holding v (allocated even when v is empty); its address.
template <class T>
std::uint64_t upload(hw::Device& device, const std::vector<T>& v, const std::string& name) {
  const std::uint64_t address = device.allocate(v.size() * sizeof(T), name);
  if (!v.empty()) device.copy_to_device(address, v.data(), v.size() * sizeof(T));
  return address;
}
// n elements read back from a device buffer.
template <class T>
std::vector<T> download(hw::Device& device, std::uint64_t address, std::size_t n) {
  std::vector<T> v(n);
  if (n) device.copy_to_host(v.data(), address, n * sizeof(T));
  return v;
}
template <class T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<std::uint8_t> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}
// The GEMMs' tolerance (bf16 C from f32 sums in another order than the
// reference's): with |a|, |b| <= 1 the sums differ far below one bf16 step of
// the output scale, so the rounding moves by at most one step.
inline constexpr double kGemmTolerance = 1.0 / 64;
inline constexpr const char* kGemmToleranceWhy = "one bf16 step relative to the output scale (f32 sums in another order)";

// The check of a bf16 output: n values read back from `address` against
// `ref`, by max_rel_error_bf16, judged against `tolerance`.
Checked check_bf16_output(hw::Device& d, std::uint64_t address, std::size_t n, const std::vector<std::uint16_t>& ref,
                          double tolerance, const char* why);

// Max relative error as defined above.
double max_rel_error_bf16(const std::vector<std::uint16_t>& out, const std::vector<std::uint16_t>& ref);
double max_rel_error_f32(const std::vector<float>& out, const std::vector<float>& ref);
std::vector<std::uint16_t> random_bf16(std::size_t n, std::uint64_t seed, float lo, float hi);

// The MX GEMM host (kernels/common/mx_gemm_host.cpp) for the two MX folders.
HostLaunch gemm_mxfp8_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed);
HostLaunch gemm_mxfp4_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed);

}  // namespace tilelab::kernels
