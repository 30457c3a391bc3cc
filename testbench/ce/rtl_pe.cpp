#include "ce/rtl_pe.h"

#include <Vpe_ce.h>
#include <Vpe_ce___024root.h>
#include <verilated.h>

#include <stdexcept>

#include "arch/arch.h"

namespace tessera::tb {

struct RtlPe::Impl {
  VerilatedContext ctx;
  Vpe_ce top{&ctx, "pe"};
};

RtlPe::RtlPe(int x, int y) : impl_(std::make_unique<Impl>()), x_(x), y_(y) {
  auto& t = impl_->top;
  t.x_i = static_cast<uint16_t>(x);
  t.y_i = static_cast<uint16_t>(y);
  t.tied_i = 0xF;
  t.en_i = 0;
  t.clk_i = 0;
  t.rst_ni = 0;
  t.eval();
  t.clk_i = 1;
  t.eval();
  t.rst_ni = 1;
  t.clk_i = 0;
  t.eval();
}

RtlPe::~RtlPe() {
  // Verilator (5.006) erases the model's scopes through the thread's current context, which may
  // be another PE's (or one already destroyed): make it this model's own first.
  Verilated::threadContextp(&impl_->ctx);
  impl_->top.final();
  impl_.reset();
}

void RtlPe::Edge() {
  auto& t = impl_->top;
  t.clk_i = 1;
  t.eval();
  t.clk_i = 0;
  t.eval();
}

void RtlPe::Write(uint16_t addr, uint32_t value) {
  auto& t = impl_->top;
  t.en_i = 0;
  t.cfg_we_i = 1;
  t.cfg_addr_i = addr;
  t.cfg_wdata_i = value;
  t.eval();
  Edge();
  t.cfg_we_i = 0;
  t.eval();
}

uint32_t RtlPe::Read(uint16_t addr) {
  auto& t = impl_->top;
  t.en_i = 0;
  t.cfg_we_i = 0;
  t.cfg_addr_i = addr;
  t.eval();
  return t.cfg_rdata_o;
}

void RtlPe::Load(const std::vector<uint8_t>& sram, const std::vector<TaskBind>& tasks) {
  if (sram.size() > arch::kSramBytes) throw std::invalid_argument("image larger than the SRAM");
  for (size_t a = 0; a < sram.size(); a += 4) {  // the last word may be partial
    uint32_t w = 0;
    for (size_t k = 0; k < 4 && a + k < sram.size(); ++k) w |= uint32_t(sram[a + k]) << (8 * k);
    if (w) Write(static_cast<uint16_t>(a), w);
  }
  for (const auto& b : tasks) {
    uint32_t v = arch::TaskCfg::WithEntry(0, b.entry);
    v = arch::TaskCfg::WithKind(v, static_cast<uint32_t>(b.kind));
    Write(arch::TaskCfg::Addr(b.id), v);
  }
}

void RtlPe::Activate(int task) { Write(arch::TaskActiveSet::kAddr, 1u << task); }

// Every method that changes an input evaluates the model afterwards: the outputs are current.
bool RtlPe::Faulted() { return impl_->top.fault_o; }

CycleEvents RtlPe::Step() {
  auto& t = impl_->top;
  if (!t.en_i || t.cfg_we_i) {  // after loading or a back-door access: run
    t.cfg_we_i = 0;
    t.en_i = 1;
    t.eval();
  }
  CycleEvents e;
  e.retire = t.retire_o;
  e.retire_pc = t.retire_pc_o;
  e.task_start = t.task_start_o;
  e.task = t.task_id_o;
  e.debug = t.dbg_valid_o;
  e.debug_fmt = t.dbg_fmt_o;
  e.debug_value = t.dbg_value_o;
  if (e.debug) debug_.push_back({cycle_, x_, y_, e.debug_value, e.debug_fmt});
  Edge();
  ++cycle_;
  return e;
}

bool RtlPe::Quiet() { return impl_->top.quiet_o; }

uint32_t RtlPe::Gpr(int i) const {
  return impl_->top.rootp->tessera_pe__DOT__g_ce__DOT__u_ce__DOT__gpr_q[i];
}

uint64_t RtlPe::Dsr(int i) const {
  return impl_->top.rootp->tessera_pe__DOT__g_ce__DOT__u_ce__DOT__dsr_q[i];
}

void RtlPe::WriteSram(uint16_t addr, const uint8_t* bytes, size_t n) {
  if (addr % 4 || n % 4 || addr + n > arch::kSramBytes)
    throw std::out_of_range("RtlPe::WriteSram: not whole words inside SRAM");
  auto& mem = impl_->top.rootp->tessera_pe__DOT__g_ce__DOT__u_sram__DOT__mem_q;
  for (size_t k = 0; k < n; k += 4) {
    mem[(addr + k) >> 2] = bytes[k] | bytes[k + 1] << 8 | bytes[k + 2] << 16 |
                           static_cast<uint32_t>(bytes[k + 3]) << 24;
  }
  impl_->top.eval();
}

void RtlPe::ReadSram(uint16_t addr, uint8_t* out, size_t n) const {
  if (addr + n > arch::kSramBytes) throw std::out_of_range("RtlPe::ReadSram: outside SRAM");
  const auto& mem = impl_->top.rootp->tessera_pe__DOT__g_ce__DOT__u_sram__DOT__mem_q;
  for (size_t k = 0; k < n; ++k) {
    const uint32_t a = addr + static_cast<uint32_t>(k);
    out[k] = static_cast<uint8_t>(mem[a >> 2] >> (8 * (a & 3)));
  }
}

uint64_t RtlPe::Run(uint64_t cycles, int quiet_cycles) {
  auto& t = impl_->top;
  t.cfg_we_i = 0;
  t.en_i = 1;
  uint64_t n = 0;
  int quiet = 0;
  while (n < cycles) {
    t.eval();
    if (t.dbg_valid_o)
      debug_.push_back({cycle_, x_, y_, t.dbg_value_o, static_cast<int>(t.dbg_fmt_o)});
    Edge();
    ++n;
    ++cycle_;
    if (t.fault_o) break;
    quiet = t.quiet_o ? quiet + 1 : 0;
    if (quiet_cycles > 0 && quiet >= quiet_cycles) break;
  }
  t.en_i = 0;
  t.eval();
  return n;
}

}  // namespace tessera::tb
