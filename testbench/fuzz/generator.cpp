// The generator's plan (tasks, colors, the deliberate fault), the structure of tasks and
// subroutines, the choice of each unit of code, the data region and the deliberate faults.
#include "fuzz/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <sstream>

#include "asm/object.h"
#include "fuzz/gen_context.h"
#include "isa/decode.h"

namespace tessera::fuzz {
namespace detail {
namespace {

using arch::CeFault;
using arch::TaskKind;

// Interesting values: signed zeros, ones, halves, denormals, infinities, NaNs (quiet and
// signaling), extremes, and plain numbers.
constexpr uint32_t kF32Values[] = {0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F000000,
                                   0x40490FDB, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF,
                                   0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
                                   0xFFC00001, 0x4B000000, 0x3EAAAAAB, 0xC2C80000, 0x33800000};
constexpr uint16_t kF16Values[] = {0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0x4248, 0x0001,
                                   0x83FF, 0x0400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00,
                                   0x7C01, 0xFE01, 0x6400, 0x3555, 0xD640, 0x1400};

constexpr int kUnitKinds = 19;
enum Unit {
  kUAlu,
  kUMem,
  kUBranch,
  kULoop,
  kUCall,
  kUFp,
  kUDsr,
  kUTask,
  kUBlockPair,
  kUSend,
  kUDebug,
  kUMmio,
  kUUtWait,
  kUNop,
  kUDsdMem,
  kUFabric,
  kUFabricToTask,
  kUCtrlStream,
  kUFifo,
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Randomness and text

int Rng::Int(int lo, int hi) {
  if (hi <= lo) return lo;
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int>(rng_() % span);
}

bool Rng::Chance(double p) {
  return static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0) < p;
}

uint32_t Rng::U32() { return static_cast<uint32_t>(rng_()); }

FilterSpec RandomFilter(Rng& r) {
  using S = arch::SwitchCfg;
  using FC = arch::FilterCount;
  FilterSpec f;
  f.switch_bits = S::WithFilter(0, 1);
  if (r.Chance(0.5)) {
    f.range = RandomFilterRange(r);
    return f;
  }
  const auto limit = static_cast<uint32_t>(r.Chance(0.8) ? r.Int(0, 20) : r.Int(0, 0xFFFF));
  const auto count = static_cast<uint32_t>(r.Int(0, static_cast<int>(limit)));
  f.count = FC::WithLimit(FC::WithCount(0, count), limit);
  const auto lo = static_cast<uint32_t>(r.Int(0, static_cast<int>(limit)));
  const auto hi = static_cast<uint32_t>(r.Int(static_cast<int>(lo), static_cast<int>(limit)));
  f.range = arch::FilterRange::WithMax(arch::FilterRange::WithMin(0, lo), hi);
  f.switch_bits = S::WithCounter(f.switch_bits, 1);
  f.switch_bits = S::WithCountData(f.switch_bits, r.Chance(0.8) ? 1 : 0);
  f.switch_bits = S::WithCountCtrl(f.switch_bits, r.Chance(0.3) ? 1 : 0);
  return f;
}

uint32_t RandomFilterRange(Rng& r) {
  using F = arch::FilterRange;
  uint32_t lo = 0, hi = 0xFFFF;
  switch (r.Int(0, 3)) {
    case 0:
      hi = static_cast<uint32_t>(r.Int(0, 0xFFFF));
      break;
    case 1:
      lo = static_cast<uint32_t>(r.Int(0, 0xFFFF));
      break;
    case 2:
      lo = static_cast<uint32_t>(r.Int(0, 0xFFFF));
      hi = std::min<uint32_t>(0xFFFF, lo + static_cast<uint32_t>(r.Int(0, 0x3FFF)));
      break;
    default:
      lo = static_cast<uint32_t>(r.Int(1, 0xFFFF));
      hi = lo - 1;
      break;
  }
  return F::WithMax(F::WithMin(0, lo), hi);
}

void Rng::Shuffle(std::vector<int>& v) {
  for (int i = static_cast<int>(v.size()) - 1; i > 0; --i) std::swap(v[i], v[Int(0, i)]);
}

int Rng::PickWeighted(const std::vector<int>& weights) {
  const int total = std::accumulate(weights.begin(), weights.end(), 0);
  int r = Int(0, total - 1);
  for (size_t i = 0; i < weights.size(); ++i) {
    if (r < weights[i]) return static_cast<int>(i);
    r -= weights[i];
  }
  return static_cast<int>(weights.size()) - 1;
}

Gen::Gen(uint64_t seed, const GenOptions& options) : Rng(seed), opt_(options), seed_(seed) {}

void Gen::Line(const std::string& s) { *out_ += "        " + s + "\n"; }
void Gen::Label(const std::string& name) { *out_ += name + ":\n"; }
std::string Gen::NewLabel(const char* prefix) { return fmt::format("{}{}", prefix, next_label_++); }
std::string Gen::Reg(int r) { return fmt::format("r{}", r); }
std::string Gen::Hex(uint32_t v) { return fmt::format("0x{:x}", v); }

int Gen::FreeReg() { return Int(0, 10); }

std::string Gen::UtsOfColorsMark(int c1, int c2) { return fmt::format("@uts({},{})", c1, c2); }

void Gen::FillUtsOfColors(std::string& text) const {
  for (size_t at = text.find("@uts("); at != std::string::npos; at = text.find("@uts(", at)) {
    const size_t end = text.find(')', at);
    int c1 = 0, c2 = 0;
    std::sscanf(text.c_str() + at, "@uts(%d,%d)", &c1, &c2);
    text.replace(at, end + 1 - at, Hex(color_uts_[c1] | color_uts_[c2]));
  }
}

int Gen::AnyReg() { return Int(0, 15); }

void Gen::LoadConst(int reg, uint32_t value) {
  Line(fmt::format("li      {}, {}", Reg(reg), Hex(value)));
}

void Gen::LoadFpConst(int reg, bool f16) {
  if (f16) {
    LoadConst(reg, Chance(0.8) ? kF16Values[Int(0, 19)] : U32() & 0xFFFF);
  } else {
    LoadConst(reg, Chance(0.8) ? kF32Values[Int(0, 19)] : U32());
  }
}

uint32_t Gen::RandomDataWord() {
  switch (Int(0, 3)) {
    case 0:
      return U32();
    case 1:
      return static_cast<uint32_t>(Int(-100, 100));
    case 2:
      return kF32Values[Int(0, 19)];
    default:
      return static_cast<uint32_t>(kF16Values[Int(0, 19)]) << 16 | kF16Values[Int(0, 19)];
  }
}

std::string Gen::Simm() {
  switch (Int(0, 2)) {
    case 0:
      return std::to_string(Int(-16, 16));
    case 1:
      return std::to_string(Int(-2048, 2047));
    default:
      return std::to_string(Int(-32768, 32767));
  }
}

std::string Gen::Uimm() { return Chance(0.5) ? std::to_string(Int(0, 64)) : Hex(Int(0, 0xFFFF)); }

// ---------------------------------------------------------------------------------------------
// The plan

std::vector<TaskPlan*> Gen::TasksOfKind(TaskKind k) {
  std::vector<TaskPlan*> out;
  for (TaskPlan& t : tasks_)
    if (t.kind == k) out.push_back(&t);
  return out;
}

std::vector<TaskPlan*> Gen::LocalTasks() { return TasksOfKind(TaskKind::kLocal); }

void Gen::Plan() {
  const Mix& m = opt_.mix;
  const bool tasks = m.Has(Category::kTask);
  const bool sends = m.Has(Category::kSend);
  const bool fabric = m.Has(Category::kDsdFabric);
  num_local_ = tasks ? Int(0, 3) : 0;
  num_subs_ = m.Has(Category::kCall) ? Int(1, 2) : 0;
  const int num_data = sends || fabric ? Int(0, 3) : 0;
  const int num_ctrl = (sends || fabric) && tasks ? Int(0, 2) : 0;

  std::vector<int> colors(arch::kNumColors);
  std::iota(colors.begin(), colors.end(), 0);
  Shuffle(colors);
  // The colors the fabric's links route through this PE's router are not the program's own.
  const uint32_t routed = opt_.links.routed;
  colors.erase(std::remove_if(colors.begin(), colors.end(), [&](int c) { return routed >> c & 1; }),
               colors.end());
  size_t next = 0;
  for (int i = 0; i < num_data; ++i) data_colors_.push_back(colors[next++]);
  if (sends || fabric) ctrl_color_ = colors[next++];
  if (fabric) {
    const int n = Int(3, 5);
    for (int i = 0; i < n; ++i) dsd_colors_.push_back(colors[next++]);
  }

  // Task IDs: a data task's ID is its color; the others take free IDs 0..30 at random, so the
  // picker's priorities vary from program to program.
  const std::vector<int>& link_rx = opt_.links.rx_tasks;
  std::vector<int> ids;
  for (int id = 0; id < static_cast<int>(arch::kNoTask); ++id)
    if (std::find(data_colors_.begin(), data_colors_.end(), id) == data_colors_.end() &&
        std::find(link_rx.begin(), link_rx.end(), id) == link_rx.end())
      ids.push_back(id);
  Shuffle(ids);
  size_t next_id = 0;
  TaskPlan main;
  main.name = "main";
  main.id = ids[next_id++];
  main.runs = 1;
  tasks_.push_back(main);
  for (int i = 1; i <= num_local_; ++i) {
    TaskPlan t;
    t.name = fmt::format("t{}", i);
    t.id = ids[next_id++];
    t.order = i;
    t.self_count = Chance(0.3) ? Int(1, 2) : 0;
    tasks_.push_back(t);
  }
  std::vector<int> rx_colors = data_colors_;
  rx_colors.insert(rx_colors.end(), link_rx.begin(), link_rx.end());
  for (int c : rx_colors) {
    TaskPlan t;
    t.name = fmt::format("rx{}", c);
    t.kind = TaskKind::kData;
    t.id = c;
    tasks_.push_back(t);
  }
  for (int i = 0; i < num_ctrl; ++i) {
    TaskPlan t;
    t.kind = TaskKind::kControl;
    t.id = ids[next_id++];
    t.name = fmt::format("ctl{}", t.id);
    tasks_.push_back(t);
  }

  // Control-wavelet payloads for Ctrl fabout: no task, or a control task.
  const auto ctrl = TasksOfKind(TaskKind::kControl);
  for (uint32_t& w : ctab_) {
    const uint32_t task = !ctrl.empty() && Chance(0.5) ? Pick(ctrl)->id : arch::kNoTask;
    w = task << arch::kCtrlTaskLsb | (U32() & 0xFFFF);
  }

  if (m.Has(Category::kFault) && Chance(opt_.fault_rate)) {
    std::vector<CeFault> causes = {CeFault::kTrap,       CeFault::kIllegal,    CeFault::kMisaligned,
                                   CeFault::kOutOfRange, CeFault::kMmioAccess, CeFault::kReadOnly,
                                   CeFault::kPcRange,    CeFault::kTaskId,     CeFault::kTaskKind,
                                   CeFault::kBadColor,   CeFault::kDsdInvalid};
    if (m.Has(Category::kDsdMem)) {
      for (CeFault f :
           {CeFault::kDsdInvalid, CeFault::kDsdType, CeFault::kDsdRange, CeFault::kDsdMisaligned})
        causes.push_back(f);
    }
    fault_ = Pick(causes);
  }

  // A fifth of the programs with fabric streams end settled rather than quiet. Chosen from a
  // hash of the seed, with the lowest color the program leaves unused, so that the rest of the
  // program is what it would be otherwise.
  const uint64_t h = seed_ * 0xD1B54A32D192ED03ull;
  if (fault_ == CeFault::kNone && m.Has(Category::kDsdFabric) && (h >> 59) < 6) {
    for (int c = 0; c < static_cast<int>(arch::kNumColors) && wait_color_ < 0; ++c) {
      const bool used =
          std::find(data_colors_.begin(), data_colors_.end(), c) != data_colors_.end() ||
          c == ctrl_color_ ||
          std::find(dsd_colors_.begin(), dsd_colors_.end(), c) != dsd_colors_.end() ||
          (opt_.links.routed >> c & 1);
      if (!used) wait_color_ = c;
    }
    if (wait_color_ >= 0) wait_ut_ = static_cast<int>((h >> 40) & 7);
  }
}

bool Gen::MayActivate(const Ctx& c, const TaskPlan& t) const {
  if (c.leaf || !c.task) return false;
  if (t.kind == TaskKind::kControl) return true;
  return t.kind == TaskKind::kLocal && t.order > c.task->order;
}

std::vector<TaskPlan*> Gen::ActivationTargets(const Ctx& c) {
  std::vector<TaskPlan*> out;
  for (TaskPlan& t : tasks_)
    if (MayActivate(c, t)) out.push_back(&t);
  return out;
}

void Gen::CountActivation(const Ctx& c, TaskPlan& t) {
  if (t.kind == TaskKind::kLocal) t.runs += c.task->runs * c.mult;
}

std::vector<int> Gen::TaskColors() const {
  std::vector<int> out = data_colors_;
  out.insert(out.end(), opt_.links.task_colors.begin(), opt_.links.task_colors.end());
  return out;
}

int Gen::SendRoom(const Ctx& c, int color) const {
  if (c.leaf || !c.task || c.depth > 0 || color < 0) return 0;
  const int per = c.task->runs * c.mult;
  return per > 0 ? (kSendBudget - sent_[color]) / per : 0;
}

void Gen::Spend(const Ctx& c, int color, int n) { sent_[color] += n * c.task->runs * c.mult; }

// ---------------------------------------------------------------------------------------------
// Structure

void Gen::EmitSeq(const Ctx& c, int units) {
  while (units > 0) EmitUnit(c, units);
}

void Gen::EmitUnit(const Ctx& c, int& budget) {
  const Mix& m = opt_.mix;
  --budget;
  const bool local = !c.leaf && c.task;
  const bool straight = local && c.depth == 0;
  std::vector<int> w(kUnitKinds, 0);
  auto on = [&](Category cat) { return m.Has(cat); };
  if (on(Category::kAlu)) w[kUAlu] = 10;
  if (on(Category::kMem)) w[kUMem] = 8;
  if (on(Category::kBranch) && budget >= 1) w[kUBranch] = 4;
  if (on(Category::kLoop) && c.depth < 2 && !c.in_sub && budget >= 2) w[kULoop] = 3;
  if (on(Category::kCall) && !c.in_sub && num_subs_ > 0) w[kUCall] = 2;
  if (on(Category::kFp)) w[kUFp] = 6;
  if (on(Category::kDsr)) w[kUDsr] = 3;
  if (on(Category::kTask) && local && (!ActivationTargets(c).empty() || !LocalTasks().empty()))
    w[kUTask] = 3;
  if (on(Category::kTask) && local && budget >= 1) w[kUBlockPair] = 1;
  if (on(Category::kSend) && straight) w[kUSend] = 3;
  if (on(Category::kDebug)) w[kUDebug] = 3;
  if (on(Category::kMmio)) w[kUMmio] = 3;
  if (on(Category::kUtWait)) w[kUUtWait] = 1;
  w[kUNop] = 1;
  if (on(Category::kDsdMem)) w[kUDsdMem] = 6;
  if (on(Category::kDsdFabric) && c.depth == 0 && !c.in_sub) w[kUFabric] = 3;
  if (on(Category::kDsdFabric) && straight && !TaskColors().empty()) w[kUFabricToTask] = 1;
  if (on(Category::kDsdFabric) && straight) w[kUCtrlStream] = 1;
  if (on(Category::kDsdMem) && c.depth == 0 && !c.in_sub) w[kUFifo] = 2;

  switch (PickWeighted(w)) {
    case kUAlu:
      Alu();
      break;
    case kUMem:
      Mem();
      break;
    case kUBranch:
      Branch(c, budget);
      break;
    case kULoop:
      Loop(c, budget);
      break;
    case kUCall:
      Call();
      break;
    case kUFp:
      Fp();
      break;
    case kUDsr:
      DsrMove();
      break;
    case kUTask:
      TaskOp(c);
      break;
    case kUBlockPair:
      BlockPair(c, budget);
      break;
    case kUSend:
      Send(c);
      break;
    case kUDebug:
      Debug();
      break;
    case kUMmio:
      Mmio();
      break;
    case kUUtWait:
      UtWait();
      break;
    case kUNop:
      Line("nop");
      break;
    case kUDsdMem:
      DsdMem(c);
      break;
    case kUFabric:
      FabricStream(c);
      break;
    case kUFabricToTask:
      FabricToTask(c);
      break;
    case kUCtrlStream:
      CtrlStream(c);
      break;
    case kUFifo:
      FifoStream(c);
      break;
  }
}

void Gen::EmitFilter(int color, const FilterSpec& f) {
  LoadConst(1, f.range);
  Line(fmt::format("sw      r1, FilterRange+4*{}", color));
  if (arch::SwitchCfg::Counter(f.switch_bits)) {
    LoadConst(1, f.count);
    Line(fmt::format("sw      r1, FilterCount+4*{}", color));
  }
  LoadConst(1, f.switch_bits);
  Line(fmt::format("sw      r1, SwitchCfg+4*{}", color));
}

void Gen::EmitMain() {
  TaskPlan& t = tasks_[0];
  out_ = &t.text;
  Label("main");
  // This router's part of the fabric's links, before anything else: a neighbour's first wavelet
  // comes after its own routes, a dozen register loads and the ramps' latency.
  for (const PeLinks::Route& r : opt_.links.routes) {
    LoadConst(1, r.color_cfg);
    Line(fmt::format("sw      r1, ColorCfg+4*{}", r.color));
    if (r.filter) EmitFilter(r.color, r.filter_spec);
  }
  Line(fmt::format("la      {}, buf", Reg(kBaseReg)));
  // Loop every used color back into this PE's CE: RAMP -> RAMP.
  const uint32_t ramp = 1u << static_cast<int>(arch::Dir::kRamp);
  const uint32_t route = arch::ColorCfg::WithRx(arch::ColorCfg::WithTx(0, ramp), ramp);
  std::vector<int> routed = data_colors_;
  if (ctrl_color_ >= 0) routed.push_back(ctrl_color_);
  routed.insert(routed.end(), dsd_colors_.begin(), dsd_colors_.end());
  if (!routed.empty()) {
    LoadConst(1, route);
    for (int c : routed) Line(fmt::format("sw      r1, ColorCfg+4*{}", c));
  }
  // Range and counter filters on some data-task colors: the CE gets only the wavelets whose
  // index (or count) lies in the range (data tasks run fewer times; nothing waits for a count
  // of them).
  for (int c : data_colors_)
    if (Chance(0.25)) EmitFilter(c, RandomFilter(*this));
  for (int r : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, kAsyncAcc}) {
    if (opt_.mix.Has(Category::kFp) && Chance(0.3)) {
      LoadFpConst(r, Chance(0.3));
    } else {
      LoadConst(r, RandomDataWord());
    }
  }
  if (opt_.mix.Has(Category::kDsr)) {
    for (int d = kScratchDsr; d < static_cast<int>(arch::kNumDsrs); ++d)
      if (Chance(0.5)) Line(fmt::format("ldd     d{}, {}({})", d, 8 * Int(0, 63), Reg(kBaseReg)));
  }
  Ctx c;
  c.task = &t;
  const int units = opt_.units > 0 ? opt_.units : Int(20, 80);
  const int before = fault_ != CeFault::kNone ? Int(0, units) : units;
  if (opt_.links.streams.empty() && opt_.links.reads.empty()) {
    EmitSeq(c, before);
    if (fault_ != CeFault::kNone) {
      EmitFault();
      EmitSeq(c, units - before);
    }
  } else {
    EmitMainWithLinks(c, units, before);
  }
  if (num_local_ > 0 && tasks_[1].runs == 0 && opt_.mix.Has(Category::kTask) && Chance(0.9)) {
    Line("activate t1");
    CountActivation(c, tasks_[1]);
  }
  if (num_local_ > 0 && Chance(0.5)) {
    uint32_t mask = 0;
    for (TaskPlan* l : LocalTasks()) mask |= 1u << l->id;
    LoadConst(1, mask);
    Line("sw      r1, TaskBlockClr");
  }
  if (wait_color_ >= 0) {  // the program ends settled: a reader of a color nobody sends on
    LoadConst(1, route);
    Line(fmt::format("sw      r1, ColorCfg+4*{}", wait_color_));
    Line(fmt::format("ldd     d0, {}",
                     DefineDsd(fmt::format("fabin, u32, color={}, len=inf", wait_color_))));
    Line(fmt::format("ldd     d1, {}", DefineDsd("mem1d, u32, base=vbuf, len=1")));
    Line(fmt::format("mov32   d1, d0, ut{} async", wait_ut_));
  }
  Line("tend");
}

void Gen::EmitMainWithLinks(const Ctx& c, int units, int fault_at) {
  // Items at positions among the units of main: the streams at or before `split`, the readers at
  // or after it, the deliberate fault anywhere.
  struct Item {
    int at = 0;
    int order = 0;  // at one position: streams, then the fault, then readers
    std::function<void()> emit;
  };
  std::vector<Item> items;
  const int split = Int(0, units);
  for (const PeLinks::Stream& s : opt_.links.streams)
    items.push_back({Int(0, split), 0, [this, &c, &s] { LinkStream(c, s); }});
  if (fault_ != CeFault::kNone) items.push_back({fault_at, 1, [this] { EmitFault(); }});
  for (const PeLinks::Read& r : opt_.links.reads)
    items.push_back({Int(split, units), 2, [this, &c, &r] { LinkRead(c, r); }});
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.at != b.at ? a.at < b.at : a.order < b.order;
  });
  int done = 0;
  for (const Item& item : items) {
    EmitSeq(c, item.at - done);
    done = std::max(done, item.at);
    item.emit();
  }
  EmitSeq(c, units - done);
}

