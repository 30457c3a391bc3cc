// A verilated tile (TW x TH PEs) behind a shape-independent interface: all its ports as plain
// words in a TileIo, a clock step, and the register back door. The fabric glues (SystemC or a
// plain loop) hold TileModels and copy TileIo words between neighbours; they add no behaviour.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

class VerilatedContext;
class VerilatedFstC;

namespace tessera::rtl {

// Sides in arch::Dir order. West/east ports are indexed by row, south/north by column.
enum Side : int { kWest = 0, kEast = 1, kSouth = 2, kNorth = 3 };
inline constexpr int kNumSides = 4;
inline Side Opposite(Side s) { return static_cast<Side>(s ^ 1); }

// Whether every word of a port vector is zero (carries nothing).
template <typename T>
bool AllZero(const std::vector<T>& v) {
  T any = 0;
  for (T x : v) any |= x;
  return any == 0;
}

// Every port of a tile as words: links as arch::Link (64-bit), credits as arch::Credit.
struct TileIo {
  std::vector<uint64_t> in[kNumSides], out[kNumSides];
  std::vector<uint8_t> cin[kNumSides], cout[kNumSides];  // credits for our outputs / from us
  std::vector<uint8_t> tied[kNumSides];                  // 1: that edge port is tied off
  std::vector<uint64_t> ramp_in, ramp_out;               // per PE (y * TW + x): CE side
  std::vector<uint8_t> ramp_cin, ramp_cout;
  uint64_t fault = 0;  // bit per PE: its fault flag
  uint64_t busy = 0;   // bit per PE, after the edge: a wavelet in its router or ramp (busy_o)
  // Tiles of full PEs: per PE the debug-port record word, the CE's event word and the word the CE
  // sent into the ramp in the cycle, registered at its edge (rtl/tile/tessera_tile.sv: dbg_o,
  // event_o, ramp_sent_o), and the CeStatus.Quiet and Settled bits after the edge: the state the
  // cycle left.
  // (ramp_out shows what the CE receives.)
  std::vector<uint64_t> dbg;
  std::vector<uint32_t> events;
  std::vector<uint64_t> ramp_sent;
  uint64_t quiet = 0;
  uint64_t settled = 0;  // CeStatus.Settled bits after the edge
  // Every tile, with want_blocked set: per PE and output direction (local_pe * kNumDirs + dir),
  // the colors its router's back pressure held up in the cycle, registered at its edge
  // (tessera_tile blocked_o).
  bool want_blocked = false;
  std::vector<uint32_t> blocked;
  bool observers_clear = true;  // dbg, events, ramp_sent and blocked are all zero
  // After the last edge no wavelet is inside (busy) or leaving (out, cout, ramp_out, ramp_cout)
  // and every CE is quiet (full PEs): set by CheckAtRest.
  bool at_rest = false;

