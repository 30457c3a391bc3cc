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

std::string Header(int width, int height, const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n<text x=\"10\" y=\"18\" font-size=\"14\">{}</text>\n",
      width, height, title);
}

std::string Legend(int x, int y, double max, const std::string& label) {
  std::string s;
  for (int i = 0; i < 100; ++i)
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"2\" height=\"10\" fill=\"{}\"/>\n", x + 2 * i,
                     y, Color(i / 99.0));
  s += fmt::format("<text x=\"{}\" y=\"{}\">0</text><text x=\"{}\" y=\"{}\">{:.6g} {}</text>\n", x,
                   y + 24, x + 170, y + 24, max, label);
  s += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"#e8e8e8\" stroke=\"#999\"/>"
      "<text x=\"{}\" y=\"{}\">none</text>\n",
      x + 230, y, x + 244, y + 9);
  return s;
}

}  // namespace

std::string HeatmapSvg(const std::string& title, int w, int h, const std::vector<double>& v) {
  const Blocks bl(w, h);
  std::vector<double> cell(size_t(bl.cw) * bl.ch, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) cell[size_t(y / bl.b) * bl.cw + x / bl.b] += v[size_t(y) * w + x];
  const double max = std::max(1e-300, *std::max_element(cell.begin(), cell.end()));
  const int size = std::clamp(640 / std::max(bl.cw, bl.ch), 4, 48);
  const int left = 40, top = 40;
  const int width = std::max(left + bl.cw * size + 20, 320);
  const int height = top + bl.ch * size + 60;
  std::string s = Header(
      width, height,
      bl.b > 1 ? fmt::format("{} ({}x{} PEs, blocks of {}x{}, summed)", title, w, h, bl.b, bl.b)
               : fmt::format("{} ({}x{} PEs)", title, w, h));
  for (int cy = 0; cy < bl.ch; ++cy)
    for (int cx = 0; cx < bl.cw; ++cx) {
      const double val = cell[size_t(cy) * bl.cw + cx];
      s += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"white\" "
          "stroke-width=\"{}\"><title>PE({},{}): {:.6g}</title></rect>\n",
          left + cx * size, top + cy * size, size, size, val > 0 ? Color(val / max) : "#e8e8e8",
          size >= 8 ? 1 : 0, cx * bl.b, cy * bl.b, val);
      if (size >= 36 && val > 0)
        s += fmt::format(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"9\" fill=\"{}\">{:.3g}"
            "</text>\n",
            left + cx * size + size / 2, top + cy * size + size / 2 + 3,
            val / max > 0.6 ? "black" : "white", val);
    }
  s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\">x</text>", left + bl.cw * size / 2,
                   top - 4);
  s += Legend(left, top + bl.ch * size + 16, max, "");
  return s + "</svg>\n";
}

std::string LinkLoadSvg(const std::string& title, int w, int h,
                        const std::vector<std::array<uint64_t, 4>>& out) {
  const Blocks bl(w, h);
  // Blocks keep only the links that leave them.
  std::vector<std::array<double, 4>> cell(size_t(bl.cw) * bl.ch, {0, 0, 0, 0});
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const auto& o = out[size_t(y) * w + x];
      auto& c = cell[size_t(y / bl.b) * bl.cw + x / bl.b];
      if ((x + 1) % bl.b == 0 || x == w - 1) c[1] += o[1];  // E
      if (x % bl.b == 0) c[0] += o[0];                      // W
      if ((y + 1) % bl.b == 0 || y == h - 1) c[2] += o[2];  // S
      if (y % bl.b == 0) c[3] += o[3];                      // N
    }
  double max = 1e-300;
  for (const auto& c : cell)
    for (double v : c) max = std::max(max, v);
  const int size = std::clamp(640 / std::max(bl.cw, bl.ch), 12, 64);
  const int left = 40, top = 40;
  const int width = std::max(left + bl.cw * size + 20, 320);
  const int height = top + bl.ch * size + 60;
  std::string s =
      Header(width, height,
             bl.b > 1 ? fmt::format("{} ({}x{} PEs, blocks of {}x{})", title, w, h, bl.b, bl.b)
                      : fmt::format("{} ({}x{} PEs)", title, w, h));
  for (int cy = 0; cy < bl.ch; ++cy)
    for (int cx = 0; cx < bl.cw; ++cx) {
      const double x0 = left + cx * size, y0 = top + cy * size, m = size / 2.0;
      s += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f6f6f6\" stroke=\"#ccc\"/>\n",
          x0 + size * 0.3, y0 + size * 0.3, size * 0.4, size * 0.4);
      const auto& c = cell[size_t(cy) * bl.cw + cx];
      // Arrows from the PE's centre toward each side: W, E, S, N.
      const double dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, 1, -1};
      for (int d = 0; d < 4; ++d) {
        if (c[d] <= 0) continue;
        const double t = c[d] / max;
        // Offset sideways so opposite directions do not overlap.
        const double ox = dy[d] * size * 0.12, oy = -dx[d] * size * 0.12;
        const double ax = x0 + m + ox + dx[d] * size * 0.2, ay = y0 + m + oy + dy[d] * size * 0.2;
        const double bx = x0 + m + ox + dx[d] * size * 0.62, by = y0 + m + oy + dy[d] * size * 0.62;
        s += fmt::format(
            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
            "stroke-width=\"{:.1f}\" marker-end=\"url(#a)\"><title>PE({},{}) {}: {:.6g} "
            "wavelets</title></line>\n",
            ax, ay, bx, by, Color(t), 1 + t * size * 0.12, cx * bl.b, cy * bl.b,
            arch::ToString(static_cast<arch::Dir>(d)), c[d]);
      }
    }
  s += "<defs><marker id=\"a\" markerWidth=\"4\" markerHeight=\"4\" refX=\"2\" refY=\"2\" "
       "orient=\"auto\"><path d=\"M0,0 L4,2 L0,4 z\" fill=\"#444\"/></marker></defs>\n";
  s += Legend(left, top + bl.ch * size + 16, max, "wavelets");
  return s + "</svg>\n";
}

}  // namespace tessera::trace
