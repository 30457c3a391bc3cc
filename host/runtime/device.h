// The host runtime (docs/runtime.md): what host code uses to run a program image on the emulated
// fabric. Its calls mirror the public SDK runtime: open a device, load, symbol, memcpy_h2d and
// memcpy_d2h, launch, run, stop. The same calls run on every backend:
//   - func:  the functional model;
//   - rtl:   verilated tiles of full PEs, in the SystemC fabric (reached through its TLM socket)
//            or, with DeviceOptions::systemc = false, in the plain-loop glue;
//   - cosim: both, on the same inputs, compared (the wavelets on every link both observe, debug
//            records, the task sequence per PE and faults as they run; final SRAM and registers of
//            every PE; per instruction for one PE with lockstep): a machine of its own
//            (cosim/cosim_machine.h), which the device holds as it holds the others.
//
//   Device dev({.backend = Backend::kCosim, .width = 4, .height = 1});
//   dev.Load(layout::ReadImageFile("axpy.timg"));
//   dev.MemcpyH2D("x", x.data(), x.size(), {0, 0, 4, 1}, 16);
//   dev.Launch("main");
//   RunResult r = dev.Run(1'000'000);   // to quiescence; r.message says why it stopped otherwise
//   dev.MemcpyD2H(y.data(), y.size(), "y", {0, 0, 4, 1}, 16);
//
// Bad input (an image for another fabric, an unknown symbol, a region outside the fabric or the
// symbol, a wrong element size) throws std::invalid_argument naming it, before anything is
// written: nothing runs half-way.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ce/trace.h"
#include "cosim/cosim_machine.h"
#include "fabric/edge_stream.h"
#include "fabric/fabric.h"
#include "layout/image.h"
#include "runtime/memcpy.h"

namespace tessera::runtime {

enum class Backend { kFunc, kRtl, kCosim };
const char* BackendName(Backend b);
// "func", "rtl" or "cosim"; throws std::invalid_argument naming --backend otherwise.
Backend ParseBackend(const std::string& name);

class Device;

// Co-simulation found the backends disagreeing outside a run: a back-door read (memcpy_d2h) whose
// words differ between func and rtl. The message names the PE, the address and both values.
using cosim::CosimMismatch;

struct DeviceOptions {
  Backend backend = Backend::kFunc;
  int width = 1, height = 1;
  // PEs per RTL tile (and per host port on every backend); {0, 0}: 1x1 (rtl::DefaultCeTile).
  std::pair<int, int> tile{0, 0};
  bool systemc = true;  // RTL glue: SystemC (one per process) or the plain loop
  // RTL: evaluate every tile in every cycle, also the idle ones it skips by default (the result
  // is the same; docs/performance.md, "Idle tiles").
  bool clock_idle_tiles = false;
  // RTL: evaluate each tile's input-combinational region in every cycle, also where none of its
  // inputs changed (the result is the same; docs/performance.md, "Unchanged inputs").
  bool eval_input_region = false;
  // Host threads the functional model steps its compute engines on, and the RTL its tiles (with
  // more than one, the RTL uses the plain-loop glue); results are bit-identical whatever the
  // count.
  int threads = 1;
  // Functional model: compute engines whose task only computes run the cycles the fabric
  // guarantees quiet for them in one step (docs/performance.md, "Running ahead"); false: one
  // step per cycle. The result is the same.
  bool run_ahead = true;
  // Waves of the RTL (rtl and cosim): FST path, cycle window [from, to), PE region.
  std::string wave_path;
  uint64_t wave_from = 0, wave_to = UINT64_MAX;
  int wave_x0 = 0, wave_y0 = 0, wave_x1 = -1, wave_y1 = -1;
  // cosim: compare every retired instruction of this PE as it happens.
  std::optional<fabric::Coord> lockstep;
  // Show progress (cycles, simulated cycles per second, elapsed) on stderr while running, if
  // stderr is a terminal.
  bool progress = false;
  // Called when the device has loaded its image, and when it closes (Stop, or destruction if not
  // stopped): tools that watch every device a program opens attach and finish here (`tessera
  // kernel --trace-insn`, trace/instruments.h).
  std::function<void(Device&)> on_load, on_close;
};

struct RunResult {
  enum class Status {
    kQuiescent,    // every task ended, no microthread busy, nothing in flight
    kCycleLimit,   // the limit passed first: `message` holds the deadlock diagnosis
    kFault,        // a PE faulted: `message` says which, where and why
    kMismatch,     // cosim: the backends differ: `message` gives the first difference
    kInterrupted,  // the interrupt check (Device::SetInterruptCheck) asked the run to stop
    kSettled,      // (a run until settled) not quiescent, but nothing can move until the host
                   // acts: microthreads wait for data, wavelets wait for a blocked task
    kDeadlock,     // nothing moved for a whole window (StallProbe) and the run is not over:
                   // `message` holds the deadlock diagnosis
  };
  Status status = Status::kQuiescent;
  uint64_t start_cycle = 0, end_cycle = 0;  // end: the first cycle not stepped
  std::string message;
  std::vector<fabric::FaultRecord> faults;
  // Counters of the run.
  uint64_t instructions = 0;  // issued by all compute engines during the run
  uint64_t tasks_started = 0;
  uint64_t debug_records = 0;
  uint64_t link_wavelets = 0;  // cosim: wavelet crossings compared on links (both observe)