  void Resize(int tw, int th);
  // Sets `at_rest` from the outputs and quiet bits the last edge left (`ce`: full PEs).
  void CheckAtRest(int num_pe, bool ce);
  // Clocking the tile in the coming cycle would change nothing but the cycle count (which comes
  // from the fabric) and leave every output zero: it is at rest and nothing arrives (in, cin,
  // ramp_in, ramp_cin). The tile is then not evaluated (docs/performance.md, "Idle tiles").
  bool Idle() const;
  // The observers of a cycle in which nothing happened: all zero.
  void ClearObservers();
};

// Tiles of full PEs: where one PE's register files and SRAM live inside the verilated model, for
// reads between cycles that cost no evaluation (the back door costs two per word). The member
// names come from the RTL hierarchy; nullptr: not found in this build (callers fall back to the
// back door, which reads the same values).
struct CoreArrays {
  const uint32_t* gpr = nullptr;  // arch::kNumGprs words
  const uint64_t* dsr = nullptr;  // arch::kNumDsrs words
  uint32_t* sram = nullptr;       // arch::kSramBytes / 4 words; word i holds bytes 4i..4i+3
};

class TileModel {
 public:
  virtual ~TileModel() = default;
  virtual int TileW() const = 0;
  virtual int TileH() const = 0;
  // Asynchronous reset with the tile's fabric coordinates; io's outputs are refreshed.
  virtual void Reset(uint16_t x0, uint16_t y0, TileIo& io) = 0;
  // Applies io.tied (an edge endpoint was set or cleared); between cycles only.
  virtual void ApplyTies(const TileIo& io) = 0;
  // One clock cycle, `cycle` (the fabric's count of cycles so far, which the CEs read as
  // CycleLo): applies io's inputs, takes the rising edge and reads io's outputs and observers.
  // One evaluation of the model where Verilator allows (OneEvalPerCycle). An idle tile
  // (TileIo::Idle) is not evaluated unless SetSkipIdle(false); returns whether it was.
  virtual bool Step(TileIo& io, uint64_t cycle) = 0;
  // Step's skip alone, for a caller that knows io's inputs are zero and were zero when last
  // applied (so TileIo::Idle need not look at them): skips the cycle if the tile is at rest and
  // skipping is allowed, and returns whether it did; if not, the caller calls Step.
  virtual bool SkipIdle(TileIo& io, uint64_t cycle) = 0;
  // The same cycle in two halves, so a fabric can dump waves between them: Low applies io's
  // inputs with the clock low; High raises the clock (the edge) and reads io's outputs. Never
  // skipped.
  virtual void StepLow(TileIo& io, uint64_t cycle) = 0;
  virtual void StepHigh(TileIo& io, uint64_t cycle) = 0;
  virtual bool HasCe() const = 0;
  virtual void SetSkipIdle(bool on) = 0;  // default on
  virtual uint64_t Clocked() const = 0;   // cycles this tile was evaluated
  virtual bool OneEvalPerCycle() const = 0;
  // Where none of the tile's inputs changed since its last evaluation, a cycle's evaluation
  // leaves out the model's input-combinational region, whose values that evaluation already
  // settled (model/rtl/vtile.h, docs/performance.md). Default on where this build knows the
  // model's regions (SkipsInputRegion); WithoutInputRegion counts such cycles.
  virtual void SetSkipInputRegion(bool on) = 0;
  virtual bool SkipsInputRegion() const = 0;
  virtual uint64_t WithoutInputRegion() const = 0;
  // Register back door, zero simulated time: a write is one frozen clock edge (en_i = 0, only
  // the register bus acts); a read is combinational (frozen, so SRAM reads reach the read port).
  // local_pe = y * TW + x.
  virtual void WriteReg(int local_pe, uint16_t addr, uint32_t value) = 0;
  virtual uint32_t ReadReg(int local_pe, uint16_t addr) = 0;
  // The arrays of PE local_pe (y * TW + x); all nullptr for router-only tiles.
  virtual CoreArrays Core(int local_pe) { return {}; }
  // Adds this model's signals to a trace file (before it is opened).
  virtual void Trace(VerilatedFstC* tfp) = 0;
};

// The tile shapes verilated into this build, e.g. {{1,1},{2,2},{4,4}}: of router-only PEs, or
// with `ce` of full PEs.
std::vector<std::pair<int, int>> BuiltTileShapes(bool ce = false);
std::string BuiltTileShapesText(bool ce = false);  // "1x1, 2x2, 4x4"
// The tile shape `--tile auto` means for fabrics of full PEs: 1x1 (every build has it). The
// shape sets the host ports (one per tile on every backend, so memcpy timing), and 1x1 lets the
// RTL skip each idle PE on its own; larger tiles are verilated to check that results do not
// depend on the shape (docs/runtime.md).
inline std::pair<int, int> DefaultCeTile() { return {1, 1}; }

// A new tile model of that shape; throws std::invalid_argument naming the built shapes if the
// shape was not verilated. `name` becomes the model's top scope in waves.
std::unique_ptr<TileModel> MakeTileModel(int tw, int th, bool ce, VerilatedContext* ctx,
                                         const std::string& name);

}  // namespace tessera::rtl
