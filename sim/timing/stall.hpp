// Why a wave did not issue: the reasons the cycle model attributes each
// waiting cycle to, and the unit each instruction issues to.
#pragma once
#include <array>
#include <cstdint>

namespace tilelab::timing {

enum class Reason : std::uint8_t {
  none,           // issued at its first attempt
  waitcnt_vm,     // s_waitcnt vmcnt: global memory not yet returned
  waitcnt_lgkm,   // s_waitcnt lgkmcnt: LDS or scalar memory not yet returned
  barrier,        // s_barrier: other waves of the workgroup not there yet
  busy_valu,      // the SIMD's VALU (an earlier VALU op, or an MFMA's co-issue delay)
  busy_mfma,      // the SIMD's matrix core
  busy_lds,       // the SIMD pair's LDS queue full, or lgkmcnt at its maximum
  busy_vmem,      // the CU's vector memory path, its in-flight limit, or vmcnt at its maximum
  dependency,     // a transcendental result not ready, or s_nop wait states
  arbitration,    // another wave of the SIMD issued the same class in this slot
  sleep,          // s_sleep
  idle,           // no instruction to issue: refetch after a taken branch
};
inline constexpr int kReasonCount = 12;

inline const char* reason_name(Reason r) {
  static const char* const names[kReasonCount] = {
      "none",     "waitcnt-vmcnt", "waitcnt-lgkmcnt", "barrier",     "busy-VALU", "busy-MFMA",
      "busy-LDS", "busy-VMEM",     "dependency",      "arbitration", "sleep",     "idle"};
  return names[static_cast<int>(r)];
}

// The issue class an instruction takes in a slot (at most one of each per
// SIMD per slot), or none for the instructions that use no unit.
enum class Unit : std::uint8_t { valu, salu, vmem, lds, branch, none };
inline constexpr int kUnitCount = 5;

}  // namespace tilelab::timing
