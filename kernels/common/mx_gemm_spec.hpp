// The layout spec shared by the MX scaled GEMMs (gemm_mxfp8, gemm_mxfp4):
// the same 128x128x128 block tile over 4 waves, double-buffered A and B tiles
// in LDS, 16-byte copy chunks and operand reads; what differs is how many
// bytes a tile row holds (K elements at 8 or 4 bits), hence the copy layout,
// the swizzle and the MFMA operand width.  Each is built with two MFMA atoms:
// 16x16x128 (4 x 4 atoms per wave) and 32x32x64 (2 x 2 atoms, two per K step).
#pragma once
#include "kernels/spec.hpp"

namespace tilelab::kernels {

struct MxGemmVariant {
  std::string name, source, summary, element;  // element: "E4M3", "E2M1 pairs"
  int bits = 8;                                // per element
  Swizzle swizzle;
  std::string mfma_atom, operand_values;
  int atom = 16;  // the MFMA's R x R output tile: 16 (16x16x128) or 32 (32x32x64)
};

// The template's parameters (mx_gemm_tile.hpp: TILE_M, TILE_N, WAVES_M,
// WAVES_N; the suite's build 128 x 128 over 2 x 2 waves), refused by the
// rules its static_asserts state (std::invalid_argument naming `kernel`).
struct MxTile {
  long long tile_m = 128, tile_n = 128, waves_m = 2, waves_n = 2;
};
MxTile mx_tile(const std::string& kernel, const TemplateParams& params, int bits);

KernelSpec mx_gemm_spec(const MxGemmVariant& v, const MxTile& t = {});

// `v` with the 32x32x64 MFMA atom: named <name>_32x32, with the swizzle its
// 32-row operand reads need and the atom's MFMA and operand values in words.
MxGemmVariant with_32x32_atom(MxGemmVariant v, Swizzle swizzle, std::string summary, std::string mfma_atom,
                              std::string operand_values);

}  // namespace tilelab::kernels
