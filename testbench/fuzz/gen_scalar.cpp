// Scalar units of the program generator: ALU, loads and stores, branches, loops, calls, scalar
// floating point, descriptor-register moves, task operations, sends, the debug port, the
// memory-mapped registers and utwait. ALU, FP and branch instructions are drawn from the
// instruction table, so every line of those classes is covered.
#include <fmt/format.h>

#include "fuzz/gen_context.h"

namespace tessera::fuzz::detail {
namespace {

using arch::InsnClass;
using arch::OperandKind;
using arch::TaskKind;

std::vector<const arch::InsnInfo*> LinesOf(InsnClass cls) {
  std::vector<const arch::InsnInfo*> out;
  for (const arch::InsnInfo& n : arch::kInsns)
    if (n.cls == cls) out.push_back(&n);
  return out;
}

const std::vector<const arch::InsnInfo*>& AluLines() {
  static const auto v = LinesOf(InsnClass::kAlu);
  return v;
}
const std::vector<const arch::InsnInfo*>& FpLines() {
  static const auto v = LinesOf(InsnClass::kFp);
  return v;
}
const std::vector<const arch::InsnInfo*>& BranchLines() {
  static const auto v = LinesOf(InsnClass::kBr);
  return v;
}

}  // namespace

// A register-only instruction of the table with random operands (ALU and FP lines).
static std::string RandomOperands(Gen& g, const arch::InsnInfo& n) {
  std::string s = fmt::format("{:<7} ", n.mnemonic);
  for (int k = 0; k < n.num_operands; ++k) {
    std::string o;
    switch (n.operands[k]) {
      case OperandKind::kRd:  // now and then r14, which an asynchronous fdot may write too
        o = Gen::Reg(g.Chance(0.1) ? kAsyncAcc : g.FreeReg());
        break;
      case OperandKind::kRb:
        o = g.Chance(0.1) ? "0" : Gen::Reg(g.AnyReg());
        break;
      case OperandKind::kSimm:
        o = g.Simm();
        break;
      case OperandKind::kUimm:
        o = g.Uimm();
        break;
      case OperandKind::kSh:
        o = std::to_string(g.Int(0, 31));
        break;
      default:  // rc, re
        o = Gen::Reg(g.AnyReg());
        break;
    }
    s += (k ? ", " : "") + o;
  }
  return s;
}

void Gen::Alu() { Line(RandomOperands(*this, *Pick(AluLines()))); }

void Gen::Fp() {
  const arch::InsnInfo& n = *Pick(FpLines());
  if (Chance(0.3)) LoadFpConst(FreeReg(), n.fmt == 1);
  Line(RandomOperands(*this, n));
}

void Gen::Mem() {
  static const char* kLoads[] = {"lb", "lbu", "lh", "lhu", "lw"};
  static const char* kStores[] = {"sb", "sh", "sw"};
  static const int kLoadBytes[] = {1, 1, 2, 2, 4};
  static const int kStoreBytes[] = {1, 2, 4};
  const bool load = Chance(0.6);
  const int which = load ? Int(0, 4) : Int(0, 2);
  const char* mn = load ? kLoads[which] : kStores[which];
  const int size = load ? kLoadBytes[which] : kStoreBytes[which];
  const int reg = load ? FreeReg() : AnyReg();
  // Anywhere in buf and vbuf (stores into vbuf meet the DSD operations there).
  const int span = kBufBytes + kVbufBytes;
  const int off = Int(0, span / size - 1) * size;
  switch (Int(0, 3)) {
    case 0:
      Line(fmt::format("{:<7} {}, {}({})", mn, Reg(reg), off, Reg(kBaseReg)));
      break;
    case 1:
      Line(fmt::format("{:<7} {}, buf+{}", mn, Reg(reg), off));
      break;
    case 2: {  // an address computed from a random register
      int t = FreeReg();
      while (t == reg && !load) t = FreeReg();
      Line(fmt::format("andi    {}, {}, {}", Reg(t), Reg(AnyReg()), Hex(0x7FF & ~(size - 1))));
      Line(fmt::format("add     {}, {}, {}", Reg(t), Reg(t), Reg(kBaseReg)));
      Line(fmt::format("{:<7} {}, {}({})", mn, Reg(reg), size * Int(0, 64 / size), Reg(t)));
      break;
    }
    default: {  // a negative offset
      int t = FreeReg();
      while (t == reg && !load) t = FreeReg();
      Line(fmt::format("addi    {}, {}, {}", Reg(t), Reg(kBaseReg), span));
      Line(fmt::format("{:<7} {}, -{}({})", mn, Reg(reg), span - off, Reg(t)));
      break;
    }
  }
}

void Gen::Branch(const Ctx& c, int& budget) {
  const int inner = std::min(budget, Int(1, 4));
  budget -= inner;
  const std::string skip = NewLabel("L");
  switch (Int(0, 4)) {
    case 0:
      Line(fmt::format("j       {}", skip));
      break;
    case 1:
      Line(fmt::format("{:<7} {}, {}", Chance(0.5) ? "beqz" : "bnez", Reg(AnyReg()), skip));
      break;
    default:
      Line(fmt::format("{:<7} {}, {}, {}", Pick(BranchLines())->mnemonic, Reg(AnyReg()),
                       Chance(0.2) ? "0" : Reg(AnyReg()), skip));
      break;
  }
  EmitSeq(c, inner);
  Label(skip);
}

void Gen::Loop(const Ctx& c, int& budget) {
  const int inner = std::min(budget, Int(1, 6));
  budget -= inner;
  const int count = c.depth == 0 ? Int(1, 5) : Int(1, 3);
  const int reg = kLoopReg[c.depth];
  const bool up = Chance(0.3);
  LoadConst(reg, up ? 0 : count);
  const std::string top = NewLabel("L");
  Label(top);
  Ctx in = c;
  in.depth = c.depth + 1;
  in.mult = c.mult * count;
  EmitSeq(in, inner);
  if (up) {
    const int t = FreeReg();
    Line(fmt::format("addi    {0}, {0}, 1", Reg(reg)));
    Line(fmt::format("slti    {}, {}, {}", Reg(t), Reg(reg), count));
    Line(fmt::format("bnez    {}, {}", Reg(t), top));
  } else {
    Line(fmt::format("addi    {0}, {0}, -1", Reg(reg)));
    Line(fmt::format("bnez    {}, {}", Reg(reg), top));
  }
}

void Gen::Call() {
  const std::string sub = fmt::format("sub{}", Int(0, num_subs_ - 1));
  switch (Int(0, 2)) {
    case 0:
      Line("call    " + sub);
      break;
    case 1: {
      const int t = FreeReg();
      Line(fmt::format("la      {}, {}", Reg(t), sub));
      Line(fmt::format("jalr    lr, ({})", Reg(t)));
      break;
    }
    default:
      Line("jalr    lr, " + sub);
      break;
  }
}

void Gen::DsrMove() {
  const int da = Int(kScratchDsr, arch::kNumDsrs - 1), db = Int(0, arch::kNumDsrs - 1);
  switch (Int(0, 7)) {
    case 0:
      if (Chance(0.5)) {
        Line(fmt::format("ldd     d{}, {}({})", da, 8 * Int(0, (kBufBytes + kVbufBytes) / 8 - 1),
                         Reg(kBaseReg)));
      } else {
        Line(fmt::format("ldd     d{}, buf+{}", da, 8 * Int(0, kBufBytes / 8 - 1)));
      }
      break;
    case 1:
      Line(fmt::format("std     d{}, dsave+{}", db, 8 * Int(0, kSaveBytes / 8 - 1)));
      break;
    case 2:
      Line(fmt::format("dmov    d{}, d{}", da, db));
      break;
    case 3:
      Line(fmt::format("drd     {}, d{}, {}", Reg(FreeReg()), db, Int(0, 1)));
      break;
    case 4:
      Line(fmt::format("dwr     d{}, {}, {}", da, Chance(0.1) ? "0" : Reg(AnyReg()), Int(0, 1)));
      break;
    case 5:
      if (Chance(0.5)) {
        Line(fmt::format("dsetb   d{}, {}({})", da, Int(0, kBufBytes + kVbufBytes - 1),
                         Reg(kBaseReg)));
      } else {
        Line(fmt::format("dsetb   d{}, {}", da, Hex(Int(0, 0xFFFF))));
      }
      break;
    case 6:
      switch (Int(0, 2)) {
        case 0:
          Line(fmt::format("dincb   d{}, {}", da, Simm()));
          break;
        case 1:
          Line(fmt::format("dincb   d{}, {}", da, Reg(AnyReg())));
          break;
        default:
          Line(fmt::format("dincb   d{}, {}, {}", da, Reg(AnyReg()), Simm()));
          break;
      }
      break;
    default:
      if (Chance(0.5)) {
        Line(fmt::format("dsetl   d{}, {}", da, Int(0, arch::kUnboundedLength)));
      } else {  // a register operand kept in range
        const int t = FreeReg();
        Line(fmt::format("andi    {}, {}, 0x3fff", Reg(t), Reg(AnyReg())));
        Line(fmt::format("dsetl   d{}, {}, {}", da, Reg(t), Int(0, 0x3FFF)));
      }
      break;
  }
}

void Gen::TaskOp(const Ctx& c) {
  const std::vector<TaskPlan*> targets = ActivationTargets(c);
  const std::vector<TaskPlan*> locals = LocalTasks();
  const int choice = Int(0, 7);
  if (choice <= 2 && !targets.empty()) {  // activate a later task
    TaskPlan& t = *Pick(targets);
    CountActivation(c, t);
    switch (choice) {
      case 0:
        Line("activate " + t.name);
        break;
      case 1:
        Line(fmt::format("activate {}, {}", t.name, Reg(AnyReg())));
        break;
      default: {
        const int r = FreeReg();
        LoadConst(r, static_cast<uint32_t>(t.id));
        Line("activate " + Reg(r));
        break;
      }
    }
    return;
  }
  if (choice == 3 && !targets.empty()) {  // several at once through TaskActiveSet
    uint32_t mask = 0;
    for (TaskPlan* t : targets) {
      if (Chance(0.5)) {
        mask |= 1u << t->id;
        CountActivation(c, *t);
      }
    }
    const int r = FreeReg();
    LoadConst(r, mask);
    Line(fmt::format("sw      {}, TaskActiveSet", Reg(r)));
    return;
  }
  if (choice == 4 && !targets.empty()) {  // an argument for a later run
    Line(fmt::format("sw      {}, TaskArg+4*{}", Reg(AnyReg()), Pick(targets)->id));
    return;
  }
  if (locals.empty() || choice == 7) {  // task 31 names no task: nothing happens
    Line(fmt::format("{} 31", Pick(std::vector<std::string>{"activate", "block   ", "unblock "})));
    return;
  }
  // Block and unblock any local task, directly or through the mask registers. A local task left
  // blocked simply does not run again; the program still ends quiet.
  const TaskPlan& t = *Pick(locals);
  switch (Int(0, 3)) {
    case 0:
      Line("block   " + t.name);
      break;
    case 1:
      Line("unblock " + t.name);
      break;
    default: {
      uint32_t mask = 0;
      for (TaskPlan* l : locals)
        if (Chance(0.5)) mask |= 1u << l->id;
      const int r = FreeReg();
      LoadConst(r, mask);
      Line(fmt::format("sw      {}, {}", Reg(r),
                       Pick(std::vector<std::string>{"TaskBlockSet", "TaskBlockClr",
                                                     "TaskActiveClr", "TaskBlockClr"})));
      break;
    }
  }
}

void Gen::BlockPair(const Ctx& c, int& budget) {
  // Blocks a data or local task around some code; the unblock is never skipped, so a data task
  // never keeps its wavelets.
  std::vector<TaskPlan*> cands = LocalTasks();
  for (TaskPlan* t : TasksOfKind(TaskKind::kData)) cands.push_back(t);
  const TaskPlan& t = *Pick(cands);
  const int inner = std::min(budget, Int(1, 3));
  budget -= inner;
  Line("block   " + t.name);
  EmitSeq(c, inner);
  Line("unblock " + t.name);
}

void Gen::Send(const Ctx& c) {
  const auto ctrl = TasksOfKind(TaskKind::kControl);
  std::vector<int> colors;
  for (int col : TaskColors())
    if (SendRoom(c, col) >= 1) colors.push_back(col);
  const bool can_ctrl = SendRoom(c, ctrl_color_) >= 1;
  if (colors.empty() && !can_ctrl) {
    Line("nop");
    return;
  }
  const int r = AnyReg();
  if (!colors.empty() && (!can_ctrl || Chance(0.6))) {
    const int col = Pick(colors);
    Spend(c, col, 1);
    if (Chance(0.15)) {  // a control wavelet naming no task: popped by the dispatcher
      int t = FreeReg();
      LoadConst(t, (arch::kNoTask << arch::kCtrlTaskLsb) | (U32() & 0xFFFF));
      Line(fmt::format("sendc   {}, {}", Reg(t), col));
    } else if (Chance(0.3)) {
      int t = FreeReg();
      while (t == r) t = FreeReg();
      LoadConst(t, static_cast<uint32_t>(col));
      Line(fmt::format("send    {}, {}", Reg(r), Reg(t)));
    } else {
      Line(fmt::format("send    {}, {}", Reg(r), col));
    }
    return;
  }
  Spend(c, ctrl_color_, 1);
  const uint32_t task = !ctrl.empty() && Chance(0.7) ? Pick(ctrl)->id : arch::kNoTask;
  const int t = FreeReg();
  LoadConst(t, task << arch::kCtrlTaskLsb | (U32() & 0xFFFF));
  Line(fmt::format("sendc   {}, {}", Reg(t), ctrl_color_));
}

void Gen::Debug() {
  static const char* kPseudo[] = {"dbg", "dbg.u32", "dbg.i32", "dbg.f32", "dbg.f16", "dbg.char"};
  const int fmt_index = Int(0, 5);
  int r = AnyReg();
  if (fmt_index == 5 && Chance(0.6)) {  // characters, and the newline that emits the line
    r = FreeReg();
    LoadConst(r, Chance(0.3) ? '\n' : static_cast<uint32_t>('a' + Int(0, 25)));
  }
  if (Chance(0.8)) {
    Line(fmt::format("{:<7} {}", kPseudo[fmt_index], Reg(r)));
  } else {
    Line(fmt::format("sw      {}, DebugPort+4*{}", Reg(r), fmt_index));
  }
}

void Gen::Mmio() {
  const int r = FreeReg();
  if (Chance(0.75)) {
    // Any register a compute engine may load (docs/isa.md 3.2: all but the host's), any element
    // of an array; CeStatus, UtStatus and UtInfo only with --status-regs.
    std::vector<std::string> regs;
    for (const arch::RegInfo& g : arch::kRegisters) {
      if (g.access == arch::RegAccess::kHost) continue;
      const bool status = g.id == arch::RegId::kCeStatus || g.id == arch::RegId::kUtStatus ||
                          g.id == arch::RegId::kUtInfo;
      if (status && !opt_.status_regs) continue;
      regs.push_back(g.count == 1 ? std::string(g.name)
                                  : fmt::format("{}+4*{}", g.name, Int(0, int(g.count) - 1)));
    }
    Line(fmt::format("lw      {}, {}", Reg(r), Pick(regs)));
    return;
  }
  switch (Int(0, 2)) {
    case 0:
      Line(fmt::format("sw      {}, FpFlags", Reg(AnyReg())));
      break;
    case 1:
      Line(fmt::format("sw      {}, RouterFault", Reg(AnyReg())));  // any write clears it
      break;
    default: {  // the argument of a local or control task (not its activation)
      std::vector<int> ids;
      for (const TaskPlan& t : tasks_)
        if (t.kind == TaskKind::kLocal || t.kind == TaskKind::kControl) ids.push_back(t.id);
      Line(fmt::format("sw      {}, TaskArg+4*{}", Reg(AnyReg()), Pick(ids)));
      break;
    }
  }
}

void Gen::UtWait() {
  // Never for the settling waiter's microthread, which waits for ever.
  const uint32_t keep = wait_ut_ >= 0 ? ~(1u << wait_ut_) & 0xFF : 0xFF;
  if (Chance(0.5)) {
    Line(keep == 0xFF ? "utwait" : fmt::format("utwait  {}", Hex(keep)));
  } else {
    Line(fmt::format("utwait  {}", Hex(Int(0, 255) & keep)));
  }
}

}  // namespace tessera::fuzz::detail
