// Architectural and micro-architectural state of one compute engine (docs/isa.md section 2): the
// registers, SRAM, task table, CE queues and credits, microthreads, fault and debug registers, and
// the pipeline state the cycle model of 6.8 needs (what is fetched, what is in flight). Plain data,
// as the RTL holds it; the engine that steps it is Ce (ce.h).
#pragma once

#include <array>
#include <cstdint>
#include <limits>

#include "arch/arch.h"
#include "arch/isa_table.h"

namespace tessera::ce {

inline constexpr int kColors = arch::kNumColors;
inline constexpr int kUts = arch::kNumMicrothreads;
inline constexpr int kTasks = arch::kNumTasks;
inline constexpr int kNoTask = arch::kNoTask;
inline constexpr uint32_t kTaskMask = (1u << kNoTask) - 1;  // every task; 31 does not exist
inline constexpr uint32_t kSram = arch::kSramBytes;
inline constexpr uint64_t kNoCycle = std::numeric_limits<uint64_t>::max();
// The resolved length of an unbounded operation (Length 0x7FFF): it never ends by count.
inline constexpr uint64_t kUnbounded = std::numeric_limits<uint64_t>::max();

// One color's CE input queue: a ring of CeInDepth wavelets (data, and a control bit per slot).
struct InQueue {
  std::array<uint32_t, arch::kCeInDepth> data{};
  uint16_t ctrl = 0;  // bit k: slot k holds a control wavelet
  uint8_t head = 0, count = 0;
};

// A descriptor copied at issue (docs/isa.md 2.3), with its fields decoded once.
struct DsdOperand {
  uint64_t raw = 0;
  uint8_t dsr = 0;   // the descriptor register the instruction named (fault reports)
  uint8_t kind = 0;  // arch::DsdKind
  uint8_t elem = 0;  // arch::ElemType
  uint8_t size = 4;  // element bytes
  uint8_t color = 0;
  bool ctrl = false, idx = false;
  uint16_t base = 0;
  int32_t stride = 0;  // in elements (mem4d: of dimension 0)
  uint16_t cap = 0;    // fifo: the capacity (Length); color is the FIFO's number
  // mem4d (docs/isa.md 2.3): the lengths of dimensions 0..2 and the strides of dimensions 1..3,
  // in elements, from the descriptor and its extension. Dimension 3 runs on.
  std::array<uint16_t, 3> dim_len{};
  std::array<int32_t, 3> dim_stride{};
};

// Operand roles inside a microthread: the index into Microthread::opnd.
enum Role : uint8_t { kDst = 0, kSrc0 = 1, kSrc1 = 2 };

// fdot partial sums and combine steps (docs/isa.md 6.5). f32 uses part[0..3] as p0..p3; f16 uses
// part[k] as the word P_k (lanes p_2k, p_2k+1). ready[j] is the first cycle at which partial j
// (f32: j = 0..3; f16: j = lane index 0..7) may be used by a step.
struct DotState {
  std::array<uint32_t, 4> part{};
  std::array<uint64_t, 8> ready{};
  std::array<uint32_t, 3> comb{};  // results of the combine steps before the last
  std::array<uint64_t, 3> comb_ready{};
  uint8_t stage = 0;  // next combine step; stages() when all are taken
};

struct Microthread {
  bool busy = false;
  bool sync = false;  // the CE waits for it
  // The operation, as issued.
  const arch::InsnInfo* info = nullptr;
  uint32_t word = 0;
  uint16_t pc = 0;
  arch::DsdOp op = arch::DsdOp::kAdd;
  arch::DsdFmt fmt = arch::DsdFmt::kF32;
  arch::DsdForm form = arch::DsdForm::kV3;
  std::array<bool, 3> has{};  // a descriptor in that role
  std::array<DsdOperand, 3> opnd{};
  uint32_t scalar = 0;  // R[S] at issue (the accumulator for fdot)
  uint8_t s_reg = 0;
  uint64_t n = 0;  // resolved length
  uint64_t i = 0;  // next element
  uint8_t tid = kNoTask;
  bool unblock = false;
  // Derived at issue.
  bool fmac = false;   // every step uses the FMAC
  bool dot = false;    // fdot: combine steps, result in R[S]
  bool pairs = false;  // 16-bit pair steps possible (all operands mem1d, stride 1)
  uint32_t fabin = 0;  // colors of its fabin operands
  bool fifos = false;  // a FIFO operand
  // Every operand mem1d with every element in SRAM (running ahead, DSD steps in bulk).
  bool mem1d = false;
  // Progress.
  bool ended = false;     // takes no more element steps (count reached, or a control wavelet)
  uint8_t in_flight = 0;  // steps whose result is not yet due
  DotState dotst;
  // Diagnosis (UtStatus.Wait, UtInfo.Color), as found in the last cycle.
  uint8_t wait = 0;
  uint8_t wait_color = arch::kNoColor;
};

// A step's result, due DsdLatency cycles after the step (docs/isa.md 6.8 item 1).
struct PendingResult {
  enum Kind : uint8_t { kNone, kSram, kWavelet, kGpr };
  uint64_t due = kNoCycle;
  uint8_t ut = 0;
  Kind kind = kNone;
  uint8_t size = 0;  // kSram: bytes
  uint16_t addr = 0;
  uint32_t value = 0;
  uint64_t link = 0;  // kWavelet: arch::Link
  uint8_t reg = 0;    // kGpr
  uint8_t flags = 0;
  int8_t fifo = -1;  // kSram: a push into FIFO k, counted when it is written
};
inline constexpr int kPerfEvents = arch::PerfCount::kCount;  // one per arch::PerfEvent
inline constexpr int kResultRing = 8;  // > DsdLatency: one result per cycle at most
static_assert(arch::kDsdLatency < kResultRing, "the result ring must cover DsdLatency");

// The scalar pipeline between issues: fetch, latencies, waits.
struct ScalarPipe {
  uint64_t issue_at = 0;         // earliest cycle the next instruction may issue
  uint64_t fetch_at = kNoCycle;  // a fetch due in that cycle (after a taken jump)
  uint32_t ir = 0;               // the fetched word of the instruction at pc
  bool ir_valid = false;
  int8_t sync_ut = -1;       // waiting for this synchronous operation
  bool std_pending = false;  // the second word of an std
  uint16_t std_addr = 0;
  uint32_t std_value = 0;
  bool fp_pending = false;  // a scalar FP result in flight
  uint64_t fp_due = 0;
  uint8_t fp_reg = 0;
  uint32_t fp_value = 0;
  uint8_t fp_flags = 0;
  uint8_t stall = 0;  // arch::CeStall found in the last cycle
  uint8_t stall_color = 0;
};

// A FIFO's state (docs/isa.md 2.3, FifoState[2k] and [2k+1]), in elements. Its buffer and capacity
// are the descriptor's: every operation on FIFO k names the same ones.
struct FifoState {
  uint16_t head = 0;   // the next element a pop reads
  uint16_t tail = 0;   // the slot the next push writes
  uint16_t count = 0;  // written and not popped
  uint16_t used = 0;   // count plus pushes in flight
};

// A split step (docs/isa.md 6.8, refined): src0 was read in the previous cycle; src1 is read in
// the cycle split.cycle, where the step counts as taken.
struct SplitStep {
  bool active = false;
  uint64_t cycle = 0;
  uint8_t ut = 0;
  bool pair = false;
  uint32_t x0 = 0;
};

struct CeState {
  // Identity.
  uint16_t x = 0, y = 0;
  uint32_t fabric_dim = 0;