void Gen::EmitLocal(TaskPlan& t) {
  out_ = &t.text;
  t.runs += t.self_count;
  Label(t.name);
  Ctx c;
  c.task = &t;
  EmitSeq(c, Int(2, 25));
  if (t.self_count > 0) {  // run again, self_count times in all
    const std::string skip = NewLabel("L");
    const int r = FreeReg();
    Line(fmt::format("lw      {}, cnt+4*{}", Reg(r), t.order));
    Line(fmt::format("beqz    {}, {}", Reg(r), skip));
    Line(fmt::format("addi    {0}, {0}, -1", Reg(r)));
    Line(fmt::format("sw      {}, cnt+4*{}", Reg(r), t.order));
    Line(fmt::format("activate {}", t.name));
    Label(skip);
  }
  if (t.order < num_local_ && tasks_[t.order + 1].runs == 0 && Chance(0.9)) {
    Line(fmt::format("activate {}", tasks_[t.order + 1].name));
    CountActivation(c, tasks_[t.order + 1]);
  }
  Line("tend");
}

void Gen::EmitLeaf(TaskPlan& t) {
  out_ = &t.text;
  Label(t.name);
  // The payload (data task) or argument (control task) in r0.
  switch (Int(0, 2)) {
    case 0:
      Line(fmt::format("sw      r0, {}({})", 4 * Int(0, kBufBytes / 4 - 1), Reg(kBaseReg)));
      break;
    case 1:
      Line("dbg     r0");
      break;
    default:
      Line(fmt::format("add     {}, r0, {}", Reg(FreeReg()), Reg(AnyReg())));
      break;
  }
  Ctx c;
  c.task = &t;
  c.leaf = true;
  EmitSeq(c, Int(0, 6));
  Line("tend");
}

