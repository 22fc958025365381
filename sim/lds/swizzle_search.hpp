// Swizzle search: which LDS layout lets both the writer and the reader of a
// tile access it without bank conflicts.  Candidates are the row-major tile
// composed with every XOR swizzle Sw<B,M,S> that fits in the tile, and row
// padding (charged its extra LDS bytes); each is scored by the total conflict
// cycles of the writer's and the reader's instructions over the whole tile.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "layouts/swizzle.hpp"
#include "sim/lds/tile_access.hpp"

namespace tilelab::lds {

struct AccessSide {
  TVLayout tv;
  const BankModel* model;
};

struct Candidate {
  std::string layout;          // CuTe notation of the LDS layout (elements)
  std::optional<Swizzle> swizzle;
  int padding = 0;             // elements added to each row
  long long write_conflicts = 0;
  long long read_conflicts = 0;
  long long extra_bytes = 0;
  long long total() const { return write_conflicts + read_conflicts; }
};

struct SearchResult {
  Candidate plain;                 // the unswizzled row-major layout
  std::vector<Candidate> ranked;   // best first
  int evaluated = 0;               // candidates that could be scored
  int skipped = 0;                 // candidates that split a vector access
};

// tile: rows x columns in elements.  Ranking: conflict cycles, then extra
// bytes, then the smaller swizzle.
SearchResult search_swizzles(const AccessSide& write, const AccessSide& read, Int rows, Int cols, int elem_bytes);

}  // namespace tilelab::lds
