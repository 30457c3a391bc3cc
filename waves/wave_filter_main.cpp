// tessera_wave_filter: the GTKWave translate filter process of Tessera's save files. GTKWave
// writes one value per line (hex digits) and reads one line back for each; see wavelet_words.h.
#include <cstdio>
#include <iostream>
#include <string>

#include "waves/wavelet_words.h"

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::cout << tessera::waves::DescribeWaveWord(line) << '\n' << std::flush;  // GTKWave waits
  }
  return 0;
}
