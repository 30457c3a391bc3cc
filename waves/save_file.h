// GTKWave save files for Tessera's FST dumps: the links and queues of one router, grouped and
// named by port, so a dump opens ready to read. Written as text (the .gtkw format is plain).
#pragma once

#include <string>

namespace tessera::waves {

struct FabricShape {
  int width, height, tile_w, tile_h;
};

// FILE.fst -> FILE.gtkw
std::string SaveFilePath(const std::string& fst_path);

// Writes a save file for `fst_path` showing router (x, y) of a fabric of that shape.
void WriteRouterSaveFile(const std::string& save_path, const std::string& fst_path,
                         const FabricShape& shape, std::pair<int, int> pe);

}  // namespace tessera::waves
