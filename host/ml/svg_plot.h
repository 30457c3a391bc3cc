// A line plot as an SVG file (the loss curve of `tessera ml train-digits --plot`).
#pragma once

#include <string>
#include <vector>

namespace tessera::ml {

struct PlotSeries {
  std::string label, color;
  std::vector<double> x, y;
  bool markers = false;
};

// Writes a plot of the series with axes, ticks and a legend. Throws std::runtime_error naming
// the file if it cannot be written.
void WriteSvgPlot(const std::string& path, const std::string& title, const std::string& xlabel,
                  const std::string& ylabel, const std::vector<PlotSeries>& series);

}  // namespace tessera::ml
