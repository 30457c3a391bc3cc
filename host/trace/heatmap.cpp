#include "trace/heatmap.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "arch/arch.h"

namespace tessera::trace {
namespace {

constexpr int kMaxCells = 128;  // per side; more PEs are drawn in blocks

// Viridis at t in [0, 1] (five stops, linear between them).
std::string Color(double t) {
  static constexpr double kStops[5][3] = {
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(t, 0.0, 1.0) * 4;
  const int i = std::min(3, static_cast<int>(t));
  const double f = t - i;
  auto c = [&](int k) {
    return static_cast<int>(std::lround(kStops[i][k] + f * (kStops[i + 1][k] - kStops[i][k])));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", c(0), c(1), c(2));
}

struct Blocks {
  int b, cw, ch;  // PEs per block side; cells across and down
  Blocks(int w, int h) {
    b = std::max(1, (std::max(w, h) + kMaxCells - 1) / kMaxCells);
    cw = (w + b - 1) / b;
    ch = (h + b - 1) / b;
  }
};

// A number as people read it: integers whole (1120, not 1.12e+03), fractions with 3 digits.
std::string Plain(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  if (std::fabs(v) >= 100) return fmt::format("{:.0f}", v);
  if (std::fabs(v) >= 1) return fmt::format("{:.1f}", v);
  return fmt::format("{:.3f}", v);
}

// The picture's size: wide enough for the grid and the whole title (about 7.5 px a character at
// 14 px).
int WidthFor(int grid, const std::string& title) {
  return std::max({grid, static_cast<int>(title.size() * 15 / 2) + 20, 360});
}

std::string Header(int width, int height, const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\">{}</text>\n",
      width, height, title);
}

// PE coordinates along the top (x) and the left side (y), every `step` cells.
std::string Axes(int left, int top, int size, const Blocks& bl) {
  std::string s;
  const int every = std::max(1, 24 / std::max(1, size));
  for (int cx = 0; cx < bl.cw; cx += every)
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\">{}</text>\n",
                     left + cx * size + size / 2, top - 6, cx * bl.b);
  for (int cy = 0; cy < bl.ch; cy += every)
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"10\">{}</text>\n",
                     left - 6, top + cy * size + size / 2 + 4, cy * bl.b);
  s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" font-style=\"italic\">PE x</text>\n",
                   left + bl.cw * size + 6, top - 6);
  s += fmt::format(
      "<text x=\"{}\" y=\"{}\" font-size=\"11\" font-style=\"italic\" "
      "text-anchor=\"end\">PE y</text>\n",
      left - 6, top + bl.ch * size + 14);
  return s;
}

std::string Legend(int x, int y, double max, const std::string& unit) {
  if (max < 1e-200)  // nothing counted anywhere: no scale to show
    return fmt::format("<text x=\"{}\" y=\"{}\">0 {} on every PE</text>\n", x, y + 10, unit);
  std::string s;
  for (int i = 0; i < 100; ++i)
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"2\" height=\"10\" fill=\"{}\"/>\n", x + 2 * i,
                     y, Color(i / 99.0));
  s += fmt::format(
      "<text x=\"{}\" y=\"{}\">0</text><text x=\"{}\" y=\"{}\" "
      "text-anchor=\"end\">{} {}</text>\n",
      x, y + 24, x + 200, y + 24, Plain(max), unit);
  s += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"#e8e8e8\" stroke=\"#999\"/>"
      "<text x=\"{}\" y=\"{}\">none</text>\n",
      x + 214, y, x + 228, y + 9);
  return s;
}

}  // namespace

std::string HeatmapSvg(const std::string& title, const std::string& unit, int w, int h,
                       const std::vector<double>& v) {
  const Blocks bl(w, h);
  std::vector<double> cell(size_t(bl.cw) * bl.ch, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) cell[size_t(y / bl.b) * bl.cw + x / bl.b] += v[size_t(y) * w + x];
  const double max = std::max(1e-300, *std::max_element(cell.begin(), cell.end()));
  const int size = std::clamp(640 / std::max(bl.cw, bl.ch), 4, 48);
  const int left = 46, top = 52;
  const std::string full =
      bl.b > 1 ? fmt::format("{} ({}x{} PEs, blocks of {}x{} summed)", title, w, h, bl.b, bl.b)
               : fmt::format("{} ({}x{} PEs)", title, w, h);
  const int width = WidthFor(left + bl.cw * size + 50, full);
  const int height = top + bl.ch * size + 64;
  std::string s = Header(width, height, full);
  for (int cy = 0; cy < bl.ch; ++cy)
    for (int cx = 0; cx < bl.cw; ++cx) {
      const double val = cell[size_t(cy) * bl.cw + cx];
      s += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"white\" "
          "stroke-width=\"{}\"><title>PE({},{}): {} {}</title></rect>\n",
          left + cx * size, top + cy * size, size, size, val > 0 ? Color(val / max) : "#e8e8e8",
          size >= 8 ? 1 : 0, cx * bl.b, cy * bl.b, Plain(val), unit);
      if (size >= 36 && val > 0)
        s += fmt::format(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"{}\" fill=\"{}\">{}"
            "</text>\n",
            left + cx * size + size / 2, top + cy * size + size / 2 + 3,
            Plain(val).size() > 5 ? 8 : 10, val / max > 0.6 ? "black" : "white", Plain(val));
    }
  s += Axes(left, top, size, bl);
  s += Legend(left, top + bl.ch * size + 22, max, unit);
  return s + "</svg>\n";
}

