// The SystemC glue of the RTL backend: one thin module per tile and per tile's ramp endpoints,
// joined by sc_signals. Tiles act on the rising clock edge, endpoints (the CE side) on the
// falling edge before it, so every signal behaves as the register it carries. The modules copy
// words and call into TileModel and the endpoints; they hold no behaviour of their own.
#include <fmt/format.h>

#include <cstdlib>
#include <functional>
#include <ostream>
#include <stdexcept>

// Verilator headers before SystemC: the models are built with VM_SC=0, and verilated.h read after
// <systemc> takes its time from SystemC's sc_time_stamp() and does not compile.
// clang-format off
#include "verilated.h"
#include <systemc>
// clang-format on

#include "rtl/rtl_fabric.h"

namespace tessera::rtl {
namespace {

// The words crossing one tile side (or the ramps of a tile), as one signal value.
struct LinkBundle {
  std::vector<uint64_t> link;
  std::vector<uint8_t> credit;
  // A plain loop over the one or two words of a small tile (vector == calls memcmp).
  bool operator==(const LinkBundle& o) const {
    return SameWords(link, o.link) && SameWords(credit, o.credit);
  }
  template <typename T>
  static bool SameWords(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
};
std::ostream& operator<<(std::ostream& os, const LinkBundle& b) {
  return os << "LinkBundle(" << b.link.size() << " links)";
}
void sc_trace(sc_core::sc_trace_file*, const LinkBundle&, const std::string&) {}

// Copies port words into a vector of the same size (a tile's ports never change size): a plain
// loop, as cheap as the one or two words of a small tile, where vector assignment is not.
template <typename T>
void CopyWords(std::vector<T>& to, const std::vector<T>& from) {
  T* d = to.data();
  const T* s = from.data();
  for (size_t i = 0, n = from.size(); i < n; ++i) d[i] = s[i];
}

// Writes `b` to `port` only if it differs from the signal's value: sc_signal::write copies the
// bundle's vectors into its next value whatever it holds, which costs an idle tile more than the
// comparison.
template <class Port>
void WriteIfChanged(Port& port, const LinkBundle& b) {
  if (!(port.read() == b)) port.write(b);
}

// With waves on, a tile writes its outputs from its posedge process in cycles outside the wave
// window and from its second-phase process inside it: never two writers in one delta cycle.
using Signal = sc_core::sc_signal<LinkBundle, sc_core::SC_MANY_WRITERS>;

class ScRtlFabric;

SC_MODULE(TileSc) {
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<LinkBundle> side_in[kNumSides];
  sc_core::sc_out<LinkBundle> side_out[kNumSides];
  sc_core::sc_in<LinkBundle> ramp_in;    // from the endpoints
  sc_core::sc_out<LinkBundle> ramp_out;  // to the endpoints

  TileModel* model = nullptr;
  TileIo* io = nullptr;
  std::function<void(uint64_t fault_bits)> on_edge;
  // With waves on, a cycle inside the wave window is two steps: every tile applies its inputs
  // (the last one to do so dumps the waves and notifies `high`), then every tile takes the clock
  // edge. Cycles outside the window take one step, as without waves.
  const bool two_phase;
  sc_core::sc_event* const high;
  std::function<void()> on_low;
  const bool* wave_now = nullptr;   // the fabric's: this cycle is dumped
  const uint64_t* cycle = nullptr;  // the fabric's: the cycle this edge ends

  // The input signals' values stay where they are: read them there, not through the ports.
  // What wakes a sleeping tile: a change on any input, or the fabric (Attend).
  void end_of_elaboration() override {
    for (int s = 0; s < kNumSides; ++s) {
      in_[s] = &side_in[s].read();
      wake_on_ |= side_in[s].value_changed_event();
    }
    in_[kNumSides] = &ramp_in.read();
    wake_on_ |= ramp_in.value_changed_event();
    wake_on_ |= wake_;
  }

  void OnPosedge() {
    if (asleep_) {  // woken: the next rising edge steps the tile (static sensitivity again)
      asleep_ = false;
      return;
    }
    // A tile at rest whose inputs carry nothing, as in the last cycle, is skipped without
    // copying them or testing them again (the common case of an idle tile). A tile that is not
    // at rest is stepped whatever arrives: its inputs are not tested.
    const bool zero = io->at_rest && InputsZero();
    const bool wave_cycle = two_phase && *wave_now;
    if (zero && in_zero_ && !wave_cycle && model->SkipIdle(*io, *cycle)) {
      on_edge(io->fault);  // idle, not evaluated: its outputs stay as they are (zero)
      // It would skip every cycle until an input changes: it sleeps until then, and its
      // process does not run at all (its outputs, observers and faults stay as they are).
      if (!two_phase && !io->fault) {
        asleep_ = true;
        next_trigger(wake_on_);
      }
      return;
    }
    for (int s = 0; s < kNumSides; ++s) {
      CopyWords(io->in[s], in_[s]->link);
      CopyWords(io->cin[s], in_[s]->credit);
    }
    CopyWords(io->ramp_in, in_[kNumSides]->link);
    CopyWords(io->ramp_cin, in_[kNumSides]->credit);
    in_zero_ = zero;
    if (wave_cycle) {
      model->StepLow(*io, *cycle);
      on_low();
      return;
    }
    if (model->Step(*io, *cycle)) {
      WriteOutputs();
    } else {
      on_edge(io->fault);  // idle, not evaluated: its outputs stay as they are (zero)
    }
  }

  void OnHigh() {
    model->StepHigh(*io, *cycle);
    WriteOutputs();
  }

  void WriteOutputs() {
    // Copy into kept bundles (no allocation per cycle), then write.
    for (int s = 0; s < kNumSides; ++s) {
      CopyWords(out_[s].link, io->out[s]);
      CopyWords(out_[s].credit, io->cout[s]);
      WriteIfChanged(side_out[s], out_[s]);
    }
    CopyWords(ramp_.link, io->ramp_out);
    CopyWords(ramp_.credit, io->ramp_cout);
    WriteIfChanged(ramp_out, ramp_);
    on_edge(io->fault);
  }

  bool InputsZero() const {  // (one test at the end: an idle tile's inputs are all zero)
    uint64_t any = 0;
    for (const LinkBundle* b : in_) {
      for (uint64_t w : b->link) any |= w;
      for (uint8_t c : b->credit) any |= c;
    }
    return any == 0;
  }

  // The fabric is about to use the model from outside a cycle: a sleeping tile's own cycle
  // count catches up with the cycles it slept through (as if it had skipped each), and `wake`
  // wakes it for the next rising edge.
  void Attend(bool wake) {
    if (!asleep_) return;
    if (!model->SkipIdle(*io, *cycle - 1)) wake = true;  // it may no longer skip: clock it
    if (wake) wake_.notify(sc_core::SC_ZERO_TIME);
  }

  LinkBundle out_[kNumSides], ramp_;
  const LinkBundle* in_[kNumSides + 1] = {};  // the input signals' current values; ramp last
  bool in_zero_ = false;  // io's inputs were all zero when last copied (false: not known)
  bool asleep_ = false;   // skipped, and waits for wake_on_ instead of the clock
  sc_core::sc_event wake_;
  sc_core::sc_event_or_list wake_on_;

  SC_HAS_PROCESS(TileSc);
  // `high` is the fabric's event for the second step of a cycle when waves are on, else null.
  TileSc(sc_core::sc_module_name name, sc_core::sc_event * high_event)
      : sc_core::sc_module(name), two_phase(high_event != nullptr), high(high_event) {
    SC_METHOD(OnPosedge);
    sensitive << clk.pos();
    dont_initialize();
    if (two_phase) {
      SC_METHOD(OnHigh);
      sensitive << *high;
      dont_initialize();
    }
  }
};

SC_MODULE(RampSc) {
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<LinkBundle> from_tile;
  sc_core::sc_out<LinkBundle> to_tile;

  std::function<void(const LinkBundle& in, LinkBundle& out)> tick;
  LinkBundle out_;

  void OnNegedge() {
    tick(from_tile.read(), out_);
    WriteIfChanged(to_tile, out_);
  }

  SC_CTOR(RampSc) {
    SC_METHOD(OnNegedge);
    sensitive << clk.neg();
    dont_initialize();
  }
};

// The end of every rising edge, after every tile that stepped (sleeping tiles do not run): one
// delta cycle after the edge, two in a cycle whose waves are dumped (the tiles' second step runs
// in the first).
SC_MODULE(EdgeEndSc) {
  sc_core::sc_in<bool> clk;
  std::function<void()> end;
  const bool* wave_now = nullptr;  // the fabric's: this cycle is dumped (null: never)

  // Run by the edge, then by its own delta notifications.
  void OnPosedge() {
    if (waited_ < (wave_now && *wave_now ? 2 : 1)) {
      ++waited_;
      next_trigger(sc_core::SC_ZERO_TIME);
      return;
    }
    waited_ = 0;
    end();  // static sensitivity again: the next rising edge
  }
  int waited_ = 0;  // delta cycles waited in this edge

  SC_CTOR(EdgeEndSc) {
    SC_METHOD(OnPosedge);
    sensitive << clk.pos();
    dont_initialize();
  }
};

// The host's edge endpoints of every tile side at the fabric edge, in one process: on the
// falling edge it ticks them with the side's outputs and writes the side's inputs.
SC_MODULE(EdgeSc) {
  sc_core::sc_in<bool> clk;
  sc_core::sc_vector<sc_core::sc_in<LinkBundle>> from_tile;  // per edge side: the tile's outputs
  sc_core::sc_vector<sc_core::sc_out<LinkBundle>> to_tile;   // per edge side: the tile's inputs

  std::function<void(size_t side, const LinkBundle& in, LinkBundle& out)> tick;
  std::function<bool(size_t side)> has_endpoints;
  std::vector<LinkBundle> out_;

  void OnNegedge() {
    for (size_t k = 0; k < out_.size(); ++k) {
      // A side with no endpoint sends nothing, and what leaves the fabric there is dropped:
      // once its inputs are written zero, nothing is left to tick.
      if (!has_endpoints(k) && AllZero(out_[k].link) && AllZero(out_[k].credit)) continue;
      tick(k, from_tile[k].read(), out_[k]);
      WriteIfChanged(to_tile[k], out_[k]);
    }
  }

  SC_HAS_PROCESS(EdgeSc);
  EdgeSc(sc_core::sc_module_name name, size_t sides)
      : sc_core::sc_module(name),
        from_tile("from_tile", sides),
        to_tile("to_tile", sides),
        out_(sides) {
    SC_METHOD(OnNegedge);
    sensitive << clk.neg();
    dont_initialize();
  }
};

class ScRtlFabric final : public RtlFabric {
 public:
  explicit ScRtlFabric(const RtlFabricOptions& opt)
      : RtlFabric(opt),
        clk_("clk", sc_core::sc_time(1, sc_core::SC_NS), 0.5, sc_core::SC_ZERO_TIME, false) {
    const int n = NumTiles();
    // Clocks, then signals, then modules, then one bind per line.
    for (int t = 0; t < n; ++t) {
      for (int s = 0; s < kNumSides; ++s) {
        out_sig_.push_back(std::make_unique<Signal>(sc_core::sc_gen_unique_name("side")));
      }
      ramp_to_tile_.push_back(std::make_unique<Signal>(sc_core::sc_gen_unique_name("ramp_in")));
      ramp_to_ce_.push_back(std::make_unique<Signal>(sc_core::sc_gen_unique_name("ramp_out")));
    }
    for (size_t k = 0; k < edge_sides_.size(); ++k)  // what arrives across the fabric edge
      edge_in_.push_back(std::make_unique<Signal>(sc_core::sc_gen_unique_name("edge_in")));
    edge_sc_ = std::make_unique<EdgeSc>("edges", edge_sides_.size());
    edge_sc_->clk(clk_);
    edge_end_ = std::make_unique<EdgeEndSc>("edge_end");
    edge_end_->clk(clk_);
    edge_end_->end = [this] { EndEdge(); };
    if (Tracing()) edge_end_->wave_now = &wave_now_;
    for (int t = 0; t < n; ++t) {
      Tile& tile = tiles_[t];
      auto ts = std::make_unique<TileSc>(
          fmt::format("tile_x{}_y{}", tile.tx * opt.tile_w, tile.ty * opt.tile_h).c_str(),
          Tracing() ? &high_ : nullptr);
      ts->model = tile.model.get();
      ts->io = &tile.io;
      for (int s = 0; s < kNumSides; ++s) ts->out_[s] = LinkBundle{tile.io.out[s], tile.io.cout[s]};
      ts->ramp_ = LinkBundle{tile.io.ramp_out, tile.io.ramp_cout};
      ts->cycle = &cycle_;
      ts->on_edge = [this, t](uint64_t fault_bits) { OnTileEdge(t, fault_bits); };
      if (Tracing()) {
        ts->on_low = [this] { OnTileLow(); };
        ts->wave_now = &wave_now_;
      }
      ts->clk(clk_);
      for (int s = 0; s < kNumSides; ++s) {
        int nb = Neighbour(t, static_cast<Side>(s));
        if (nb >= 0) ts->side_in[s](*out_sig_[nb * kNumSides + Opposite(static_cast<Side>(s))]);
        ts->side_out[s](*out_sig_[t * kNumSides + s]);
      }
      ts->ramp_in(*ramp_to_tile_[t]);
      ts->ramp_out(*ramp_to_ce_[t]);
      // Initial signal values: the tile's outputs after reset, idle ramps.
      for (int s = 0; s < kNumSides; ++s)
        out_sig_[t * kNumSides + s]->write(LinkBundle{tile.io.out[s], tile.io.cout[s]});
      ramp_to_ce_[t]->write(LinkBundle{tile.io.ramp_out, tile.io.ramp_cout});
      const LinkBundle idle_ramp{std::vector<uint64_t>(opt.tile_w * opt.tile_h, 0),
                                 std::vector<uint8_t>(opt.tile_w * opt.tile_h, 0)};
      ramp_to_tile_[t]->write(idle_ramp);
      tile_sc_.push_back(std::move(ts));
      // Full PEs' ramps end at their own CEs, inside the tile (Observe logs what goes down them):
      // only router-only tiles have a process for their endpoints.
      if (opt.ce) continue;
      auto rs = std::make_unique<RampSc>(
          fmt::format("ramp_x{}_y{}", tile.tx * opt.tile_w, tile.ty * opt.tile_h).c_str());
      rs->clk(clk_);
      rs->from_tile(*ramp_to_ce_[t]);
      rs->to_tile(*ramp_to_tile_[t]);
      rs->out_ = idle_ramp;
      rs->tick = [this, t](const LinkBundle& in, LinkBundle& out) {
        TickEndpoints(t, in.link, in.credit, out.link, out.credit);
      };
      ramp_sc_.push_back(std::move(rs));
    }
    wave_now_ = WaveCycle(cycle_);
    for (size_t k = 0; k < edge_sides_.size(); ++k) {
      const EdgeSide e = edge_sides_[k];
      TileSc& ts = *tile_sc_[e.tile];
      ts.side_in[e.side](*edge_in_[k]);
      edge_sc_->from_tile[k](*out_sig_[e.tile * kNumSides + e.side]);
      edge_sc_->to_tile[k](*edge_in_[k]);
      const TileIo& io = tiles_[e.tile].io;
      edge_sc_->out_[k] = LinkBundle{io.in[e.side], io.cin[e.side]};  // idle: zero
      edge_in_[k]->write(edge_sc_->out_[k]);
    }
    edge_sc_->has_endpoints = [this](size_t k) { return edge_sides_[k].endpoints > 0; };
    edge_sc_->tick = [this](size_t k, const LinkBundle& in, LinkBundle& out) {
      const EdgeSide e = edge_sides_[k];
      TickEdgeEndpoints(e.tile, e.side, in.link, in.credit, out.link, out.credit);
    };
  }

