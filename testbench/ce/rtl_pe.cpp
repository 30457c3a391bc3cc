#include "ce/rtl_pe.h"

#include <Vpe_ce.h>
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

RtlPe::~RtlPe() { impl_->top.final(); }

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
  for (size_t a = 0; a + 3 < sram.size(); a += 4) {
    uint32_t w = sram[a] | sram[a + 1] << 8 | sram[a + 2] << 16 | uint32_t(sram[a + 3]) << 24;
    if (w) Write(static_cast<uint16_t>(a), w);
  }
  for (const auto& b : tasks) {
    uint32_t v = arch::TaskCfg::WithEntry(0, b.entry);
    v = arch::TaskCfg::WithKind(v, static_cast<uint32_t>(b.kind));
    Write(arch::TaskCfg::Addr(b.id), v);
  }
}

void RtlPe::Activate(int task) { Write(arch::TaskActiveSet::kAddr, 1u << task); }

bool RtlPe::Faulted() {
  auto& t = impl_->top;
  t.eval();
  return t.fault_o;
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
