// VTile<V>: the TileModel of one verilated tile shape V (Vtile_<W>x<H>). Ports of up to 64 bits
// are plain integers in Verilator, wider ones VlWide; the accessors below hide the difference.
#pragma once

#include <type_traits>

#include "arch/arch.h"
#include "rtl/tile_model.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace tessera::rtl {

namespace port {

template <typename T>
inline uint64_t Word64(const T& p, int i) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<uint64_t>(p);
  } else {
    return static_cast<uint64_t>(p[2 * i]) | (static_cast<uint64_t>(p[2 * i + 1]) << 32);
  }
}
template <typename T>
inline uint32_t Word32(const T& p, int i) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<uint32_t>(static_cast<uint64_t>(p) >> (32 * i));
  } else {
    return p[i];
  }
}
template <typename T>
inline void SetWord64(T& p, int i, uint64_t v) {
  if constexpr (std::is_integral_v<T>) {
    p = static_cast<T>(v);
  } else {
    p[2 * i] = static_cast<uint32_t>(v);
    p[2 * i + 1] = static_cast<uint32_t>(v >> 32);
  }
}
template <typename T>
inline uint8_t Byte(const T& p, int i) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<uint8_t>(static_cast<uint64_t>(p) >> (8 * i));
  } else {
    return static_cast<uint8_t>(p[i / 4] >> (8 * (i % 4)));
  }
}
template <typename T>
inline void SetByte(T& p, int i, uint8_t v) {
  if constexpr (std::is_integral_v<T>) {
    uint64_t w = static_cast<uint64_t>(p);
    w = (w & ~(0xFFull << (8 * i))) | (static_cast<uint64_t>(v) << (8 * i));
    p = static_cast<T>(w);
  } else {
    uint32_t& w = p[i / 4];
    w = (w & ~(0xFFu << (8 * (i % 4)))) | (static_cast<uint32_t>(v) << (8 * (i % 4)));
  }
}
template <typename T>
inline void SetBit(T& p, int i, bool v) {
  if constexpr (std::is_integral_v<T>) {
    uint64_t w = static_cast<uint64_t>(p);
    w = v ? (w | (1ull << i)) : (w & ~(1ull << i));
    p = static_cast<T>(w);
  } else {
    p[i / 32] = v ? (p[i / 32] | (1u << (i % 32))) : (p[i / 32] & ~(1u << (i % 32)));
  }
}
// Put*: set the port, and tell whether its value changed.
template <typename T>
inline bool Put64(T& p, int i, uint64_t v) {
  if (Word64(p, i) == v) return false;
  SetWord64(p, i, v);
  return true;
}
template <typename T>
inline bool PutByte(T& p, int i, uint8_t v) {
  if (Byte(p, i) == v) return false;
  SetByte(p, i, v);
  return true;
}
template <typename T>
inline uint64_t Bits64(const T& p) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<uint64_t>(p);
  } else {
    return Word64(p, 0);
  }
}

}  // namespace port

// The regions of a verilated model's evaluation after its input-combinational one (Verilator
// 5.006's generated V___024root___eval_triggers__act, ___eval_act, ___eval_nba), declared per
// shape by tile_factory.cpp.in; all null where the factory does not know them.
template <class Root>
struct EvalRegions {
  void (*triggers_act)(Root*) = nullptr;
  void (*act)(Root*) = nullptr;
  void (*nba)(Root*) = nullptr;
};

template <class V, int TW, int TH, bool kCe>
class VTile final : public TileModel {
 public:
  using Root = std::remove_pointer_t<decltype(std::declval<V&>().rootp)>;
  // `core` finds a PE's arrays in the model (generated per shape, tile_factory.cpp.in); nullptr:
  // none known. `regions`: see EvalRegions.
  using CoreFn = CoreArrays (*)(V& model, int local_pe);
  VTile(VerilatedContext* ctx, const std::string& name, CoreFn core = nullptr,
        EvalRegions<Root> regions = {})
      : m_(ctx, name.c_str()), core_(core), regions_(regions) {}
  int TileW() const override { return TW; }
  int TileH() const override { return TH; }
  bool HasCe() const override { return kCe; }

