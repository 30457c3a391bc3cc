// Inside the program generator (generator.h): its state and the emitters of each kind of code,
// split by concept over generator.cpp (the plan, tasks, layout and faults), gen_scalar.cpp
// (scalar units) and gen_dsd.cpp (DSD operations and fabric streams). Not a public interface.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "arch/isa_table.h"
#include "fuzz/generator.h"

namespace tessera::fuzz::detail {

// The data region (`.data`): scalar data, the DSD area, a save area for `std`, counters of
// self-activating tasks and control-wavelet payloads. Offsets are from each label.
inline constexpr int kBufBytes = 512;    // buf: loads and stores
inline constexpr int kVbufBytes = 2048;  // vbuf: every mem1d element (stores reach it too)
inline constexpr int kSaveBytes = 64;    // dsave: std
inline constexpr int kCtabWords = 8;     // ctab: control-wavelet payloads for Ctrl fabout
inline constexpr int kFifoSlots = 16;    // fbuf: FIFO k's buffer at 4 * kFifoSlots * k
// Wavelets one looped-back color may carry to the CE over a whole program, and one link between
// PEs over a whole fabric program: below the RAMP input credits (RampInDepth = 15), so no send or
// fabout ever waits for its consumer.
inline constexpr int kSendBudget = 14;
inline constexpr int kMaxLen = 32;  // DSD lengths of generated operations

// Registers: r11 holds `buf` throughout; r12 and r13 count loops; r14 is the accumulator of
// asynchronous fdot operations (written whenever they complete); r15 is the link register.
// Random code writes r0..r10 and relies on values it has just set only there.
inline constexpr int kBaseReg = 11;
inline constexpr int kLoopReg[2] = {13, 12};
inline constexpr int kAsyncAcc = 14;
inline constexpr int kScratchDsr = 8;  // d8..d15: the dsr category; d0..d7: DSD operands

struct TaskPlan {
  std::string name;
  arch::TaskKind kind = arch::TaskKind::kLocal;
  int id = 0;
  int order = 0;       // local tasks: position in the activation chain (main is 0)
  int runs = 0;        // local tasks: bound on the number of runs
  int self_count = 0;  // local tasks: self-activations (a counter at cnt + 4*order)
  std::string text;
};

// Where code is being emitted.
struct Ctx {
  TaskPlan* task = nullptr;  // nullptr in a subroutine
  bool leaf = false;         // data and control tasks, subroutines: no task operations, no sends
  bool in_sub = false;
  int depth = 0;  // loop nesting
  int mult = 1;   // runs of this code per run of its task (product of loop counts)
};

// One mem1d (or mem4d) operand in vbuf: elements base_off + i * stride * size for i < n.
struct MemOperand {
  arch::ElemType type = arch::ElemType::kF32;
  int base_off = 0;
  int stride = 1;
  // mem4d instead (docs/isa.md 2.3): the four lengths (their product is the n it was placed for)
  // and the strides of dimensions 1..3; dimension 0's stride is `stride`.
  bool four = false;
  std::array<int, 4> dim_len{};
  std::array<int, 3> dim_stride{};
};

// The randomness of the generator and of the fabric planner (generator.cpp): std::mt19937_64 and
// integer arithmetic only, so a seed means the same on every machine.
class Rng {
 public:
  explicit Rng(uint64_t seed) : rng_(seed) {}
  int Int(int lo, int hi);  // uniform in [lo, hi]
  bool Chance(double p);
  uint32_t U32();
  template <class T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Int(0, static_cast<int>(v.size()) - 1))];
  }
  int PickWeighted(const std::vector<int>& weights);  // an index, by weight (sum > 0)
  // Fisher-Yates on Int(): the same order with every standard library (std::shuffle's is not).
  void Shuffle(std::vector<int>& v);

 private:
  std::mt19937_64 rng_;
};

// A range filter's bounds (arch::FilterRange): from 0 up, up to 0xFFFF, somewhere between, or
// empty (Max < Min: nothing reaches the CE).
uint32_t RandomFilterRange(Rng& r);
// A range filter, or a counter filter: a count from anywhere in 0..Limit (Limit small, so that
// it wraps, or large), counting data, control, both or neither, delivering a part of the counts.
FilterSpec RandomFilter(Rng& r);

class Gen : public Rng {
 public:
  Gen(uint64_t seed, const GenOptions& options);
  Program Generate();

  // ---- text ----
  void Line(const std::string& s);  // an indented statement
  void Label(const std::string& name);
  std::string NewLabel(const char* prefix);
  static std::string Reg(int r);
  int FreeReg();  // a register random code may write: r0..r10
  int AnyReg();
  static std::string Hex(uint32_t v);
  void LoadConst(int reg, uint32_t value);  // li
  void LoadFpConst(int reg, bool f16);      // li of an interesting f32 or f16 value
  uint32_t RandomDataWord();                // for the data region and registers
  std::string Simm();                       // a signed 16-bit immediate, small more often
  std::string Uimm();

