// The element decode of the f8f6f4 matrix instructions (v_mfma{,_scale}_f32_
// {16x16x128,32x32x64}_f8f6f4): one element slot of `rows` consecutive lanes,
// each lane's code a bit field of its register, to floats, times the row's
// block scale.  Separate from the MFMA's layout (ops_mfma.cpp) so that the
// vector path can be checked against the scalar one code by code.
#pragma once
#include <cstdint>

namespace tilelab::emu {

// The formats of CBSZ/BLGP that are decoded, by their CBSZ/BLGP value: 0
// E4M3, 1 E5M2, 4 E2M1 (FP4).  FP6 (2 E2M3, 3 E3M2) has no decode here: its
// 6-bit fields straddle register boundaries, no suite or AMD kernel uses it
// and no test exercises its packing, so the MFMA refuses it with one line
// before decoding (ops_mfma.cpp, load_scaled), as it did before this file.
enum class MxFormat { e4m3 = 0, e5m2 = 1, e2m1 = 4 };

// Whether this host runs the AVX-512F paths of the emulator's matrix
// arithmetic (the decode here, the MFMA product in ops_mfma.cpp).
bool host_has_avx512f();

// One lane group's 32 element slots of an f8f6f4 operand, `rows` lanes (16
// or 32 take the vector path, others the scalar one): slot s is the field of
// width w (8, or 4 for E2M1) at bit w * (s % (32 / w)) of
// registers[s / (32 / w)][row]; its values go to out[rows * k[s] + row],
// times factor[rows * (k[s] / 32) + row] when factor is not null.  The
// values are decode_f8f6f4's (times the factor: one rounding), to the bit,
// whichever path runs.  `vector`: the AVX-512 path where the CPU has it
// (false: the scalar tables, the reference).
void decode_mx_slots(MxFormat format, const std::uint32_t* const registers[8], int rows, const int k[32],
                     const float* factor, float* out, bool vector = true);

}  // namespace tilelab::emu
