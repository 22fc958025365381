// Kernels run in the functional emulator (sim/emu) against their CPU
// references: inputs from a seed, the kernel's own code object executed
// instruction by instruction, the output compared element by element.
//
// Error metric (all kernels): max over output elements of
// |emulated - reference| / max(|reference|, floor), floor = 1e-3 x the
// largest |reference| of the output, so near-zero outputs are judged on the
// output's scale.  Each kernel states its tolerance and why.
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "sim/emu/emulator.hpp"

namespace tilelab::kernels {

struct EmulatedRun {
  std::string kernel, arch;
  std::vector<long long> shape;
  std::uint64_t seed = 0;
  double max_rel_error = 0;
  double tolerance = 0;
  std::string tolerance_why;
  bool pass = false;
  emu::RunStats stats;
  double seconds = 0;                  // wall time of the emulated dispatch (inputs and reference excluded)
  std::vector<std::uint8_t> output;    // the kernel's output bytes
};

// Runs `kernel` (a spec name) for `arch` on `shape` (the spec's dims; the
// shape rules are checked first) with inputs drawn from `seed`.  The code
// object is DIR/<arch>/<source>.hsaco, DIR defaulting to the build's.
// Throws std::invalid_argument for an unknown kernel, a kernel without an
// emulated host, or a shape the kernel refuses; emu::EmuError when the
// emulated run stops.
// `prepare`, when given, is called with the emulator before the host runs
// it: the cycle model attaches itself there (timing::CycleModel::attach).
EmulatedRun run_emulated(const std::string& kernel, const std::string& arch, const std::vector<long long>& shape,
                         std::uint64_t seed, const std::string& code_object_dir = "",
                         const std::function<void(emu::Emulator&)>& prepare = {});

// The kernels that have an emulated host (a launch description).
std::vector<std::string> emulated_kernels();

// ---- for the kernels' host files ----
// A device buffer holding v (allocated even when v is empty); its address.
template <class T>
std::uint64_t upload(emu::GlobalMemory& memory, const std::vector<T>& v, const std::string& name) {
  const std::uint64_t address = memory.allocate(v.size() * sizeof(T), name);
  if (!v.empty()) memory.write(address, v.data(), v.size() * sizeof(T));
  return address;
}
// n elements read back from a device buffer.
template <class T>
std::vector<T> download(const emu::GlobalMemory& memory, std::uint64_t address, std::size_t n) {
  std::vector<T> v(n);
  if (n) memory.read(address, v.data(), n * sizeof(T));
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

// Max relative error as defined above, over bf16 outputs.
double max_rel_error_bf16(const std::vector<std::uint16_t>& out, const std::vector<std::uint16_t>& ref);
double max_rel_error_f32(const std::vector<float>& out, const std::vector<float>& ref);
std::vector<std::uint16_t> random_bf16(std::size_t n, std::uint64_t seed, float lo, float hi);

struct HostResult {
  double max_rel_error = 0, tolerance = 0;
  std::string tolerance_why;
  emu::RunStats stats;
  std::vector<std::uint8_t> output;
};
HostResult rmsnorm_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed);
HostResult gemm_bf16_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed);
HostResult topk_f32_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed);
HostResult topk_bf16_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed);
HostResult gemm_mxfp8_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed);
HostResult gemm_mxfp4_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed);
HostResult attention_fwd_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed, int D);
// The microbenchmarks (kernels/micro/host.cpp), by kernel name.
HostResult micro_emulated(const std::string& kernel, emu::Emulator& e, const std::vector<long long>& shape,
                          std::uint64_t seed);
HostResult grouped_gemm_bf16_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed);

}  // namespace tilelab::kernels