  // Scalar architectural state (2.1, 2.2, 2.3).
  std::array<uint32_t, arch::kNumGprs> gpr{};
  uint16_t pc = 0;
  std::array<uint64_t, arch::kNumDsrs> dsr{};

  // Task table (2.5) and the running task (2.6).
  std::array<uint8_t, kTasks> task_kind{};
  std::array<uint16_t, kTasks> task_entry{};
  std::array<uint16_t, kTasks> task_arg{};
  uint32_t active = 0, blocked = 0;
  bool running = false;
  uint8_t task = kNoTask;

  // Other state (2.6).
  uint8_t fp_flags = 0;
  uint16_t cycle_hi = 0;  // latched by a CE read of CycleLo
  uint32_t fault_status = 0, fault_pc = 0, fault_addr = 0, fault_info = 0;
  std::array<uint32_t, arch::kNumDebugFmts> debug{};

  // CE queues and credits (2.6).
  std::array<InQueue, kColors> inq{};
  uint32_t head_data = 0, head_ctrl = 0;  // colors whose head is a data / control wavelet
  std::array<uint8_t, kColors> out_credits{};
  std::array<uint8_t, kColors> owed{};
  uint32_t owed_mask = 0;
  uint8_t owed_ptr = 0;

  // Microthreads (2.4) and the DSD engine.
  std::array<Microthread, kUts> ut{};
  uint8_t busy = 0;  // bit u: ut[u].busy
  // Bit u: ut[u]'s operation, when it issued, was not on memory only (!ut[u].mem1d): while it is
  // busy, the engine takes its whole cycle model (no bulk steps, no running ahead). Read only
  // with `busy`.
  uint8_t not_mem1d = 0;
  uint8_t rr_ptr = 0;
  std::array<PendingResult, kResultRing> results{};
  SplitStep split;
  std::array<FifoState, arch::kNumFifos> fifo{};

  ScalarPipe pipe;

  // Performance counters (PerfCount, arch::PerfEvent order).
  std::array<uint32_t, kPerfEvents> perf{};

  // SRAM, 0x0000..0xBFFF: kSram bytes the engine does not own (Ce's own, or a machine's
  // util::LazyArena, where untouched pages cost no host memory).
  uint8_t* sram = nullptr;
};

// Element size in bytes of an ElemType (reserved types: 0).
inline uint8_t ElemBytes(uint32_t elem) {
  static constexpr uint8_t kBytes[8] = {4, 2, 4, 2, 4, 2, 0, 0};
  return kBytes[elem & 7];
}

}  // namespace tessera::ce
