// The words of the links and credits in a dump, in words: GTKWave hands a value to a translate
// filter process as hex digits, one line per value, and shows the line the filter answers.
//   a link (arch::Link, 39 bits: 10 hex digits)  -> "c5 d 0x3f800000", "c5 ctl 0x00000001", "-"
//   a credit (arch::Credit, 6 bits: 2 hex digits) -> "c5", "-"
// "-" is an idle link or no credit. A value with x or z digits, or of another width, comes back
// unchanged. tessera_wave_filter (wave_filter_main.cpp) is the process the save files name.
#pragma once

#include <string>
#include <string_view>

namespace tessera::waves {

std::string DescribeWaveWord(std::string_view hex_digits);

}  // namespace tessera::waves
