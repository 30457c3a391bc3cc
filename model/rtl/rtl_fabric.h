// The RTL backend: a W x H fabric built at run time from verilated tiles of one shape. The tiles
// are joined either by the SystemC glue (ScRtlFabric, the default) or by a plain C++ loop
// (LoopRtlFabric, the baseline the benchmark measures the glue against). Both glues only copy
// words between tile ports; they must give identical results cycle for cycle.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "rtl/tile_model.h"

class VerilatedContext;
class VerilatedFstC;

namespace tessera::rtl {

struct RtlFabricOptions {
  int width = 4, height = 4;   // PEs
  int tile_w = 1, tile_h = 1;  // PEs per tile; must divide the fabric
  std::string wave_path;       // FST file to dump every signal to; empty: no waves
};

class RtlFabric : public fabric::Fabric {
 public:
  ~RtlFabric() override;
  int Width() const override { return opt_.width; }
  int Height() const override { return opt_.height; }
  void WriteReg(fabric::Coord pe, uint16_t addr, uint32_t value) override;
  uint32_t ReadReg(fabric::Coord pe, uint16_t addr) override;
  void SetEndpoint(fabric::Coord pe, fabric::RampEndpoint* ep) override;
  uint64_t Cycle() const override { return cycle_; }
  std::vector<fabric::FaultRecord> Faults() override;
  int NumTiles() const { return static_cast<int>(tiles_.size()); }

 protected:
  struct Tile {
    std::unique_ptr<TileModel> model;
    TileIo io;
    int tx = 0, ty = 0;  // tile coordinates
  };

  explicit RtlFabric(const RtlFabricOptions& opt);
  // The CE side of every PE of tile t: endpoints read io.ramp_out/ramp_cout and set
  // io.ramp_in/ramp_cin for the next edge.
  void TickEndpoints(int t, const std::vector<uint64_t>& ramp_out,
                     const std::vector<uint8_t>& ramp_cout, std::vector<uint64_t>& ramp_in,
                     std::vector<uint8_t>& ramp_cin);
  // Notes the fault flags a tile shows after the edge that ended cycle `cycle`.
  void NoteFaults(int t, uint64_t fault_bits, uint64_t cycle);
  void DumpWaves(uint64_t time);
  bool Tracing() const { return static_cast<bool>(tfp_); }
  // Throws if an RTL assertion failed during the last cycle (they print as %Error on stderr).
  void CheckAssertions() const;
  int TileIndex(int tx, int ty) const { return ty * tiles_x_ + tx; }
  // The tile model holding PE `pe` and the PE's index in it (y * TW + x); checks the range.
  std::pair<TileModel*, int> Locate(fabric::Coord pe);
  // The neighbouring tile across side s, or -1 at the fabric edge.
  int Neighbour(int t, Side s) const;

  RtlFabricOptions opt_;
  int tiles_x_ = 0, tiles_y_ = 0;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<VerilatedFstC> tfp_;
  std::vector<Tile> tiles_;
  std::vector<fabric::RampEndpoint*> endpoints_;  // per PE
  std::vector<uint64_t> fault_cycle_;             // per PE: cycle first seen, or kNever
  fabric::RampPort scratch_;
  uint64_t cycle_ = 0;
  bool fault_pending_ = false;  // a fault appeared during the current Run
};

// Tiles stepped by a plain loop: the glue-free baseline.
class LoopRtlFabric final : public RtlFabric {
 public:
  explicit LoopRtlFabric(const RtlFabricOptions& opt);
  const char* Name() const override { return "rtl-loop"; }
  uint64_t Run(uint64_t cycles) override;

 private:
  struct Copy64 {
    const uint64_t* from;
    uint64_t* to;
  };
  struct Copy8 {
    const uint8_t* from;
    uint8_t* to;
  };
  std::vector<Copy64> link_copies_;
  std::vector<Copy8> credit_copies_;
};

// Tiles as SystemC modules joined by sc_signals (model/rtl/sc_fabric.cpp). SystemC allows one
// elaboration per process: a second ScRtlFabric in the same process throws.
std::unique_ptr<RtlFabric> MakeScRtlFabric(const RtlFabricOptions& opt);

// Checks the options (shape built, fabric a multiple of the tile); throws invalid_argument with
// the offending option named.
void ValidateRtlOptions(const RtlFabricOptions& opt);

}  // namespace tessera::rtl