  uint64_t cycles() const { return end_cycle - start_cycle; }
  bool ok() const { return status == Status::kQuiescent || status == Status::kSettled; }
};
const char* StatusName(RunResult::Status s);

// Something that watches single cycles of a run (the instruction trace, the timeline): the cycles
// of its window are stepped one at a time (Machine::Step) and shown to it; the rest of a run goes
// in big steps, so a window of a long run costs little.
class CycleObserver {
 public:
  virtual ~CycleObserver() = default;
  // The window: cycles [From(), To()).
  virtual uint64_t From() const = 0;
  virtual uint64_t To() const = 0;
  // Called before cycle `cycle` of the window is stepped, and after it with what every PE did
  // (`events`, PE index order); `m` is the reference machine (cosim: func).
  virtual void Before(uint64_t cycle, machine::Machine& m) {}
  virtual void After(uint64_t cycle, machine::Machine& m,
                     const std::vector<fabric::PeEvents>& events) = 0;
};

struct MemcpyResult {
  uint64_t cycles = 0;  // simulated cycles the copy took (0 through the back door)
  uint64_t words = 0;   // 32-bit words moved
  MemcpyResult& operator+=(const MemcpyResult& o) {
    cycles += o.cycles;
    words += o.words;
    return *this;
  }
};

class Device {
 public:
  // Opens the backend(s). Throws std::invalid_argument naming the option (--fabric, --tile, ...).
  explicit Device(const DeviceOptions& opt);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceOptions& options() const { return opt_; }
  int Width() const { return opt_.width; }
  int Height() const { return opt_.height; }
  uint64_t Cycle() const;

  // Writes the image into every PE (zero time). The image's fabric must be the device's; a
  // device takes one image.
  void Load(const layout::Image& image);
  const layout::Image& image() const;

  // Checks that some PE's program exports `name`; returns the PEs that do (row by row).
  std::vector<fabric::Coord> Symbol(const std::string& name) const;

  MemcpyResult MemcpyH2D(const std::string& symbol, const void* data, size_t count, const Region& r,
                         int elems_per_pe, const MemcpyOptions& o = {});
  MemcpyResult MemcpyD2H(void* out, size_t count, const std::string& symbol, const Region& r,
                         int elems_per_pe, const MemcpyOptions& o = {});

  // One 32-bit word of PE `pe` at `addr` (SRAM below 0xC000, registers above; docs/isa.md 3.2)
  // through the back door, in zero time: written on every machine, read from every machine
  // (cosim: CosimMismatch if they differ). Throws std::invalid_argument for a PE outside the
  // fabric or an address that is not a multiple of 4.
  void WriteWord(fabric::Coord pe, uint32_t addr, uint32_t value);
  uint32_t ReadWord(fabric::Coord pe, uint32_t addr);

  // Clears the faults of every faulted PE: a host write to FaultStatus (the compute engine's
  // fault registers; the engine goes on at the instruction that faulted) and to RouterFault, on
  // every machine, and the backends forget the fault so that a new one stops a run again.
  // Returns the faults cleared, described as a run reports them.
  std::vector<std::string> ClearFaults();

  // Activates the exported local task `task` (the symbol at its entry) on every PE of `region`
  // (default: every PE whose program exports it), with TaskArg = arg if given.
  void Launch(const std::string& task, std::optional<Region> region = std::nullopt,
              std::optional<uint16_t> arg = std::nullopt);