  void Reset(uint16_t x0, uint16_t y0, TileIo& io) override {
    SetTied(io);  // and again whenever an edge endpoint is set or cleared (ApplyTies)
    m_.x0_i = x0;
    m_.y0_i = y0;
    m_.cycle_i = 0;
    m_.en_i = 1;
    m_.cfg_we_i = 0;
    m_.clk_i = 0;
    m_.rst_ni = 1;
    Eval();
    m_.rst_ni = 0;
    Eval();
    for (int i = 0; i < 2; ++i) {
      m_.clk_i = 1;
      Eval();
      m_.clk_i = 0;
      Eval();
    }
    m_.rst_ni = 1;  // released with the clock low: the first edge is the first cycle's
    Eval();
    ReadOutputs(io);
    must_clock_ = true;
    now_ = count_ = 0;
  }

  void ApplyTies(const TileIo& io) override {
    SetTied(io);
    must_clock_ = true;
  }

  void SetSkipIdle(bool on) override { skip_idle_ = on; }
  uint64_t Clocked() const override { return clocked_; }
  bool OneEvalPerCycle() const override { return kOneEval; }
  void SetSkipInputRegion(bool on) override { skip_input_region_ = on; }
  bool SkipsInputRegion() const override { return kOneEval && regions_.nba && skip_input_region_; }
  uint64_t WithoutInputRegion() const override { return without_input_region_; }

  bool Step(TileIo& io, uint64_t cycle) override {
    if (io.Idle() && SkipIdle(io, cycle)) return false;
    ApplyInputs(io, cycle);
    Edge();
    AfterEdge(io, cycle);
    return true;
  }

  bool SkipIdle(TileIo& io, uint64_t cycle) override {
    if (!skip_idle_ || must_clock_ || !io.at_rest) return false;
    io.ClearObservers();
    now_ = cycle + 1;  // the tile's own count stays behind (SyncCycle)
    return true;
  }

  void StepLow(TileIo& io, uint64_t cycle) override {
    ApplyInputs(io, cycle);
    m_.clk_i = 0;
    Eval();
  }

  void StepHigh(TileIo& io, uint64_t cycle) override {
    m_.clk_i = 1;
    Eval();
    AfterEdge(io, cycle);
  }

  // The back door leaves the tile frozen (en_i = 0) until the next cycle's step unfreezes it with
  // its inputs: a run of reads and writes costs one evaluation each.
  void WriteReg(int local_pe, uint16_t addr, uint32_t value) override {
    SyncCycle(now_);
    Put(m_.en_i, 0);
    Put(m_.cfg_we_i, 1);
    Put(m_.cfg_pe_i, local_pe);
    Put(m_.cfg_addr_i, addr);
    Put(m_.cfg_wdata_i, value);
    Edge();
    Put(m_.cfg_we_i, 0);
    frozen_ = true;
    must_clock_ = true;  // the write may wake a CE: the next cycle is clocked
  }

  uint32_t ReadReg(int local_pe, uint16_t addr) override {
    SyncCycle(now_);
    Put(m_.cfg_pe_i, local_pe);
    Put(m_.cfg_addr_i, addr);
    if constexpr (kCe) {  // the CE's read port serves the host only while frozen
      Put(m_.en_i, 0);
      frozen_ = true;
    }
    Eval();
    return m_.cfg_rdata_o;
  }

  void Trace(VerilatedFstC* tfp) override { m_.trace(tfp, 99); }

  CoreArrays Core(int local_pe) override {
    if (!core_ || local_pe < 0 || local_pe >= TW * TH) return {};
    return core_(m_, local_pe);
  }

 private:
  // Verilator 5's trigger state: the value of clk_i at the last evaluation. Where it exists a
  // cycle is one evaluation (Step); elsewhere two.
  template <class M, class = void>
  struct HasTrigPrev : std::false_type {};
  template <class M>
  struct HasTrigPrev<M, std::void_t<decltype(std::declval<M&>().rootp->__Vtrigrprev__TOP__clk_i)>>
      : std::true_type {};
  static constexpr bool kOneEval = HasTrigPrev<V>::value;

