#include "layouts/render.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

namespace tilelab {

namespace {

struct Grid {
  Int rows = 0;
  Int cols = 0;
};

// Rows and columns of a rank-1 or rank-2 layout's picture.
Grid grid_of(const IntTuple& shape) {
  if (!shape.is_tuple()) return {1, size(shape)};
  if (shape.rank() == 1) return {1, size(shape[0])};
  if (shape.rank() == 2) return {size(shape[0]), size(shape[1])};
  throw LayoutError("a picture needs a rank-1 or rank-2 layout, " + to_string(shape) + " has rank " +
                    std::to_string(shape.rank()) + " (group modes first)");
}

Grid checked_grid(const IntTuple& shape) {
  Grid g = grid_of(shape);
  if (g.rows * g.cols > kMaxPictureCells)
    throw LayoutError("a picture of " + std::to_string(g.rows * g.cols) + " cells is too large (limit " +
                      std::to_string(kMaxPictureCells) + ")");
  return g;
}

// The coordinate of cell (r, c) for a layout of this shape.
IntTuple cell_coord(const IntTuple& shape, Int r, Int c) {
  if (!shape.is_tuple()) return c;
  if (shape.rank() == 1) return IntTuple{IntTuple(c)};
  return IntTuple{r, c};
}

using CellText = std::function<std::string(Int, Int)>;

std::string text_grid(const std::string& title, Grid g, const CellText& cell) {
  std::size_t w = 1;
  for (Int r = 0; r < g.rows; ++r)
    for (Int c = 0; c < g.cols; ++c) w = std::max(w, cell(r, c).size());
  std::size_t rw = std::to_string(g.rows - 1).size();
  auto pad = [](const std::string& s, std::size_t n) { return std::string(n > s.size() ? n - s.size() : 0, ' ') + s; };
  std::ostringstream out;
  out << title << "\n" << std::string(rw + 1, ' ');
  std::string header;
  for (Int c = 0; c < g.cols; ++c) header += "  " + pad(std::to_string(c), w) + " ";
  out << header.substr(0, header.find_last_not_of(' ') + 1);
  std::string rule = std::string(rw + 1, ' ') + "+";
  for (Int c = 0; c < g.cols; ++c) rule += std::string(w + 2, '-') + "+";
  out << "\n" << rule << "\n";
  for (Int r = 0; r < g.rows; ++r) {
    out << pad(std::to_string(r), rw) << " |";
    for (Int c = 0; c < g.cols; ++c) out << " " << pad(cell(r, c), w) << " |";
    out << "\n" << rule << "\n";
  }
  return out.str();
}

// Eight distinguishable fills, cycled (threads or offsets modulo 8).
const char* const kPalette[8] = {"#AFCBFF", "#FFC9A8", "#B8E6B8", "#F4B6C2",
                                 "#D7C4F0", "#FFF1A8", "#A8E6E0", "#E0E0E0"};


std::string svg_grid(const std::string& title, Grid g, const CellText& cell, const std::function<Int(Int, Int)>& colour) {
  const int cw = 44, ch = 24, margin = 28, top = 48;
  Int width = margin + g.cols * cw + 8, height = top + g.rows * ch + 8;
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"monospace\" font-size=\"11\">\n";
  out << "<text x=\"4\" y=\"16\" font-size=\"13\">" << xml_escape(title) << "</text>\n";
  for (Int c = 0; c < g.cols; ++c)
    out << "<text x=\"" << margin + c * cw + cw / 2 << "\" y=\"" << top - 6 << "\" text-anchor=\"middle\">" << c
        << "</text>\n";
  for (Int r = 0; r < g.rows; ++r) {
    out << "<text x=\"" << margin - 4 << "\" y=\"" << top + r * ch + ch / 2 + 4 << "\" text-anchor=\"end\">" << r
        << "</text>\n";
    for (Int c = 0; c < g.cols; ++c) {
      Int x = margin + c * cw, y = top + r * ch;
      out << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cw << "\" height=\"" << ch << "\" fill=\""
          << kPalette[((colour(r, c) % 8) + 8) % 8] << "\" stroke=\"black\"/>";
      out << "<text x=\"" << x + cw / 2 << "\" y=\"" << y + ch / 2 + 4 << "\" text-anchor=\"middle\">"
          << xml_escape(cell(r, c)) << "</text>\n";
    }
  }
  out << "</svg>\n";
  return out.str();
}

template <class F>
CellText offsets_of(const IntTuple& shape, const F& f) {
  return [shape, f](Int r, Int c) { return std::to_string(f(cell_coord(shape, r, c))); };
}

// Which thread and value hold tile cell (r, c).
ThreadValue tv_cell(const TVLayout& tv, Int r, Int c) {
  IntTuple coord = tv.tile_shape.is_tuple() ? IntTuple{r, c} : IntTuple(c);
  return owner_of(tv, coord);
}

Grid tv_grid(const TVLayout& tv) { return checked_grid(tv.tile_shape); }

std::string tv_title(const TVLayout& tv) {
  return "thread-value layout " + to_string(tv.tv) + " over tile " + to_string(tv.tile_shape);
}

CellText tv_text(const TVLayout& tv) {
  return [&tv](Int r, Int c) {
    ThreadValue o = tv_cell(tv, r, c);
    return "T" + std::to_string(o.thread) + "V" + std::to_string(o.value);
  };
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string r;
  for (char ch : s) {
    if (ch == '<') r += "&lt;";
    else if (ch == '>') r += "&gt;";
    else if (ch == '&') r += "&amp;";
    else r += ch;
  }
  return r;
}

std::string table(const Layout& l) {
  return text_grid(to_string(l), checked_grid(l.shape()), offsets_of(l.shape(), [&](const IntTuple& x) { return l(x); }));
}

std::string table(const ComposedLayout& c) {
  const IntTuple& s = c.layout.shape();
  return text_grid(to_string(c), checked_grid(s), offsets_of(s, [&](const IntTuple& x) { return c(x); }));
}

std::string table(const TVLayout& tv) { return text_grid(tv_title(tv), tv_grid(tv), tv_text(tv)); }

std::string svg(const Layout& l) {
  const IntTuple& s = l.shape();
  return svg_grid(to_string(l), checked_grid(s), offsets_of(s, [&](const IntTuple& x) { return l(x); }),
                  [&](Int r, Int c) { return l(cell_coord(s, r, c)); });
}

std::string svg(const ComposedLayout& cl) {
  const IntTuple& s = cl.layout.shape();
  return svg_grid(to_string(cl), checked_grid(s), offsets_of(s, [&](const IntTuple& x) { return cl(x); }),
                  [&](Int r, Int c) { return cl(cell_coord(s, r, c)); });
}

std::string svg(const TVLayout& tv) {
  return svg_grid(tv_title(tv), tv_grid(tv), tv_text(tv), [&](Int r, Int c) { return tv_cell(tv, r, c).thread; });
}

}  // namespace tilelab