  // Streaming through the edge port of PE `pe` facing `side` (arch::Dir W, E, S or N; the port
  // must face off the fabric): StreamIn queues wavelets of `color` that enter the fabric at most
  // one per cycle as credits allow, during the following runs; StreamOut takes the wavelets that
  // have left through the port so far (with their cycles). The first use of a port unties it.
  // cosim: both backends must send out the same wavelets in the same cycles.
  void StreamIn(fabric::Coord pe, int side, uint32_t color, const std::vector<uint32_t>& data,
                bool ctrl = false);
  std::vector<fabric::EdgeStream::Wavelet> StreamOut(fabric::Coord pe, int side);

  // Runs until the fabric is quiescent, a PE faults, the backends differ (cosim) or
  // `max_cycles` pass. Debug-port records go to the debug handler as they come. With
  // `until_settled`, a run also ends (kSettled) once the fabric is settled (fabric::Fabric::
  // Settled: microthreads may wait for data the host has not sent yet; what SDK programs'
  // command streams need between commands).
  RunResult Run(uint64_t max_cycles, bool until_settled = false);
  bool Settled();

  // Ends the session: closes waves and writes their GTKWave save file; returns the files written
  // (FILE.fst, FILE.gtkw). Further calls throw.
  std::vector<std::string> Stop();

  // Where debug-port records go (default: printed to stdout as "@<cycle> PE(<x>,<y>): <value>").
  void SetDebugHandler(std::function<void(const ce::DebugRecord&)> fn) {
    on_debug_ = std::move(fn);
  }
  // Shows the cycles of the observer's window to it during runs (not owned; it must outlive the
  // runs). Several observers may watch.
  void AddCycleObserver(CycleObserver* o) { observers_.push_back(o); }
  // Asked between the steps of a run (at most 8192 cycles apart); returning true ends the run after
  // whole cycles with Status::kInterrupted (the fabric stays consistent and a later run continues
  // it). The Python module stops a run on Ctrl-C this way. nullptr: never.
  void SetInterruptCheck(std::function<bool()> fn) { interrupt_ = std::move(fn); }
  // Where the wavelets crossing links go, as each run step ends: the first machine's link log
  // (fabric::LinkEvent, every link it observes) in (cycle, y, x, port, into) order. Set before
  // Run; nullptr turns the log off again (cosim keeps its own).
  void SetLinkHandler(std::function<void(const std::vector<fabric::LinkEvent>&)> fn);

  // The machine the device runs (cosim: a machine made of func and rtl, Parts()), for tests and
  // tools.
  machine::Machine& machine() { return *machine_; }

 private:
  void CheckOpen() const;
  void CheckLoaded() const;
  void OpenMachine();  // the backend's machine
  // The machine whose state the host shows (cosim: func, the reference): what diagnoses and
  // observers read, without comparing.
  machine::Machine& Reference() { return *machine_->Parts()[0]; }
  // A host write or read through the back door or the host port.
  void WriteAll(fabric::Coord pe, uint16_t addr, uint32_t value, bool port);
  uint32_t ReadAll(fabric::Coord pe, uint16_t addr, bool port);
  // Performs word transfers through the back door or the host ports.
  MemcpyResult Transfer(std::vector<WordTransfer>& plan, bool write, Timing timing,
                        std::vector<uint32_t>* read);
  // Handles what the last run or step of the machine produced: debug records, task starts,
  // faults, link logs, and (cosim) whether its parts agree. `events`: the cycle was stepped with
  // Machine::Step, which took its debug records and task starts.
  void Deliver(RunResult& r, const std::vector<fabric::PeEvents>* events = nullptr);
  bool Quiescent();
  // The deadlock diagnosis's lines for host streams with wavelets not yet injected.
  std::string PendingStreams() const;

  DeviceOptions opt_;
  std::unique_ptr<machine::Machine> machine_;
  std::optional<layout::Image> image_;
  std::function<void(const ce::DebugRecord&)> on_debug_;
  std::function<void(const std::vector<fabric::LinkEvent>&)> on_links_;
  std::function<bool()> interrupt_;
  std::vector<CycleObserver*> observers_;
  // Whether some observer watches `cycle`; else the cycles until the next window starts.
  bool Observed(uint64_t cycle, uint64_t* until_next) const;
  struct Stream {  // one edge port's stream, on each fabric the machine runs
    fabric::Coord pe;
    int side = 0;
    std::vector<std::unique_ptr<fabric::EdgeStream>> ends;  // per fabric; the first is shown
  };
  Stream& StreamAt(fabric::Coord pe, int side);
  std::vector<std::unique_ptr<Stream>> streams_;
  bool stopped_ = false;
};

}  // namespace tessera::runtime
