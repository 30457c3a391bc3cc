// The functional model as a runtime machine: a compute engine per PE on a FuncFabric.
#include <memory>
#include <vector>

#include "ce/ce.h"
#include "ce/ce_endpoint.h"
#include "func/func_fabric.h"
#include "runtime/machine.h"

namespace tessera::runtime {
namespace {

// Collects the retired instructions of the watched PE from its trace records.
class RetireSink final : public ce::TraceSink {
 public:
  void Record(const ce::TraceRecord& r) override {
    if (r.kind == ce::TraceRecord::Kind::kRetire) retires.push_back({r.cycle, r.pc});
  }
  std::vector<Retire> retires;
};

class FuncMachine final : public Machine {
 public:
  FuncMachine(int width, int height, std::pair<int, int> port_tile)
      : fab_(width, height), port_tile_(port_tile) {
    for (int i = 0; i < fab_.NumPes(); ++i) {
      const fabric::Coord c = fab_.At(i);
      ces_.push_back(std::make_unique<ce::Ce>(static_cast<uint16_t>(c.x),
                                              static_cast<uint16_t>(c.y), &fab_.RouterRegsOf(c)));
      endpoints_.push_back(std::make_unique<ce::CeEndpoint>(*ces_.back()));
      fab_.SetEndpoint(c, endpoints_.back().get());
    }
    task_logs_.resize(fab_.NumPes());
  }

  std::string Name() const override { return "func"; }
  fabric::Fabric& Fabric() override { return fab_; }
  void Write(fabric::Coord pe, uint16_t addr, uint32_t value) override {
    At(pe).HostWrite(addr, value);
  }
  uint32_t Read(fabric::Coord pe, uint16_t addr) override { return At(pe).HostRead(addr); }
  int PortOf(fabric::Coord pe) override {
    fab_.CheckContains(pe);
    const int tiles_x = fab_.Width() / port_tile_.first;
    return (pe.y / port_tile_.second) * tiles_x + pe.x / port_tile_.first;
  }
  uint64_t Run(uint64_t cycles) override { return fab_.Run(cycles); }

  std::vector<ce::DebugRecord> TakeDebug() override {
    std::vector<ce::DebugRecord> out;
    for (auto& c : ces_) {
      if (c->DebugRecords().empty()) continue;
      std::vector<ce::DebugRecord> r = c->TakeDebugRecords();
      out.insert(out.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
    }
    SortByCyclePe(out);
    return out;
  }

  void SetTaskLog(bool on) override {
    for (int i = 0; i < fab_.NumPes(); ++i) ces_[i]->SetTaskLog(on ? &task_logs_[i] : nullptr);
  }
  std::vector<TaskStart> TakeTaskLog() override {
    std::vector<TaskStart> out;
    for (int i = 0; i < fab_.NumPes(); ++i) {
      for (const ce::Ce::TaskStart& t : task_logs_[i]) out.push_back({t.cycle, fab_.At(i), t.task});
      task_logs_[i].clear();
    }
    SortByCyclePe(out);
    return out;
  }

  uint64_t Retired(fabric::Coord pe) override { return At(pe).Retired(); }

  void Watch(fabric::Coord pe) override {
    if (watched_) watched_->SetTraceSink(nullptr);
    watched_ = &At(pe);
    watched_->SetTraceSink(&sink_);
  }
  std::vector<Retire> TakeRetires() override {
    std::vector<Retire> out;
    out.swap(sink_.retires);
    return out;
  }

 private:
  ce::Ce& At(fabric::Coord pe) {
    fab_.CheckContains(pe);
    return *ces_[fab_.Index(pe)];
  }

  func::FuncFabric fab_;
  std::pair<int, int> port_tile_;
  std::vector<std::unique_ptr<ce::Ce>> ces_;
  std::vector<std::unique_ptr<ce::CeEndpoint>> endpoints_;
  std::vector<std::vector<ce::Ce::TaskStart>> task_logs_;
  ce::Ce* watched_ = nullptr;
  RetireSink sink_;
};

}  // namespace

std::unique_ptr<Machine> MakeFuncMachine(int width, int height, std::pair<int, int> port_tile) {
  return std::make_unique<FuncMachine>(width, height, port_tile);
}

}  // namespace tessera::runtime
