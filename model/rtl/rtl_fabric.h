// The RTL backend: a W x H fabric built at run time from verilated tiles of one shape. The tiles
// are joined either by the SystemC glue (ScRtlFabric, the default) or by a plain C++ loop
// (LoopRtlFabric, the baseline the benchmark measures the glue against). Both glues only copy
// words between tile ports; they must give identical results cycle for cycle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fabric/debug_record.h"
#include "fabric/fabric.h"
#include "fabric/pe_events.h"
#include "fabric/task_start.h"
#include "rtl/tile_model.h"
#include "util/worker_pool.h"

class VerilatedContext;
class VerilatedFstC;

namespace tessera::rtl {

struct RtlFabricOptions {
  int width = 4, height = 4;   // PEs
  int tile_w = 1, tile_h = 1;  // PEs per tile; must divide the fabric
  std::string wave_path;       // FST file to dump every signal to; empty: no waves
  bool ce = false;             // full PEs (tiles Vtile_ce_*): each PE runs its own CE
  // The PeCoord of PE(0,0): every PE's coordinates in the RTL are its fabric coordinates plus
  // this origin (a 1x1 fabric can stand in for PE(3,2) of a larger one). Logs, faults and the
  // back door keep fabric coordinates.
  int pe_x0 = 0, pe_y0 = 0;
  // Waves (waves/README.md): cycles [wave_from, wave_to) are dumped, cycle N at FST time N; the
  // first dumped cycle holds every signal's value. Only tiles overlapping the PE region
  // (x0, y0)..(x1, y1), inclusive, are traced; -1 for x1 or y1: the fabric's last column or row.
  uint64_t wave_from = 0, wave_to = UINT64_MAX;
  int wave_x0 = 0, wave_y0 = 0, wave_x1 = -1, wave_y1 = -1;
  // An idle tile (TileIo::Idle: quiet CEs, no wavelet inside or arriving) is not evaluated; its
  // state is what clocking it would give. Off: every tile is evaluated every cycle (to compare).
  bool skip_idle_tiles = true;
  // A tile whose inputs did not change since its last evaluation is evaluated without the
  // input-combinational region of its model (TileModel::SetSkipInputRegion). Off: every region
  // of every evaluation (to compare).
  bool skip_input_region = true;
  // Host threads stepping the tiles (the plain-loop glue only; the SystemC glue steps them on
  // one). Tiles are stepped independently, so results do not depend on it.
  int threads = 1;
};

// The wave region of `opt` with -1 resolved to the fabric's last column and row.
struct WaveRegion {
  int x0, y0, x1, y1;  // PEs, inclusive
};
WaveRegion ResolveWaveRegion(const RtlFabricOptions& opt);

class RtlFabric : public fabric::Fabric {
 public:
  ~RtlFabric() override;
  int Width() const override { return opt_.width; }
  int Height() const override { return opt_.height; }
  void WriteReg(fabric::Coord pe, uint16_t addr, uint32_t value) override;
  uint32_t ReadReg(fabric::Coord pe, uint16_t addr) override;
  void SetEndpoint(fabric::Coord pe, fabric::RampEndpoint* ep) override;
  void SetEdgeEndpoint(fabric::Coord pe, int dir, fabric::RampEndpoint* ep) override;
  bool WaveletsInFlight() override;
  uint64_t Cycle() const override { return cycle_; }
  std::vector<fabric::FaultRecord> Faults() override;
  void ForgetFault(fabric::Coord pe) override { fault_cycle_.at(Index(pe)) = fabric::kNever; }
  bool ObservesLink(fabric::Coord pe, int port, bool into) const override;
  int NumTiles() const { return static_cast<int>(tiles_.size()); }
  // The tile holding a PE (tiles row by row).
  int TileOf(fabric::Coord pe) const { return TileIndex(pe.x / opt_.tile_w, pe.y / opt_.tile_h); }
  bool HasCe() const { return opt_.ce; }
  // Tile-cycles evaluated since construction (reset and back-door accesses not counted); with
  // idle tiles skipped, fewer than NumTiles() x Cycle().
  uint64_t TileCyclesClocked() const;
  // Tile-cycles evaluated without the input-combinational region (skip_input_region).
  uint64_t TileCyclesWithoutInputRegion() const;
  // A cycle costs one evaluation of each tile (TileModel::OneEvalPerCycle), not two.
  bool OneEvalPerCycle() const { return tiles_.front().model->OneEvalPerCycle(); }
  bool SkipsInputRegion() const { return tiles_.front().model->SkipsInputRegion(); }

