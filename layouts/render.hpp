// Pictures of layouts: text tables for the terminal and SVG for slides.
//
// A rank-2 layout is drawn as rows × columns of offsets (mode 0 down, mode 1
// across); a rank-1 layout as one row.  A thread–value layout is drawn over
// its tile, each cell labelled T#V# and coloured by thread, like CuTe's
// print_latex / print_svg pictures.
#pragma once

#include <string>

#include "layouts/swizzle.hpp"
#include "layouts/tv_layout.hpp"

namespace tilelab {

// Largest number of cells a picture may have (a 256×256 tile).
constexpr Int kMaxPictureCells = 65536;

std::string table(const Layout& l);
std::string table(const ComposedLayout& c);
std::string table(const TVLayout& tv);

std::string svg(const Layout& l);
std::string svg(const ComposedLayout& c);
std::string svg(const TVLayout& tv);

// `s` with <, > and & as XML entities (text placed in an SVG).
std::string xml_escape(const std::string& s);

}  // namespace tilelab
