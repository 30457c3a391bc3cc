// tessera.SdkRuntime (docs/python.md): the public SDK's runtime calls over runtime::Device.
//
// Commands run in the order issued, as in the SDK. A blocking command first runs the commands
// issued before it with nonblock=True, then itself; a nonblocking one is queued and returns a
// Task, and it runs when a later blocking command, task_wait() or stop() comes. A launch runs
// the fabric until it is quiescent again (Tessera's analogue of the SDK's command-stream
// unblock); a run that faults, passes the cycle limit or (cosim) finds the backends differing
// raises FaultError, DeadlockError or MismatchError, and the queued commands after it are
// dropped. Runs release the GIL; Ctrl-C stops one after whole cycles (KeyboardInterrupt).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "layout/image.h"
#include "runtime/device.h"
#include "trace/instruments.h"

namespace tessera::python {

enum class MemcpyDataType { k32Bit, k16Bit };

// A command issued with nonblock=True: done once it ran (a failing one raised from the call that
// ran it); `result` is what it gave: a RunResult (launch), a MemcpyResult (memcpy) or None.
struct Task {
  std::string what;  // "launch 'main'", "memcpy_h2d 'x'"
  bool done = false;
  pybind11::object result = pybind11::none();
};

// Everything SdkRuntime takes besides the image (the keyword arguments of the constructor).
struct SdkOptions {
  runtime::DeviceOptions device;
  uint64_t max_cycles = 10'000'000;
  bool host_port = false;  // memcpy through the host ports (cycles) instead of the back door
  bool quiet = false;      // keep debug records without printing them
  // Runs end when the fabric is settled, not only quiescent (runtime::Device::Run): what SDK
  // programs need, whose microthreads wait for the host's next stream (the cerebras package).
  bool settle = false;
  // Traces, timeline, heatmaps and counters (trace/instruments.h); attached at load().
  trace::InstrumentOptions instruments;
};

class SdkRuntime {
 public:
  SdkRuntime(layout::Image image, const SdkOptions& o);
  ~SdkRuntime();

  // The SDK's session: load() writes the image; run() starts the session (commands may follow);
  // stop() runs what is queued and ends it, returning the files written (waves).
  void Load();
  void Run();
  std::vector<std::string> Stop();

  // The exported symbol `name` (a dict: name, dtype, count, pes); throws ValueError.
  pybind11::dict GetId(const std::string& name) const;

  pybind11::object MemcpyH2D(const pybind11::object& dest, const pybind11::array& src, int px,
                             int py, int w, int h, int elem_per_pe, bool streaming,
                             runtime::Order order, MemcpyDataType data_type, bool nonblock,
                             const std::string& side);
  pybind11::object MemcpyD2H(const pybind11::array& dest, const pybind11::object& src, int px,
                             int py, int w, int h, int elem_per_pe, bool streaming,
                             runtime::Order order, MemcpyDataType data_type, bool nonblock,
                             const std::string& side);
  pybind11::object Launch(const std::string& name, const pybind11::args& args, bool nonblock,
                          const pybind11::object& region);

  // Clears every faulted PE's faults (runtime::Device::ClearFaults): the PE goes on at the
  // instruction that faulted. Returns the faults cleared, in words.
  std::vector<std::string> ClearFaults();

  // Runs the fabric until it is quiescent (what streams and data tasks need between commands).
  runtime::RunResult RunUntilQuiescent(std::optional<uint64_t> max_cycles);
  // Tessera's edge streams: wavelets into the edge port of PE(x, y) facing `side`, and what has
  // left through one (a structured array: cycle, color, ctrl, data).
  void StreamIn(int x, int y, const std::string& side, int color, const pybind11::array& data,
                bool ctrl, bool nonblock);
  pybind11::array StreamOut(int x, int y, const std::string& side);

  // The back door (zero time) for debugging: one 32-bit word of PE(x, y). `backend` "" writes
  // every backend; under cosim "func" or "rtl" writes one of them (to see co-simulation catch
  // it). A read under cosim raises MismatchError if the backends differ.
  void DebugWrite(int x, int y, uint32_t address, uint32_t value, const std::string& backend);
  uint32_t DebugRead(int x, int y, uint32_t address);

  pybind11::object TaskWait(const std::shared_ptr<Task>& task);

  uint64_t Cycle() const;
  bool stopped() const { return stopped_; }
  const layout::Image& image() const { return image_; }
  const SdkOptions& options() const { return opt_; }
  std::optional<runtime::RunResult> last_result() const { return last_; }
  // Debug-port records so far: (cycle, x, y, value, text).
  pybind11::list DebugRecords() const;
  runtime::Device& device();
  // The counters (profile= or heatmap=) as JSON text, after stop(); empty if none.
  std::string CountersJson() const;
  // What the instruments wrote, after stop() ("instruction trace: 212 rows to t.csv").
  const std::vector<std::string>& instrument_lines() const { return instrument_lines_; }

 private:
  struct Command {
    std::shared_ptr<Task> task;
    std::function<pybind11::object()> fn;
  };
  // Queues `fn` (nonblock) and returns its Task, or runs what is queued and then `fn`.
  pybind11::object Issue(const std::string& what, bool nonblock,
                         std::function<pybind11::object()> fn);
  void Drain(const Task* until = nullptr);
  void CheckStarted(const char* call) const;
  runtime::RunResult RunFabric(uint64_t max_cycles, const std::string& what);
  runtime::MemcpyOptions CopyOptions(runtime::Order order, MemcpyDataType t) const;
  arch::ElemType SymbolType(const std::string& symbol, const runtime::Region& r,
                            const char* call) const;
  // Wavelets that left through the port of `pe` facing `side`, taken from the device so far.
  std::deque<fabric::EdgeStream::Wavelet>& OutBuffer(fabric::Coord pe, int side);

  layout::Image image_;
  SdkOptions opt_;
  std::unique_ptr<runtime::Device> dev_;
  std::unique_ptr<trace::Instruments> instruments_;
  std::vector<std::string> instrument_lines_;
  bool loaded_ = false, started_ = false, stopped_ = false;
  std::deque<Command> queue_;
  std::optional<runtime::RunResult> last_;
  std::vector<ce::DebugRecord> debug_;
  std::map<std::pair<int, int>, std::deque<fabric::EdgeStream::Wavelet>> out_;  // (pe index, side)
};

// "W", "E", "N", "S" (any case) -> arch::Dir; throws ValueError naming `arg`.
int ParseSide(const std::string& side, const std::string& arg);

}  // namespace tessera::python