  // A rising edge on the inputs as they are. With kOneEval, one evaluation: Verilator settles the
  // logic on new inputs (its input-combinational region) before it acts on the edge, as a low
  // and a high evaluation would; the model is told the clock was low, and the clock is lowered
  // without an evaluation (the next edge is announced the same way).
  //
  // Where no input changed since the last evaluation, the input-combinational region is skipped
  // (EvalRegions): it would compute again what the last evaluation's NBA region left, since
  // Verilator settles there all logic that reads the registers, whatever else it reads, and logic
  // that reads only inputs keeps its values. The tile counts its own cycles (tessera_tile's
  // cycle_i), so a tile whose links carry nothing new takes this path cycle after cycle.
  void Edge() {
    if constexpr (kOneEval) {
      m_.clk_i = 1;
      m_.rootp->__Vtrigrprev__TOP__clk_i = 0;
      if (inputs_changed_ || !SkipsInputRegion()) {
        Eval();
      } else {
        EvalAfterInputs();
        ++without_input_region_;
      }
      m_.clk_i = 0;
    } else {
      m_.clk_i = 0;
      Eval();
      m_.clk_i = 1;
      Eval();
    }
  }

  // Every region of an evaluation: the model settles on its inputs as they are. Input changes
  // go through Put (or set inputs_changed_), so the next edge knows whether it may leave the
  // input-combinational region out.
  void Eval() {
    m_.eval();
    inputs_changed_ = false;
  }
  template <class P, class T>
  void Put(P& port, T v) {
    if (port == static_cast<P>(v)) return;
    port = static_cast<P>(v);
    inputs_changed_ = true;
  }

  // Verilator 5.006's V___024root___eval after its input-combinational region: the active and
  // NBA regions until they settle, and the bookkeeping of eval_step.
  void EvalAfterInputs() {
    Root* r = m_.rootp;
    r->__Vm_traceActivity[1] = 1;  // as the input-combinational region would mark
    r->vlSymsp->__Vm_activity = true;
    uint32_t nba_iter = 0;
    bool nba_continue = true;
    while (nba_continue) {
      nba_continue = false;
      r->__VnbaTriggered.clear();
      r->__VactIterCount = 0;
      r->__VactContinue = 1;
      while (r->__VactContinue) {
        r->__VactContinue = 0;
        regions_.triggers_act(r);
        if (r->__VactTriggered.any()) {
          r->__VactContinue = 1;
          if (r->__VactIterCount > 100)
            VL_FATAL_MT(__FILE__, __LINE__, "", "Active region did not converge.");
          ++r->__VactIterCount;
          r->__VnbaTriggered.set(r->__VactTriggered);
          regions_.act(r);
        }
      }
      if (r->__VnbaTriggered.any()) {
        nba_continue = true;
        if (nba_iter > 100) VL_FATAL_MT(__FILE__, __LINE__, "", "NBA region did not converge.");
        ++nba_iter;
        regions_.nba(r);
      }
    }
    Verilated::endOfThreadMTask(r->vlSymsp->__Vm_evalMsgQp);
    Verilated::endOfEval(r->vlSymsp->__Vm_evalMsgQp);
  }

  // The tile's cycle_i, changed only where the tile's own count (count_) is not `cycle`.
  void SyncCycle(uint64_t cycle) {
    if (count_ == cycle) return;
    Put(m_.cycle_i, cycle);
    count_ = cycle;
  }

  void ApplyInputs(const TileIo& io, uint64_t cycle) {
    bool changed = false;
    if (frozen_) {  // after the back door
      Put(m_.en_i, 1);
      frozen_ = false;
    }
    for (int i = 0; i < TH; ++i) {
      changed |= port::Put64(m_.w_in_i, i, io.in[kWest][i]);
      changed |= port::Put64(m_.e_in_i, i, io.in[kEast][i]);
      changed |= port::PutByte(m_.w_cin_i, i, io.cin[kWest][i]);
      changed |= port::PutByte(m_.e_cin_i, i, io.cin[kEast][i]);
    }
    for (int i = 0; i < TW; ++i) {
      changed |= port::Put64(m_.s_in_i, i, io.in[kSouth][i]);
      changed |= port::Put64(m_.n_in_i, i, io.in[kNorth][i]);
      changed |= port::PutByte(m_.s_cin_i, i, io.cin[kSouth][i]);
      changed |= port::PutByte(m_.n_cin_i, i, io.cin[kNorth][i]);
    }
    for (int i = 0; i < TW * TH; ++i) {
      changed |= port::Put64(m_.ramp_in_i, i, io.ramp_in[i]);
      changed |= port::PutByte(m_.ramp_cin_i, i, io.ramp_cin[i]);
    }
    if (changed) inputs_changed_ = true;
    SyncCycle(cycle);
  }