  const char* Name() const override { return "rtl"; }

  uint64_t Run(uint64_t cycles) override {
    fault_pending_ = false;
    if (cycles == 0) return 0;
    PrepareObservers();
    const uint64_t start = cycle_;
    // The kernel stops before events at the end time: a run of n cycles covers n falling and
    // n rising edges. After a pause at a rising edge, the half cycle to the next falling edge
    // belongs to this run.
    double ns = static_cast<double>(cycles) + (mid_cycle_ ? 0.5 : 0.0);
    paused_ = false;
    sc_core::sc_start(sc_core::sc_time(ns, sc_core::SC_NS));
    mid_cycle_ = paused_;
    CheckAssertions();
    return cycle_ - start;
  }

 private:
  void OnTileLow() {
    if (++tiles_low_ == NumTiles()) {  // every tile holds this cycle's state and inputs
      tiles_low_ = 0;
      DumpWaves(cycle_);
      high_.notify(sc_core::SC_ZERO_TIME);
    }
  }

  void OnTileEdge(int t, uint64_t fault_bits) {
    NoteFaults(t, fault_bits, cycle_);
    Observe(t, cycle_);
  }

  // After every tile that stepped in this rising edge (EdgeEndSc).
  void EndEdge() {
    FlushRampDown(cycle_);
    ++cycle_;
    wave_now_ = WaveCycle(cycle_);
    if (!fault_pending_ && !assertion_failed_) {
      try {
        CheckAssertions();
      } catch (const std::runtime_error&) {
        assertion_failed_ = true;
      }
    }
    if (fault_pending_ || assertion_failed_ || StopNow()) {
      paused_ = true;  // at a rising edge: the next run starts mid-cycle
      sc_core::sc_pause();
    }
  }