std::string LinkLoadSvg(const std::string& title, const std::string& unit, int w, int h,
                        const std::vector<std::array<uint64_t, 5>>& out) {
  const Blocks bl(w, h);
  // Blocks keep only the links that leave them (and all of their ramps).
  std::vector<std::array<double, 5>> cell(size_t(bl.cw) * bl.ch, {0, 0, 0, 0, 0});
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const auto& o = out[size_t(y) * w + x];
      auto& c = cell[size_t(y / bl.b) * bl.cw + x / bl.b];
      if ((x + 1) % bl.b == 0 || x == w - 1) c[1] += o[1];  // E
      if (x % bl.b == 0) c[0] += o[0];                      // W
      if ((y + 1) % bl.b == 0 || y == h - 1) c[2] += o[2];  // S
      if (y % bl.b == 0) c[3] += o[3];                      // N
      c[4] += o[4];                                         // RAMP
    }
  double max = 1e-300;
  for (const auto& c : cell)
    for (double v : c) max = std::max(max, v);
  const int size = std::clamp(640 / std::max(bl.cw, bl.ch), 16, 72);
  const int left = 46, top = 52;
  const std::string full =
      bl.b > 1 ? fmt::format("{} ({}x{} PEs, blocks of {}x{})", title, w, h, bl.b, bl.b)
               : fmt::format("{} ({}x{} PEs)", title, w, h);
  const int width = WidthFor(left + bl.cw * size + 50, full);
  const int height = top + bl.ch * size + 100;
  std::string s = Header(width, height, full);
  // Small arrowheads that scale with the line but stay short (they must not hide the lines).
  s += "<defs><marker id=\"a\" markerWidth=\"3\" markerHeight=\"3\" refX=\"1.5\" refY=\"1.5\" "
       "orient=\"auto\" markerUnits=\"strokeWidth\"><path d=\"M0,0 L3,1.5 L0,3 z\" "
       "fill=\"context-stroke\"/></marker></defs>\n";
  auto stroke = [&](double t) { return 0.6 + 2.4 * t; };  // width carries the load too
  for (int cy = 0; cy < bl.ch; ++cy)
    for (int cx = 0; cx < bl.cw; ++cx) {
      const double x0 = left + cx * size, y0 = top + cy * size, m = size / 2.0;
      const auto& c = cell[size_t(cy) * bl.cw + cx];
      s += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#f6f6f6\" "
          "stroke=\"#ccc\"/>\n",
          x0 + size * 0.3, y0 + size * 0.3, size * 0.4, size * 0.4);
      // The RAMP (router to compute engine): a disc in the PE's middle.
      if (c[4] > 0) {
        const double t = c[4] / max;
        s += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\"><title>PE({},{}) RAMP: "
            "{} {}</title></circle>\n",
            x0 + m, y0 + m, size * (0.05 + 0.12 * t), Color(t), cx * bl.b, cy * bl.b, Plain(c[4]),
            unit);
      }
      // Lines from the PE toward each side: W, E, S, N, offset so opposite ways do not overlap.
      const double dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, 1, -1};
      for (int d = 0; d < 4; ++d) {
        if (c[d] <= 0) continue;
        const double t = c[d] / max;
        const double ox = dy[d] * size * 0.1, oy = -dx[d] * size * 0.1;
        const double ax = x0 + m + ox + dx[d] * size * 0.22, ay = y0 + m + oy + dy[d] * size * 0.22;
        const double bx = x0 + m + ox + dx[d] * size * 0.66, by = y0 + m + oy + dy[d] * size * 0.66;
        s += fmt::format(
            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
            "stroke-width=\"{:.2f}\" marker-end=\"url(#a)\"><title>PE({},{}) {}: {} {}</title>"
            "</line>\n",
            ax, ay, bx, by, Color(t), stroke(t), cx * bl.b, cy * bl.b,
            arch::ToString(static_cast<arch::Dir>(d)), Plain(c[d]), unit);
      }
    }
  s += Axes(left, top, size, bl);
  const int ly = top + bl.ch * size + 22;
  s += Legend(left, ly, max, unit);
  // How to read it: an arrow per router output, a disc for the ramp.
  s += fmt::format(
      "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{:.2f}\" "
      "marker-end=\"url(#a)\"/><text x=\"{}\" y=\"{}\">a router output W, E, S or N (colour and "
      "width: the load)</text>\n",
      left, ly + 44, left + 30, ly + 44, Color(1), stroke(1), left + 40, ly + 48);
  s += fmt::format(
      "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">the RAMP into the "
      "compute engine</text>\n",
      left + 15, ly + 60, Color(1), left + 40, ly + 64);
  return s + "</svg>\n";
}

}  // namespace tessera::trace