  // After the edge that ends `cycle`: the outputs, the registered observers of the cycle and
  // the quiet bits; the tile's count moves on.
  void AfterEdge(TileIo& io, uint64_t cycle) {
    ReadOutputs(io);
    if (io.want_blocked) {
      for (int k = 0; k < TW * TH * static_cast<int>(arch::kNumDirs); ++k)
        io.blocked[k] = port::Word32(m_.blocked_o, k);
    }
    if constexpr (kCe) {
      for (int i = 0; i < TW * TH; ++i) {
        io.dbg[i] = port::Word64(m_.dbg_o, i);
        io.events[i] = static_cast<uint32_t>(port::Word64(m_.event_o, i / 2) >> (32 * (i % 2)));
        io.ramp_sent[i] = port::Word64(m_.ramp_sent_o, i);
      }
      io.quiet = port::Bits64(m_.quiet_o);
      io.settled = port::Bits64(m_.settled_o);
    }
    io.observers_clear = false;
    io.CheckAtRest(TW * TH, kCe);
    now_ = count_ = cycle + 1;
    must_clock_ = false;
    ++clocked_;
  }

  void SetTied(const TileIo& io) {
    inputs_changed_ = true;
    for (int i = 0; i < TH; ++i) {
      port::SetBit(m_.w_tied_i, i, io.tied[kWest][i]);
      port::SetBit(m_.e_tied_i, i, io.tied[kEast][i]);
    }
    for (int i = 0; i < TW; ++i) {
      port::SetBit(m_.s_tied_i, i, io.tied[kSouth][i]);
      port::SetBit(m_.n_tied_i, i, io.tied[kNorth][i]);
    }
  }

  void ReadOutputs(TileIo& io) {
    for (int i = 0; i < TH; ++i) {
      io.out[kWest][i] = port::Word64(m_.w_out_o, i);
      io.out[kEast][i] = port::Word64(m_.e_out_o, i);
      io.cout[kWest][i] = port::Byte(m_.w_cout_o, i);
      io.cout[kEast][i] = port::Byte(m_.e_cout_o, i);
    }
    for (int i = 0; i < TW; ++i) {
      io.out[kSouth][i] = port::Word64(m_.s_out_o, i);
      io.out[kNorth][i] = port::Word64(m_.n_out_o, i);
      io.cout[kSouth][i] = port::Byte(m_.s_cout_o, i);
      io.cout[kNorth][i] = port::Byte(m_.n_cout_o, i);
    }
    for (int i = 0; i < TW * TH; ++i) {
      io.ramp_out[i] = port::Word64(m_.ramp_out_o, i);
      io.ramp_cout[i] = port::Byte(m_.ramp_cout_o, i);
    }
    io.fault = port::Bits64(m_.fault_o);
    io.busy = port::Bits64(m_.busy_o);
  }

  V m_;
  CoreFn core_ = nullptr;
  EvalRegions<Root> regions_;
  bool inputs_changed_ = true;  // since the last evaluation: its input region must run
  bool skip_input_region_ = true;
  uint64_t without_input_region_ = 0;
  uint64_t now_ = 0;    // the cycle about to be clocked
  uint64_t count_ = 0;  // the tile's own count of it (tessera_tile's cycle)
  bool skip_idle_ = true;
  bool must_clock_ = true;  // reset, a back-door write or new ties: the next cycle is clocked
  bool frozen_ = false;     // en_i = 0 after the back door, until the next step
  uint64_t clocked_ = 0;
};

}  // namespace tessera::rtl
