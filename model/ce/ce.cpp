// The compute engine apart from its cycle: loading, diagnosis, the CE queues (what arrives from
// the router, what a pop owes it). The cycle is path_cycle.cpp's.
#include "ce/ce.h"

#include <cstring>
#include <stdexcept>

#include "ce/dsd.h"
#include "ce/fault_text.h"

namespace tessera::ce {
namespace {

using L = arch::Link;
using Cr = arch::Credit;

inline int Ctz(uint32_t m) { return __builtin_ctz(m); }

}  // namespace

uint32_t MakeFaultInfo(arch::DsdRole role, arch::AccSize size, bool write, unsigned ut,
                       unsigned dsr, unsigned index) {
  using F = arch::FaultInfo;
  uint32_t v = 0;
  v = F::WithRole(v, static_cast<uint32_t>(role));
  v = F::WithSize(v, static_cast<uint32_t>(size));
  v = F::WithWrite(v, write);
  v = F::WithUt(v, ut);
  v = F::WithDsr(v, dsr);
  return F::WithIndex(v, index);
}

Ce::Ce(uint16_t x, uint16_t y, fabric::RouterRegs* router, uint8_t* sram) : router_(router) {
  if (!sram) {
    own_sram_ = std::make_unique<uint8_t[]>(kSram);  // value-initialized: zero
    sram = own_sram_.get();
  }
  st_.sram = sram;
  st_.x = x;
  st_.y = y;
  st_.out_credits.fill(static_cast<uint8_t>(arch::kRampInDepth));
}

// ---------------------------------------------------------------------------------------------
// Loading and diagnosis

void Ce::Load(const std::vector<uint8_t>& image, const std::vector<TaskBinding>& tasks,
              uint16_t base) {
  if (base + image.size() > kSram)
    throw std::out_of_range("Ce::Load: the image does not fit in SRAM");
  HostWriteSram(base, image.data(), image.size());
  for (const TaskBinding& b : tasks) {
    if (b.id >= kNoTask) throw std::out_of_range("Ce::Load: task IDs are 0-30");
    SetTaskCfg(b.id, b.entry | static_cast<uint32_t>(b.kind) << arch::TaskCfg::kKindLsb);
  }
}

void Ce::Activate(int task) { HostWrite(arch::TaskActiveSet::kAddr, 1u << task); }

std::vector<DebugRecord> Ce::TakeDebugRecords() {
  std::vector<DebugRecord> out;
  out.swap(debug_);
  return out;
}

std::string Ce::FaultMessage() const {
  FaultContext f;
  f.x = st_.x;
  f.y = st_.y;
  f.status = st_.fault_status;
  f.pc = st_.fault_pc;
  f.addr = st_.fault_addr;
  f.info = st_.fault_info;
  if (f.pc + 4 <= kSram && f.pc % 4 == 0) {
    f.word = st_.sram[f.pc] | st_.sram[f.pc + 1] << 8 | st_.sram[f.pc + 2] << 16 |
             static_cast<uint32_t>(st_.sram[f.pc + 3]) << 24;
  }
  for (int t = 0; t < kTasks; ++t) f.task_kind[t] = st_.task_kind[t];
  return DescribeCeFault(f);
}

uint32_t Ce::RunnableTasks() const {
  const uint32_t data = data_tasks_ & st_.head_data & ~Readers();
  return (data | (lc_tasks_ & st_.active)) & ~st_.blocked & kTaskMask;
}

int Ce::OwedCredits() const {
  int n = 0;
  for (uint8_t o : st_.owed) n += o;
  return n;
}

bool Ce::Quiet() const {
  if (st_.running || st_.busy || st_.owed_mask || RunnableTasks()) return false;
  for (const InQueue& q : st_.inq)
    if (q.count) return false;
  return true;
}

bool Ce::DispatcherCanTake() const {
  for (uint32_t m = st_.head_ctrl & ~Readers(); m; m &= m - 1) {
    const InQueue& q = st_.inq[Ctz(m)];
    const uint32_t t = (q.data[q.head] >> arch::kCtrlTaskLsb) & 31;
    if (t == kNoTask || !(st_.active >> t & 1)) return true;
  }
  return false;
}

bool Ce::Starved(int u) const {
  const Microthread& m = st_.ut[u];
  if (m.ended || m.in_flight || (st_.split.active && st_.split.ut == u)) return false;
  if (m.fabin & st_.head_ctrl) return false;  // the operation ends at the control wavelet
  return (m.fabin & ~st_.head_data) != 0 || (m.fifos && FifoBlocked(m));
}

bool Ce::Settled() const {
  if (Quiet()) return true;
  if (st_.running || st_.owed_mask || RunnableTasks() || DispatcherCanTake()) return false;
  for (uint8_t b = st_.busy; b; b &= b - 1)
    if (!Starved(Ctz(b))) return false;
  return true;
}

uint32_t Ce::StatusWord() const {
  using S = arch::CeStatus;
  uint32_t v = 0;
  v = S::WithTask(v, st_.running ? st_.task : kNoTask);
  v = S::WithRunning(v, st_.running);
  v = S::WithFaulted(v, Faulted());
  v = S::WithQuiet(v, Quiet());
  v = S::WithSettled(v, Settled());
  v = S::WithStall(v, st_.pipe.stall);
  v = S::WithStallColor(v, st_.pipe.stall_color);
  return S::WithUtBusy(v, st_.busy);
}

uint64_t Ce::NextWake() const {
  if (Faulted()) return fabric::kNever;
  const uint64_t next = ticked_ ? last_cycle_ + 1 : 0;
  if (st_.running || st_.busy || st_.owed_mask || st_.pipe.fp_pending || RunnableTasks())
    return next;
  // A control wavelet the dispatcher could take.
  for (uint32_t m = st_.head_ctrl; m; m &= m - 1) {
    const InQueue& q = st_.inq[Ctz(m)];
    const uint32_t t = (q.data[q.head] >> arch::kCtrlTaskLsb) & 31;
    if (t == kNoTask || !(st_.active >> t & 1)) return next;
  }
  return fabric::kNever;
}

// ---------------------------------------------------------------------------------------------
// CE queues

uint32_t Ce::Pop(int color) {
  InQueue& q = st_.inq[color];
  const uint32_t data = q.data[q.head];
  q.ctrl &= static_cast<uint16_t>(~(1u << q.head));
  q.head = static_cast<uint8_t>((q.head + 1) % arch::kCeInDepth);
  --q.count;
  const uint32_t bit = 1u << color;
  st_.head_data &= ~bit;
  st_.head_ctrl &= ~bit;
  if (q.count) {
    if (q.ctrl >> q.head & 1) {
      st_.head_ctrl |= bit;
    } else {
      st_.head_data |= bit;
    }
  }
  ++st_.owed[color];
  st_.owed_mask |= bit;
  return data;
}

void Ce::Arrivals(const fabric::RampPort& port) {
  if (L::Valid(port.from_router)) {
    const auto color = static_cast<int>(L::Color(port.from_router));
    if (color >= kColors) throw std::logic_error("CE: the router delivered a reserved color");
    InQueue& q = st_.inq[color];
    if (q.count == arch::kCeInDepth)
      throw std::logic_error("CE: a wavelet arrived at a full CE queue (credit protocol broken)");
    const int slot = (q.head + q.count) % arch::kCeInDepth;
    q.data[slot] = static_cast<uint32_t>(L::Data(port.from_router));
    const bool ctrl = L::Ctrl(port.from_router);
    if (ctrl) {
      q.ctrl |= static_cast<uint16_t>(1u << slot);
    } else {
      q.ctrl &= static_cast<uint16_t>(~(1u << slot));
    }
    if (q.count++ == 0) {
      if (ctrl) {
        st_.head_ctrl |= 1u << color;
      } else {
        st_.head_data |= 1u << color;
      }
    }
  }
  if (Cr::Valid(port.credit_from_router)) {
    const auto color = static_cast<int>(Cr::Color(port.credit_from_router));
    if (color >= kColors || st_.out_credits[color] >= arch::kRampInDepth)
      throw std::logic_error("CE: the router returned a credit it does not owe");
    ++st_.out_credits[color];
  }
}

}  // namespace tessera::ce