  // Tiles of full PEs: the debug-port records so far (taken: cleared) as the host sees them,
  // Char stores joined into lines per PE (fabric::AddDebugStore); the CE events of the last
  // cycle stepped, and whether every CE was quiet after it (CeStatus.Quiet).
  std::vector<fabric::DebugRecord> TakeDebugRecords();
  const std::vector<fabric::DebugRecord>& DebugRecords() const { return debug_; }
  // The retire and task-start events of the last cycle (rtl/tile/tessera_tile.sv event_o); the
  // other fields are left empty.
  fabric::PeEvents LastEvents(fabric::Coord pe) const;
  // The PE's fault flag (a CE or a routing fault) and its CE's CeStatus.Quiet after the last
  // cycle stepped (after a back-door write: read from CeStatus).
  bool Faulted(fabric::Coord pe) const { return fault_cycle_.at(Index(pe)) != fabric::kNever; }
  bool CeQuiet(fabric::Coord pe);
  bool CeSettled(fabric::Coord pe);  // CeStatus.Settled, likewise
  // Where the PE's register files and SRAM live in its tile's model (tiles of full PEs), for
  // reads between cycles without evaluating the model; nullptr members: use ReadReg.
  CoreArrays Core(fabric::Coord pe) {
    auto [model, local] = Locate(pe);
    return model->Core(local);
  }
  // Instructions the PE's CE issued since reset (its retire events).
  uint64_t Retired(fabric::Coord pe) const { return retired_.at(Index(pe)); }
  // After a back-door write the bits are read from CeStatus until the next cycle shows them.
  bool AllQuiet();
  bool AllSettled();  // every CE shows CeStatus.Settled
  bool Quiescent() override;
  bool Settled() override;
  // With the log on, every task start of every PE is kept (in cycle order, PEs in tile order
  // within a cycle) until taken.
  void SetTaskLog(bool on) { task_log_on_ = on; }
  std::vector<fabric::TaskStart> TakeTaskLog();

 protected:
  struct Tile {
    std::unique_ptr<TileModel> model;
    TileIo io;
    int tx = 0, ty = 0;  // tile coordinates
    // Observe has seen io's observers cleared (TileIo::ClearObservers) since the tile's last
    // edge: until the next edge, observing it again changes nothing.
    bool observed_clear = false;
  };
  // The host's end of one edge port. A wavelet its endpoint sends waits a cycle in link_q, the
  // sender's link register (a neighbouring router's out_q): the edge link is one hop, as inside
  // the fabric. Both glues tick edges through TickEdgeEndpoints, so they share this register.
  struct EdgeLink {
    fabric::RampEndpoint* ep = nullptr;
    uint64_t link_q = 0;  // arch::Link: reaches the router's input in the next cycle
  };
  struct EdgeSide {  // a tile side at the fabric edge
    int tile;
    Side side;
    int endpoints = 0;  // its edge ports with an endpoint: none, and it has nothing to tick
  };

  explicit RtlFabric(const RtlFabricOptions& opt);
  // The host is about to use tile t's model from outside a cycle (the register back door, new
  // ties): a glue that lets idle tiles sleep through cycles brings the tile's own cycle count up
  // to date, and wakes it if `wake` (the access may give it something to do).
  virtual void AttendTile(int t, bool wake) {
    (void)t;
    (void)wake;
  }
  // The CE side of every PE of tile t: endpoints read io.ramp_out/ramp_cout and set
  // io.ramp_in/ramp_cin for the next edge.
  void TickEndpoints(int t, const std::vector<uint64_t>& ramp_out,
                     const std::vector<uint8_t>& ramp_cout, std::vector<uint64_t>& ramp_in,
                     std::vector<uint8_t>& ramp_cin);
  // The host's edge endpoints on side s of tile t (an entry of edge_sides_): they read the
  // side's outputs (out, cout) and set its inputs for the next edge (in: the link registers,
  // cin: their credits of this cycle).
  void TickEdgeEndpoints(int t, Side s, const std::vector<uint64_t>& out,
                         const std::vector<uint8_t>& cout, std::vector<uint64_t>& in,
                         std::vector<uint8_t>& cin);
  // Notes the fault flags a tile shows after the edge that ended cycle `cycle`, and for full PEs
  // what their CEs showed before it.
  // (The checks that let an idle tile return at once are inline: the glue calls both for every
  // tile in every cycle.)
  void NoteFaults(int t, uint64_t fault_bits, uint64_t cycle) {
    if (fault_bits) NoteTileFaults(t, fault_bits, cycle);
  }
  void Observe(int t, uint64_t cycle) {
    // Skipped since it was last observed: no record, event, back pressure or link to log (a
    // skipped tile sends nothing), and its quiet bits are those it had.
    Tile& tile = tiles_[t];
    if (!(tile.io.observers_clear && tile.observed_clear)) ObserveTile(t, cycle);
  }
  void NoteTileFaults(int t, uint64_t fault_bits, uint64_t cycle);
  void ObserveTile(int t, uint64_t cycle);
  // Full PEs: the wavelets their routers sent down the ramp, which the log takes where an
  // endpoint's tick would have (TickEndpoints): FlushRampDown(c) logs those of cycles <= c.
  void FlushRampDown(uint64_t cycle);
  std::vector<fabric::LinkEvent> ramp_down_;
  // Before a run: the tiles report what the fabric's observers want (back pressure).
  void PrepareObservers() {
    for (auto& t : tiles_) t.io.want_blocked = BackPressureCounting();
  }
  // Dumps waves at time `cycle` if waves are on and the cycle is in the window; closes the file
  // after the window's last cycle.
  void DumpWaves(uint64_t cycle);
  bool Tracing() const { return static_cast<bool>(tfp_); }  // waves on (the file may be closed)
  bool WaveCycle(uint64_t cycle) const {  // cycle `cycle` is dumped (between StepLow and StepHigh)
    return tfp_ && cycle >= opt_.wave_from && cycle < opt_.wave_to;
  }
  // Throws if an RTL assertion failed during the last cycle (they print as %Error on stderr).
  void CheckAssertions() const;
  int TileIndex(int tx, int ty) const { return ty * tiles_x_ + tx; }
  // The tile model holding PE `pe` and the PE's index in it (y * TW + x); checks the range.
  std::pair<TileModel*, int> Locate(fabric::Coord pe);
  // The PE at port j of side s of a tile (rows for W and E, columns for S and N).
  fabric::Coord SidePe(const Tile& tile, int s, int j) const;
  // The neighbouring tile across side s, or -1 at the fabric edge.
  int Neighbour(int t, Side s) const;