  // ---- structure (generator.cpp) ----
  void Plan();
  void EmitSeq(const Ctx& c, int units);
  void EmitUnit(const Ctx& c, int& budget);
  void EmitMain();
  void EmitFilter(int color, const FilterSpec& f);  // a color's filter registers
  // Main's units with the fabric's streams and stream readers (and the fault) placed among them.
  void EmitMainWithLinks(const Ctx& c, int units, int fault_at);
  void EmitLocal(TaskPlan& t);
  void EmitLeaf(TaskPlan& t);
  void EmitSub(int k);
  void EmitFault();
  std::string DataSection();
  // Records that code in ctx activates local task `t` (bounds its runs); false if it may not.
  bool MayActivate(const Ctx& c, const TaskPlan& t) const;
  void CountActivation(const Ctx& c, TaskPlan& t);
  std::vector<TaskPlan*> ActivationTargets(const Ctx& c);  // later local tasks and control tasks
  std::vector<TaskPlan*> LocalTasks();
  std::vector<TaskPlan*> TasksOfKind(arch::TaskKind k);
  // Colors to data tasks: this PE's looped-back ones and the links to neighbours' data tasks.
  std::vector<int> TaskColors() const;
  int SendRoom(const Ctx& c, int color) const;  // wavelets code here may still send on color
  void Spend(const Ctx& c, int color, int n);

  // ---- scalar units (gen_scalar.cpp) ----
  void Alu();
  void Mem();
  void Branch(const Ctx& c, int& budget);
  void Loop(const Ctx& c, int& budget);
  void Call();
  void Fp();
  void DsrMove();
  void TaskOp(const Ctx& c);
  void BlockPair(const Ctx& c, int& budget);
  void Send(const Ctx& c);
  void Debug();
  void Mmio();
  void UtWait();

  // ---- DSD units (gen_dsd.cpp) ----
  void DsdMem(const Ctx& c);
  void FabricStream(const Ctx& c);
  void FabricToTask(const Ctx& c);
  void CtrlStream(const Ctx& c);
  void FifoStream(const Ctx& c);
  // The fabric's traffic (PeLinks): a stream to neighbours, a reader of a neighbour's stream.
  void LinkStream(const Ctx& c, const PeLinks::Stream& s);
  void LinkRead(const Ctx& c, const PeLinks::Read& r);
  // Helpers shared with the deliberate DSD faults.
  const arch::InsnInfo& PickDsdLine(const std::function<bool(const arch::InsnInfo&)>& fits);
  MemOperand PlaceMem(arch::ElemType t, int n, bool pair, bool allow4d = false);
  void MaterializeMem(int dsr, const MemOperand& m, int len);
  // A descriptor in .data (`.dsd` text after the name); returns its name.
  std::string DefineDsd(const std::string& spec);
  // A mark that Generate replaces by the mask of the microthreads any fabric stream of the
  // program runs on color c1 or c2.
  static std::string UtsOfColorsMark(int c1, int c2);
  void FillUtsOfColors(std::string& text) const;
  // The completion clause on microthread ut: mode 0 synchronous, 1 either, 2 asynchronous
  // (activating or unblocking a task only with Category::kDsdAsync).
  std::string Completion(const Ctx& c, int ut, int mode);
  static arch::ElemType PickType(Gen& g, arch::ElemClass c);
  uint8_t FreeUts(int n, std::vector<int>& uts);  // n distinct microthreads and their mask
  // A microthread drawn at random (raw, 0..7), moved off the one the settling waiter keeps.
  int Ut(int raw) const { return raw == wait_ut_ ? (raw + 1) % 8 : raw; }

  // ---- state ----
  GenOptions opt_;
  uint64_t seed_;
  std::string* out_ = nullptr;
  int next_label_ = 0;
  std::vector<TaskPlan> tasks_;  // main first, then the other local tasks in chain order, leaves
  int num_local_ = 0;
  int num_subs_ = 0;
  std::vector<std::string> subs_;
  std::vector<int> data_colors_;              // colors with a data task
  int ctrl_color_ = -1;                       // control wavelets only (no data task, no reader)
  std::vector<int> dsd_colors_;               // fabin/fabout streams
  std::array<int, arch::kNumColors> sent_{};  // wavelets sent per color so far
  std::array<uint8_t, arch::kNumColors> color_uts_{};  // microthreads that read or write it
  std::array<uint32_t, kCtabWords> ctab_{};
  std::array<int, arch::kNumFifos> fifo_cap_{};  // FIFO k's capacity, from its first use
  std::vector<std::string> dsds_;                // `.dsd` lines
  arch::CeFault fault_ = arch::CeFault::kNone;
  // A program that ends settled (docs/isa.md 3.2): at the end of main, microthread wait_ut_
  // starts reading color wait_color_, on which nothing is ever sent; no other code uses that
  // microthread. -1: the program ends quiet.
  int wait_color_ = -1, wait_ut_ = -1;
};

}  // namespace tessera::fuzz::detail
