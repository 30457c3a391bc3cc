// The handwritten-digits data set that Debian's python3-sklearn ships
// (sklearn/datasets/data/digits.csv.gz: 1,797 8x8 images, 64 pixel values 0..16 and the digit
// per line), read directly with zlib: no Python, no network.
#pragma once

#include <string>
#include <vector>

namespace tessera::ml {

struct Dataset {
  int features = 0, classes = 0;
  std::vector<float> x;  // samples x features, row-major, scaled to [0, 1]
  std::vector<int> y;    // the class of each sample
  size_t size() const { return y.size(); }
};

// Where python3-sklearn puts the file; empty if it is not installed.
std::string DefaultDigitsPath();

// Reads a gzip-compressed or plain CSV of 64 values 0..16 and a label 0..9 per line. Throws
// std::invalid_argument naming the file and line of anything else.
Dataset LoadDigits(const std::string& path);

}  // namespace tessera::ml
