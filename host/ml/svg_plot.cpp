#include "ml/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

namespace tessera::ml {
namespace {

// About five round tick values covering [lo, hi].
std::vector<double> Ticks(double lo, double hi) {
  const double span = hi > lo ? hi - lo : 1.0;
  const double raw = span / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  std::vector<double> t;
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * span; v += step) t.push_back(v);
  return t;
}

std::string Escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else
      o += c;
  }
  return o;
}

}  // namespace

void WriteSvgPlot(const std::string& path, const std::string& title, const std::string& xlabel,
                  const std::string& ylabel, const std::vector<PlotSeries>& series) {
  const double W = 720, H = 440, left = 70, right = 20, top = 40, bottom = 60;
  double x0 = INFINITY, x1 = -INFINITY, y0 = 0, y1 = -INFINITY;
  for (const PlotSeries& s : series)
    for (size_t i = 0; i < s.x.size(); ++i) {
      x0 = std::min(x0, s.x[i]);
      x1 = std::max(x1, s.x[i]);
      if (std::isfinite(s.y[i])) y1 = std::max(y1, s.y[i]);
    }
  if (!(x1 > x0)) x1 = x0 + 1;
  if (!(y1 > y0)) y1 = y0 + 1;
  auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * (W - left - right); };
  auto py = [&](double y) { return H - bottom - (y - y0) / (y1 - y0) * (H - top - bottom); };
  std::string o = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{3}</text>\n",
      W, H, W / 2, Escape(title));
  for (double t : Ticks(x0, x1))
    o += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4:g}</text>\n",
        px(t), top, H - bottom, H - bottom + 16, t);
  for (double t : Ticks(y0, y1))
    o += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:g}</text>\n",
        left, py(t), W - right, left - 6, py(t) + 4, t);
  o += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n"
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n"
      "<text x=\"16\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {})\">{}</text>\n",
      left, top, W - left - right, H - top - bottom, (left + W - right) / 2, H - 18, Escape(xlabel),
      (top + H - bottom) / 2, (top + H - bottom) / 2, Escape(ylabel));
  int row = 0;
  for (const PlotSeries& s : series) {
    std::string pts;
    for (size_t i = 0; i < s.x.size(); ++i)
      if (std::isfinite(s.y[i])) pts += fmt::format("{:.1f},{:.1f} ", px(s.x[i]), py(s.y[i]));
    o += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>\n",
                     s.color, pts);
    if (s.markers)
      for (size_t i = 0; i < s.x.size(); ++i)
        if (std::isfinite(s.y[i]))
          o += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n",
                           px(s.x[i]), py(s.y[i]), s.color);
    const double ly = top + 16 + 16 * row++;
    o += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"2\"/>"
        "<text x=\"{4}\" y=\"{5}\">{6}</text>\n",
        W - right - 200, ly, W - right - 180, s.color, W - right - 174, ly + 4, Escape(s.label));
  }
  o += "</svg>\n";
  std::ofstream f(path);
  if (!f || !(f << o))
    throw std::runtime_error(fmt::format("--plot {}: cannot write the file", path));
}

}  // namespace tessera::ml
