// Test helpers for the compute engine: an encoder that builds instruction words from the lines of
// arch::kInsns and operand values (the assembler is a separate component), a small program
// builder with labels, descriptor builders, and a bench that steps one Ce on its own, with a fake
// router register file and a scripted ramp.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "arch/arch.h"
#include "ce/ce.h"
#include "ce/trace.h"
#include "fabric/ramp_port.h"
#include "fabric/router_regs.h"
#ifdef TESSERA_BENCH_RTL
#include <memory>

#include "fabric/debug_record.h"
#include "fabric/pe_events.h"
#include "machine/machine.h"
#endif

namespace tessera::ce::test {

// An operand as written in assembly.
struct Opnd {
  enum class K { kR, kD, kImm, kZero, kMem, kAbs, kDone, kLabel };
  K k = K::kImm;
  int64_t v = 0;                // immediate, offset, absolute address
  int reg = 0;                  // register
  int ut = 0, u = 1, tid = 31;  // kDone
  std::string label;
};
inline Opnd Make(Opnd::K k, int64_t v, int reg) {
  Opnd o;
  o.k = k;
  o.v = v;
  o.reg = reg;
  return o;
}
inline Opnd R(int n) { return Make(Opnd::K::kR, 0, n); }
inline Opnd D(int n) { return Make(Opnd::K::kD, 0, n); }
inline Opnd I(int64_t v) { return Make(Opnd::K::kImm, v, 0); }
inline Opnd Z() { return Make(Opnd::K::kZero, 0, 0); }
inline Opnd M(int64_t off, int reg) { return Make(Opnd::K::kMem, off, reg); }  // off(rN)
inline Opnd A(int64_t addr) { return Make(Opnd::K::kAbs, addr, 0); }           // absolute
inline Opnd L(const std::string& label) {
  Opnd o;
  o.k = Opnd::K::kLabel;
  o.label = label;
  return o;
}
// Completion clauses (docs/isa.md 4.11).
inline Opnd Sync(int ut = 0) {
  Opnd o;
  o.k = Opnd::K::kDone;
  o.ut = ut;
  return o;
}
inline Opnd Async(int ut) {
  Opnd o = Sync(ut);
  o.u = 0;
  return o;
}
inline Opnd ActivateDone(int ut, int tid) {
  Opnd o = Sync(ut);
  o.u = 0;
  o.tid = tid;
  return o;
}
inline Opnd UnblockDone(int ut, int tid) {
  Opnd o = Sync(ut);
  o.tid = tid;
  return o;
}

// The word of `mnemonic` with these operands (the line whose operand kinds fit them). Throws if
// no line fits or the word does not decode back to that line.
uint32_t Asm(const std::string& mnemonic, const std::vector<Opnd>& ops, uint16_t pc = 0,
             const std::map<std::string, uint16_t>* labels = nullptr);

// A program: instructions and data at addresses, labels resolved when the image is built.
class Prog {
 public:
  explicit Prog(uint16_t org = 0) : pc_(org) {}
  Prog& operator()(const std::string& mnemonic, std::vector<Opnd> ops = {});
  Prog& Label(const std::string& name);
  Prog& Org(uint16_t pc) {
    pc_ = pc;
    return *this;
  }
  uint16_t Here() const { return pc_; }
  uint16_t At(const std::string& label) const { return labels_.at(label); }
  void Word(uint16_t addr, uint32_t w);
  void Half(uint16_t addr, uint16_t h);
  void Dword(uint16_t addr, uint64_t d) {
    Word(addr, static_cast<uint32_t>(d));
    Word(addr + 4, static_cast<uint32_t>(d >> 32));
  }
  std::vector<uint8_t> Image() const;

