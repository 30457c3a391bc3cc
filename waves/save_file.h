// GTKWave save files for Tessera's FST dumps, so a dump opens ready to read: the links and queues
// of one router of `tessera noc`, or every PE of a wave region (router, CE and FMAC groups).
// Written as text (the .gtkw format is plain).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "rtl/rtl_fabric.h"

namespace tessera::waves {

struct FabricShape {
  int width, height, tile_w, tile_h;
};

// FILE.fst -> FILE.gtkw
std::string SaveFilePath(const std::string& fst_path);

// The translate filter the save files name for link and credit rows (tessera_wave_filter,
// wavelet_words.h), as an absolute path: $TESSERA_WAVE_FILTER if set, else the one beside the
// running program, else the one this build made; empty if none exists (the rows then stay hex).
std::string WaveFilterPath();

// Writes a save file for `fst_path` showing router (x, y) of a fabric of that shape.
void WriteRouterSaveFile(const std::string& save_path, const std::string& fst_path,
                         const FabricShape& shape, std::pair<int, int> pe);

// Writes SaveFilePath(fst_path) for the dump an RtlFabric with options `opt` wrote to fst_path
// (opt.wave_path need not be set: the CLI may write the save file for a copy): per PE of
// opt's wave region the groups `PE(x,y) router`, and with opt.ce `PE(x,y) CE` and
// `PE(x,y) FMAC`. The view opens at cycle opt.wave_from and spans the window, up to `end_cycle`
// (the fabric's Cycle() when the run ended) if the window reaches past it. Returns the save file's
// path. Throws std::invalid_argument for bad options (ValidateRtlOptions), std::runtime_error if
// the file cannot be written.
std::string WriteGtkwSave(const std::string& fst_path, const rtl::RtlFabricOptions& opt,
                          uint64_t end_cycle = UINT64_MAX);

}  // namespace tessera::waves