  void AttendTile(int t, bool wake) override {
    if (static_cast<size_t>(t) < tile_sc_.size()) tile_sc_[static_cast<size_t>(t)]->Attend(wake);
  }

  sc_core::sc_clock clk_;
  std::vector<std::unique_ptr<Signal>> out_sig_, ramp_to_tile_, ramp_to_ce_;
  std::vector<std::unique_ptr<Signal>> edge_in_;
  std::unique_ptr<EdgeSc> edge_sc_;
  std::unique_ptr<EdgeEndSc> edge_end_;
  std::vector<std::unique_ptr<TileSc>> tile_sc_;
  std::vector<std::unique_ptr<RampSc>> ramp_sc_;
  sc_core::sc_event high_;
  int tiles_low_ = 0;
  bool mid_cycle_ = false, assertion_failed_ = false, paused_ = false;
  bool wave_now_ = false;  // the cycle about to be clocked is in the wave window
};

bool g_elaborated = false;

}  // namespace

std::unique_ptr<RtlFabric> MakeScRtlFabric(const RtlFabricOptions& opt) {
  if (g_elaborated) throw std::logic_error("the SystemC fabric can be built once per process");
  ValidateRtlOptions(opt);
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);  // keep stdout for results
  g_elaborated = true;
  return std::make_unique<ScRtlFabric>(opt);
}

}  // namespace tessera::rtl