  RtlFabricOptions opt_;
  int tiles_x_ = 0, tiles_y_ = 0;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<VerilatedFstC> tfp_;
  std::vector<Tile> tiles_;
  std::vector<fabric::RampEndpoint*> endpoints_;  // per PE
  std::vector<EdgeSide> edge_sides_;
  std::vector<EdgeLink> edges_[kNumSides];  // per fabric side: by row (W, E) or column (S, N)
  std::vector<uint64_t> fault_cycle_;       // per PE: cycle first seen, or kNever
  fabric::RampPort scratch_;
  std::vector<fabric::DebugRecord> debug_;
  std::vector<std::string> char_lines_;   // per PE: DebugFmt Char bytes up to the next '\n'
  std::vector<uint32_t> events_;          // per PE, the last cycle's event word
  std::vector<uint64_t> retired_;         // per PE: retire events so far
  std::vector<uint8_t> quiet_, settled_;  // per PE: CeStatus.Quiet, Settled
  bool quiet_stale_ = false;  // a back-door write since the last cycle: quiet_ may be old
  void RefreshQuiet();        // reads quiet_ and settled_ from CeStatus if stale
  bool task_log_on_ = false;
  std::vector<fabric::TaskStart> task_log_;
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
  // A copy from one tile's output to its neighbour's input (the neighbour: tile `to_tile`).
  struct Copy64 {
    const uint64_t* from;
    uint64_t* to;
    int to_tile;
  };
  struct Copy8 {
    const uint8_t* from;
    uint8_t* to;
    int to_tile;
  };
  void AttendTile(int t, bool wake) override;
  void Wake(int t) {
    if (asleep_[static_cast<size_t>(t)]) {
      asleep_[static_cast<size_t>(t)] = 0;
      awake_.push_back(t);
    }
  }
  // Per tile: the copies from its outputs.
  std::vector<std::vector<Copy64>> link_copies_;
  std::vector<std::vector<Copy8>> credit_copies_;
  std::unique_ptr<util::WorkerPool> pool_;  // with opt.threads > 1
  // Tiles of full PEs that skipped a cycle with all inputs zero sleep (as in the SystemC glue):
  // not copied from, stepped or observed until an input becomes nonzero or the host attends
  // them. Not while waves are traced.
  bool can_sleep_ = false;
  std::vector<uint8_t> asleep_;     // per tile
  std::vector<int> awake_;          // this cycle's tiles to step
  std::vector<uint8_t> evaluated_;  // per tile: Step evaluated it in this cycle
};

// Tiles as SystemC modules joined by sc_signals (model/rtl/sc_fabric.cpp). SystemC allows one
// elaboration per process: a second ScRtlFabric in the same process throws.
std::unique_ptr<RtlFabric> MakeScRtlFabric(const RtlFabricOptions& opt);

// Checks the options (shape built, fabric a multiple of the tile, wave window and region); throws
// invalid_argument with the offending option named (--wave-window, --wave-region for waves).
void ValidateRtlOptions(const RtlFabricOptions& opt);

}  // namespace tessera::rtl