void Gen::EmitSub(int k) {
  out_ = &subs_[k];
  Label(fmt::format("sub{}", k));
  Ctx c;
  c.leaf = true;
  c.in_sub = true;
  EmitSeq(c, Int(1, 6));
  Line("ret");
}

// ---------------------------------------------------------------------------------------------
// The deliberate fault: one instruction at `fault_site`, after whatever sets it up.

void Gen::EmitFault() {
  const int rt = Int(1, 10), rx = FreeReg();
  auto site = [&](const std::string& insn) {
    Label("fault_site");
    Line(insn);
  };
  std::vector<int> unrouted;
  for (int c = 0; c < static_cast<int>(arch::kNumColors); ++c) {
    const bool used =
        std::find(data_colors_.begin(), data_colors_.end(), c) != data_colors_.end() ||
        c == ctrl_color_ ||
        std::find(dsd_colors_.begin(), dsd_colors_.end(), c) != dsd_colors_.end() ||
        (opt_.links.routed >> c & 1);
    if (!used) unrouted.push_back(c);
  }
  std::vector<int> unbound;
  for (int id = 0; id < static_cast<int>(arch::kNoTask); ++id) {
    bool bound = false;
    for (const TaskPlan& t : tasks_) bound |= t.id == id;
    if (!bound) unbound.push_back(id);
  }
  switch (fault_) {
    case CeFault::kTrap:
      site(fmt::format("trap    {}", Int(0, 0xFFFF)));
      break;
    case CeFault::kIllegal: {
      uint32_t w = 0;
      switch (Int(0, 2)) {
        case 0:  // a reserved opcode
          w = static_cast<uint32_t>(Pick(std::vector<int>{0x0C, 0x0D, 0x1C, 0x2E, 0x3C, 0x7B})) |
              (U32() & ~0x7Fu);
          break;
        case 1:  // add with a nonzero D field
          w = 0x00032101u | static_cast<uint32_t>(Int(1, 15)) << 20;
          break;
        default:
          w = 0;
          break;
      }
      if (isa::Decode(w) != nullptr) w = 0;
      site(fmt::format(".word   {}", Hex(w)));
      break;
    }
    case CeFault::kMisaligned:
      if (Chance(0.3)) {
        site("ldd     d9, buf+4");  // buf is 16-aligned: not a multiple of 8
      } else {
        Line(fmt::format("li      {}, buf+{}", Reg(rt), Pick(std::vector<int>{1, 2, 3, 5, 7})));
        site(fmt::format("{}      {}, 0({})", Chance(0.5) ? "lw" : "sw", Reg(rx), Reg(rt)));
      }
      break;
    case CeFault::kOutOfRange:
      if (Chance(0.5)) {
        LoadConst(rt, 0xFFF0);
        site(fmt::format("lw      {}, 0x20({})", Reg(rx), Reg(rt)));
      } else {
        LoadConst(rt, 0);
        site(fmt::format("sh      {}, -2({})", Reg(rx), Reg(rt)));
      }
      break;
    case CeFault::kMmioAccess:
      site(Pick(std::vector<std::string>{
          fmt::format("lw      {}, 0xC0F0", Reg(rx)), fmt::format("lh      {}, CycleLo", Reg(rx)),
          fmt::format("lw      {}, Gpr+4*3", Reg(rx)), "ldd     d9, 0xC000"}));
      break;
    case CeFault::kReadOnly:
      site(Pick(std::vector<std::string>{
          fmt::format("sw      {}, PeCoord", Reg(rx)), fmt::format("sw      {}, CycleLo", Reg(rx)),
          fmt::format("sw      {}, CeColor+4*{}", Reg(rx), Int(0, 23)),
          fmt::format("sw      {}, FaultStatus", Reg(rx))}));
      break;
    case CeFault::kPcRange:
      if (Chance(0.5)) {
        site("jr      0xC000");
      } else {
        Line(fmt::format("li      {}, main+2", Reg(rt)));
        site(fmt::format("jr      ({})", Reg(rt)));
      }
      break;
    case CeFault::kTaskId:
      LoadConst(rt, static_cast<uint32_t>(Int(32, 5000)));
      site(fmt::format("{} {}", Pick(std::vector<std::string>{"activate", "block  ", "unblock"}),
                       Reg(rt)));
      break;
    case CeFault::kTaskKind:
      if (!data_colors_.empty() && Chance(0.5)) {
        site(fmt::format("activate rx{}", Pick(data_colors_)));
      } else {
        site(fmt::format("activate {}", Pick(unbound)));
      }
      break;
    case CeFault::kBadColor:
      if (Chance(0.5)) {
        site(fmt::format("send    {}, {}", Reg(rx), Pick(unrouted)));
      } else {
        LoadConst(rt, static_cast<uint32_t>(Int(24, 100)));
        site(fmt::format("sendc   {}, {}", Reg(rx), Reg(rt)));
      }
      break;
    case CeFault::kDsdInvalid:
      if (!opt_.mix.Has(Category::kDsdMem) || Chance(0.5)) {
        LoadConst(rt, static_cast<uint32_t>(Int(0x8000, 0x9000)));
        site(fmt::format("dsetl   d9, {}", Reg(rt)));
        break;
      }
      [[fallthrough]];
    default: {  // DSD faults: a DSD operation with one bad operand (gen_dsd.cpp's helpers)
      const auto& n = PickDsdLine([](const arch::InsnInfo& i) {
        return i.form == arch::DsdForm::kV3 && i.types[0] == arch::ElemClass::kF32;
      });
      const MemOperand a = PlaceMem(arch::ElemType::kF32, 8, false);
      const MemOperand b = PlaceMem(arch::ElemType::kF32, 8, false);
      MaterializeMem(1, a, 8);
      MaterializeMem(2, b, 8);
      const int ra = Int(1, 5), rb = Int(6, 10);
      const uint64_t kind_mem = static_cast<uint64_t>(arch::DsdKind::kMem1d);
      std::string insn = fmt::format("{} d0, d1, d2", n.mnemonic);
      switch (fault_) {
        case CeFault::kDsdInvalid:  // kind none (a zeroed register)
          Line("dwr     d0, 0, 0");
          Line("dwr     d0, 0, 1");
          break;
        case CeFault::kDsdType: {  // i32 where the operation needs f32
          const MemOperand d = PlaceMem(arch::ElemType::kI32, 8, false);
          MaterializeMem(0, d, 8);
          break;
        }
        case CeFault::kDsdRange: {  // runs off the end of SRAM
          const uint64_t d = arch::Dsd::WithKind(arch::Dsd::WithElem(0, 0), kind_mem) |
                             arch::Dsd::WithStride(0, 1);
          LoadConst(ra,
                    static_cast<uint32_t>(Int(8, 40)) << 16 | (arch::kSramBytes - 4 * Int(1, 6)));
          LoadConst(rb, static_cast<uint32_t>(d >> 32));
          Line(fmt::format("dwr     d1, {}, 0", Reg(ra)));
          Line(fmt::format("dwr     d1, {}, 1", Reg(rb)));
          MaterializeMem(0, PlaceMem(arch::ElemType::kF32, 40, false), 8);
          insn = fmt::format("{} d0, d1, d2", n.mnemonic);
          break;
        }
        case CeFault::kDsdMisaligned: {  // an f32 base 2 bytes off
          const uint64_t d = arch::Dsd::WithKind(arch::Dsd::WithElem(0, 0), kind_mem) |
                             arch::Dsd::WithStride(0, 1);
          Line(fmt::format("li      {}, vbuf+{}", Reg(ra), Hex(8u << 16 | (4 * Int(0, 100) + 2))));
          LoadConst(rb, static_cast<uint32_t>(d >> 32));
          Line(fmt::format("dwr     d0, {}, 0", Reg(ra)));
          Line(fmt::format("dwr     d0, {}, 1", Reg(rb)));
          break;
        }
        default:
          break;
      }
      site(insn);
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Data

std::string Gen::DataSection() {
  std::string s;
  auto words = [&](const std::string& label, int n, auto value) {
    s += label + ":\n";
    for (int i = 0; i < n; i += 8) {
      std::string line = "        .word   ";
      for (int k = i; k < std::min(n, i + 8); ++k)
        line += (k > i ? ", " : "") + fmt::format("0x{:08x}", value(k));
      s += line + "\n";
    }
  };
  s += "        .data\n        .align  16\n";
  words("buf", kBufBytes / 4, [&](int) { return RandomDataWord(); });
  words("vbuf", kVbufBytes / 4, [&](int) { return RandomDataWord(); });
  s += fmt::format("dsave:\n        .space  {}\n", kSaveBytes);
  words("cnt", num_local_ + 1,
        [&](int k) { return k == 0 ? 0u : static_cast<uint32_t>(tasks_[k].self_count); });
  words("ctab", kCtabWords, [&](int k) { return ctab_[k]; });
  s += fmt::format("fbuf:\n        .space  {}\n", 4 * kFifoSlots * arch::kNumFifos);
  for (const std::string& d : dsds_) s += "        .dsd    " + d + "\n";
  return s;
}

Program Gen::Generate() {
  Plan();
  subs_.assign(num_subs_, "");
  EmitMain();
  for (int i = 1; i <= num_local_; ++i) EmitLocal(tasks_[i]);
  for (TaskPlan& t : tasks_)
    if (t.kind == TaskKind::kData || t.kind == TaskKind::kControl) EmitLeaf(t);
  for (int k = 0; k < num_subs_; ++k) EmitSub(k);
  for (TaskPlan& t : tasks_) FillUtsOfColors(t.text);

  Program p;
  p.seed = seed_;
  p.mix = opt_.mix.ToString();
  p.expect_fault = fault_;
  std::string& s = p.source;
  s += fmt::format("; tessera fuzz program: seed {}, mix {}\n", seed_, p.mix);
  p.expect_settled = wait_color_ >= 0;
  s += fault_ != CeFault::kNone ? fmt::format("; expect fault {}\n", FaultName(fault_))
       : p.expect_settled       ? "; expect settled\n"
                                : "; expect quiet\n";
  s += "        .text\n";
  // A quarter of the programs start with main active at load (.task ..., active) rather than
  // launched by the host; chosen from a hash of the seed so the rest of the program is the same.
  const bool main_active = ((seed_ * 0x9E3779B97F4A7C15ull) >> 62) == 0;
  // Another quarter have a local task blocked at load (.task ..., blocked) that main unblocks
  // first thing: the same program, through the loader's TaskBlockSet write and an unblock.
  const TaskPlan* blocked = nullptr;
  if (((seed_ * 0xC2B2AE3D27D4EB4Full) >> 62) == 0) {
    for (const TaskPlan& t : tasks_)
      if (!blocked && t.order != 0 && t.kind == TaskKind::kLocal) blocked = &t;
  }
  if (blocked) {
    std::string& main = tasks_[0].text;
    const size_t at = main.find("main:");
    if (at != std::string::npos) {
      const size_t eol = main.find('\n', at);
      main.insert(eol + 1, fmt::format("        unblock {}\n", blocked->name));
    } else {
      blocked = nullptr;
    }
  }
  for (const TaskPlan& t : tasks_)
    s += fmt::format("        .task   {}, {}, {}{}{}\n", t.name, assembler::TaskKindName(t.kind),
                     t.id,
                     t.order == 0 && t.kind == TaskKind::kLocal && main_active ? ", active" : "",
                     &t == blocked ? ", blocked" : "");
  for (const TaskPlan& t : tasks_) s += t.text;
  for (const std::string& sub : subs_) s += sub;
  s += DataSection();
  return p;
}

}  // namespace detail

Program Generate(uint64_t seed, const GenOptions& options) {
  detail::Gen g(seed, options);
  return g.Generate();
}

std::string FaultName(arch::CeFault f) { return arch::ToString(f); }

bool ParseSettled(const std::string& source) {
  return source.find("\n; expect settled\n") != std::string::npos;
}

arch::CeFault ParseExpectation(const std::string& source) {
  std::istringstream in(source);
  std::string line;
  while (std::getline(in, line)) {
    const std::string prefix = "; expect fault ";
    if (line.rfind(prefix, 0) != 0) continue;
    const std::string name = line.substr(prefix.size());
    for (int f = 0; f <= static_cast<int>(arch::CeFault::kTrap); ++f) {
      if (name == arch::ToString(static_cast<arch::CeFault>(f)))
        return static_cast<arch::CeFault>(f);
    }
  }
  return arch::CeFault::kNone;
}

}  // namespace tessera::fuzz
