// The program image (docs/layout.md, "The image"): what linking a layout gives and what every
// backend loads. Distinct linked programs are stored once; each PE names its program (if any)
// and lists its routes. A versioned, line-oriented text format, so that images diff well:
//
//   tessera-image 1
//   fabric 8 8
//   program 0 sources "black.s" params N=3 ROLE=0
//     end 0x0050
//     task 0 local 0x0000
//     symbol "main" 0x0000 .text global export
//     line 0x0000 "black.s" 12
//     data 0x0000: 00000194 00080290 ...        up to 8 words; all-zero runs left out
//   endprogram
//   pe 0 0 program 0
//     route 3 rx W,RAMP tx E switch 0x0000
//   endpe
//   end programs 1 pes 1
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "asm/link.h"

namespace tessera::layout {

// One routed color of one PE: the values of its ColorCfg and SwitchCfg registers.
struct RouteCfg {
  int color = 0;
  uint32_t color_cfg = 0;     // arch::ColorCfg: Tx 4:0, Rx 9:5 (direction masks)
  uint32_t switch_cfg = 0;    // arch::SwitchCfg: positions, Ring, Pos at load, Filter
  uint32_t filter_range = 0;  // arch::FilterRange: Min 15:0, Max 31:16 (with Filter set)
  uint32_t filter_count = 0;  // arch::FilterCount: Count 15:0, Limit 31:16 (with Counter set)
  bool operator==(const RouteCfg& o) const {
    return color == o.color && color_cfg == o.color_cfg && switch_cfg == o.switch_cfg &&
           filter_range == o.filter_range && filter_count == o.filter_count;
  }
};

// The most PEs a layout or image may have: 2048 x 2048, more than the wafer's 750 x 994 = 745,500.
// The linker keeps state per PE, so a fabric is bounded by its area, not only by 65535 each way.
inline constexpr int64_t kMaxFabricPes = int64_t(1) << 22;

struct ImageProgram {
  std::vector<std::string> sources;       // the files linked (for people; not loaded)
  std::map<std::string, int64_t> params;  // the param values it was linked with
  assembler::PeProgram program;           // SRAM, tasks, symbols, lines, end
};

struct ImagePe {
  int x = 0, y = 0;
  int program = -1;              // index into Image::programs, -1: no program
  std::vector<RouteCfg> routes;  // ascending color, each color once
};

struct Image {
  int fabric_w = 0, fabric_h = 0;
  std::vector<ImageProgram> programs;
  std::vector<ImagePe> pes;  // ascending (y, x); only PEs with a program or a route
  // What the linker noted but did not refuse (assembly warnings, `file:line:col: warning: ...`);
  // not part of the image file.
  std::vector<std::string> warnings;

  const ImagePe* Pe(int x, int y) const;
  const assembler::PeProgram* ProgramAt(int x, int y) const;  // nullptr: no program there
  // A symbol of the program at PE(x,y); nullptr if there is no program or no such symbol.
  const assembler::SymbolInfo* Symbol(int x, int y, const std::string& name) const;

  // Everything a backend writes at load, as (PE, address, 32-bit value), in this order: for
  // every PE of the fabric (row by row) FabricDim; then for a PE with a program every SRAM word
  // of 0..end (little endian) and TaskCfg of each bound task; then ColorCfg and SwitchCfg of
  // each routed color. Addresses below 0xC000 are SRAM, the rest registers (docs/isa.md 3.2);
  // everything not written keeps its reset value (0).
  using WriteFn = std::function<void(int x, int y, uint16_t address, uint32_t value)>;
  void ForEachWrite(const WriteFn& fn) const;
};

// The register values of a route: rx and tx are direction masks (bit arch::Dir).
uint32_t ColorCfgValue(uint32_t rx_mask, uint32_t tx_mask);
// "W,E,RAMP" for a direction mask; "none" for 0.
std::string DirMaskName(uint32_t mask);

std::string WriteImage(const Image& image);
// Checks every record; throws assembler::Error naming name:line:column for a malformed image.
Image ReadImage(const std::string& text, const std::string& name);
Image ReadImageFile(const std::string& path);
void WriteImageFile(const std::string& path, const Image& image);

}  // namespace tessera::layout