 private:
  struct Insn {
    uint16_t pc;
    std::string mnemonic;
    std::vector<Opnd> ops;
  };
  uint16_t pc_;
  std::vector<Insn> insns_;
  std::map<std::string, uint16_t> labels_;
  std::map<uint16_t, uint8_t> bytes_;
};

// Descriptors (docs/isa.md 2.3).
uint64_t Mem1d(arch::ElemType t, uint16_t base, uint32_t len, int stride = 1);
uint64_t FabIn(arch::ElemType t, uint32_t color, uint32_t len);
// FIFO k over `cap` elements at base (docs/isa.md 2.3).
uint64_t Fifo(arch::ElemType t, uint16_t base, uint32_t cap, uint32_t k);
// A mem4d descriptor (even register) and its extension (the next): lengths and strides of
// dimensions 0..3, dimension 0 fastest.
std::pair<uint64_t, uint64_t> Mem4d(arch::ElemType t, uint16_t base, std::array<uint32_t, 4> len,
                                    std::array<int, 4> stride);
uint64_t FabOut(arch::ElemType t, uint32_t color, uint32_t len, bool ctrl = false, bool idx = false,
                uint16_t base = 0);

inline uint32_t F32(float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}
inline float AsF32(uint32_t v) {
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}

// Routing registers of a PE, without a fabric.
class FakeRouter final : public fabric::RouterRegs {
 public:
  uint32_t Read(uint16_t addr) override {
    auto it = regs.find(addr);
    return it == regs.end() ? 0 : it->second;
  }
  void Write(uint16_t addr, uint32_t value) override {
    regs[addr] = value;
    writes.push_back({addr, value});
  }
  // Every color can reach and leave the CE (Rx and Tx include RAMP).
  void OpenAll();
  std::map<uint16_t, uint32_t> regs;
  std::vector<std::pair<uint16_t, uint32_t>> writes;
};

#ifdef TESSERA_BENCH_RTL
// The co-simulation build of these tests (tessera_unit_ce_cosim): the bench's CE has a twin in
// RTL (one full PE: a 1x1 fabric of full-PE tiles whose PE sees the bench CE's coordinates,
// machine::MakeRtlMachine) that gets the same program, host writes and cycles. At the end of the
// test the two must agree on SRAM, registers and debug records (host/cosim's end-state and
// debug checks), unless the test said it cannot be mirrored (Bench::NotMirrored).
class MirroredCe : public Ce {
 public:
  MirroredCe(uint16_t x, uint16_t y, fabric::RouterRegs* router);
  ~MirroredCe();
  void Load(const std::vector<uint8_t>& image, const std::vector<TaskBinding>& tasks);
  void Activate(int task);
  void HostWrite(uint16_t addr, uint32_t value);
  void StepRtl();
  // Every difference between the two backends, one per line (empty if they agree).
  std::string Compare();
  std::unique_ptr<machine::Machine> rtl;
  std::vector<fabric::DebugRecord> rtl_debug;  // the twin's debug records so far
  std::vector<fabric::PeEvents> rtl_events;    // of the last cycle
};
using BenchCe = MirroredCe;
#else
using BenchCe = Ce;
#endif

// One CE stepped alone: wavelets to deliver are scripted, wavelets sent are recorded and their
// credits come back `credit_delay` cycles later (8, as the router returns them, docs/isa.md 6.7).
class Bench {
 public:
  Bench();
  ~Bench();
  BenchCe ce;
  FakeRouter router;
  VectorTraceSink sink;
  uint64_t cycle = 0;
  int credit_delay = 8;
  struct Sent {
    uint64_t cycle;
    uint64_t link;
  };
  std::vector<Sent> sent;
  std::vector<std::pair<uint64_t, int>> credits_returned;  // (cycle, color) from the CE

  // Loads a program and binds tasks; launches `launch` if >= 0.
  void Load(const Prog& p, const std::vector<TaskBinding>& tasks, int launch = 0);
  // A wavelet reaching the CE side at cycle `at`.
  void Deliver(uint64_t at, bool ctrl, int color, uint32_t data);
  void Step();
  void Run(uint64_t n) {
    for (uint64_t k = 0; k < n; ++k) Step();
  }
  // Steps until the CE is quiet (or faulted) and nothing is scheduled; returns the cycle count.
  uint64_t RunToQuiet(uint64_t max = 100000);

  // Says that this bench's CE cannot be compared with its RTL twin, and why: it scripts
  // wavelets (Deliver), sends wavelets whose credits the bench returns, or sets the fake
  // router's registers. A bench that does one of these without saying so fails, and so does one
  // that says so but does none of them (it can be mirrored: remove the call).
  void NotMirrored(const char* why) { not_mirrored_ = why; }

  std::vector<TraceRecord> Records(TraceRecord::Kind k) const;
  // Cycle of the retire record of the instruction at pc (the n-th one).
  uint64_t RetireCycle(uint16_t pc, int nth = 0) const;
  uint32_t Gpr(int r) const { return ce.State().gpr[r]; }
  uint32_t Word(uint16_t addr) { return ce.HostRead(addr); }
  uint16_t Half(uint16_t addr) const {
    const auto& m = ce.State().sram;
    return static_cast<uint16_t>(m[addr] | m[addr + 1] << 8);
  }

 private:
  bool scripted_ = false;     // Deliver was used
  std::string not_mirrored_;  // NotMirrored's reason
  // What of the above this bench used, e.g. "scripted wavelets and sends" ("" if none).
  std::string Unmirrorable() const;
  std::multimap<uint64_t, uint64_t> deliveries_;
  std::multimap<uint64_t, int> credits_;
};

}  // namespace tessera::ce::test
