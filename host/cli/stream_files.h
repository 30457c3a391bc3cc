// The files of `tessera run --stream-in` and `--stream-out`: what wavelets enter an edge port and
// what left through it.
//
// In: an .npy of f4, i4 or u4 or a raw file of little-endian 32-bit words (one data wavelet each),
// or a .csv with one wavelet per line, `DATA` or `CONTROL,DATA` (CONTROL 0 or 1; DATA an integer,
// 0x hex, or a decimal number with a point or an exponent, taken as f32 bits), so that a stream
// can carry control wavelets; `#` starts a comment line, and a first line naming the columns is
// allowed.
// Out: an .npy of u4 or a raw file with the data only, or a .csv with `cycle,color,control,data`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fabric/edge_stream.h"

namespace tessera::cli {

struct StreamWord {
  bool ctrl = false;
  uint32_t data = 0;
};

// Throws std::invalid_argument naming `option`, the file and (.csv) the line.
std::vector<StreamWord> ReadStreamFile(const std::string& path, const std::string& option);

// Throws std::runtime_error naming `option` and the file if it cannot be written.
void WriteStreamFile(const std::string& path, const std::string& option,
                     const std::vector<fabric::EdgeStream::Wavelet>& wavelets);

bool EndsWith(const std::string& path, const char* suffix);

}  // namespace tessera::cli
