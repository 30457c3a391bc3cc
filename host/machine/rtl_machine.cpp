// The RTL as a runtime machine: verilated tiles of full PEs. With the SystemC glue (the default)
// the host reaches the fabric through its TLM-2.0 target socket (rtl/sc_host_port.h): the back
// door as transport_dbg, the host port as b_transport. The plain-loop glue has no SystemC kernel,
// so it is reached directly; tests that build several fabrics in one process use it.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

// clang-format off
#include "verilated.h"
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
// clang-format on

#include "machine/machine.h"
#include "rtl/rtl_fabric.h"
#include "rtl/sc_host_port.h"
#include "waves/save_file.h"

namespace tessera::machine {
namespace {

// The runtime's side of the TLM link: an initiator socket and nothing else.
class HostInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostInitiator> socket;
  explicit HostInitiator(sc_core::sc_module_name name)
      : sc_core::sc_module(name), socket("socket") {}
};

class RtlMachine final : public Machine {
 public:
  explicit RtlMachine(const RtlMachineOptions& o) {
    rtl::RtlFabricOptions opt;
    opt.width = o.width;
    opt.height = o.height;
    opt.tile_w = o.tile.first;
    opt.tile_h = o.tile.second;
    opt.ce = true;
    opt.wave_path = o.wave_path;
    opt.wave_from = o.wave_from;
    opt.wave_to = o.wave_to;
    opt.wave_x0 = o.wave_x0;
    opt.wave_y0 = o.wave_y0;
    opt.wave_x1 = o.wave_x1;
    opt.wave_y1 = o.wave_y1;
    opt.pe_x0 = o.pe_origin.x;
    opt.pe_y0 = o.pe_origin.y;
    opt.skip_idle_tiles = !o.clock_idle_tiles;
    opt.skip_input_region = !o.eval_input_region;
    opt.threads = o.threads;
    opt_ = opt;
    if (o.systemc && o.threads == 1) {
      fab_ = rtl::MakeScRtlFabric(opt);
      target_ = std::make_unique<rtl::HostPortTarget>("host_port", *fab_);
      initiator_ = std::make_unique<HostInitiator>("host");
      initiator_->socket.bind(target_->socket);
    } else {
      fab_ = std::make_unique<rtl::LoopRtlFabric>(opt);
    }
  }

  std::string Name() const override { return "rtl"; }
  fabric::Fabric& Fabric() override { return *fab_; }

  void Write(fabric::Coord pe, uint16_t addr, uint32_t value) override {
    fab_->CheckContains(pe);
    if (!initiator_) return fab_->WriteReg(pe, addr, value);
    Transact(pe, addr, &value, true, false);
  }
  uint32_t Read(fabric::Coord pe, uint16_t addr) override {
    fab_->CheckContains(pe);
    if (!initiator_) return fab_->ReadReg(pe, addr);
    uint32_t v = 0;
    Transact(pe, addr, &v, false, false);
    return v;
  }
  void PortWrite(fabric::Coord pe, uint16_t addr, uint32_t value) override {
    fab_->CheckContains(pe);
    if (!initiator_) return fab_->WriteReg(pe, addr, value);
    Transact(pe, addr, &value, true, true);
  }
  uint32_t PortRead(fabric::Coord pe, uint16_t addr) override {
    fab_->CheckContains(pe);
    if (!initiator_) return fab_->ReadReg(pe, addr);
    uint32_t v = 0;
    Transact(pe, addr, &v, false, true);
    return v;
  }
  int PortOf(fabric::Coord pe) override {
    fab_->CheckContains(pe);
    return fab_->TileOf(pe);
  }

  uint64_t Run(uint64_t cycles) override { return fab_->Run(cycles); }

  std::vector<ce::DebugRecord> TakeDebug() override {
    std::vector<ce::DebugRecord> out = fab_->TakeDebugRecords();  // Char already joined
    SortByCyclePe(out);
    return out;
  }

  void SetTaskLog(bool on) override { fab_->SetTaskLog(on); }
  std::vector<TaskStart> TakeTaskLog() override {
    std::vector<TaskStart> out = fab_->TakeTaskLog();
    SortByCyclePe(out);
    return out;
  }

  uint64_t Retired(fabric::Coord pe) override { return fab_->Retired(pe); }

  // The register files and SRAM straight from the tile's model when its arrays are known
  // (TileModel::Core), else through the back door.
  void ReadCore(fabric::Coord pe, CoreRegs& out, bool dsrs) override {
    const rtl::CoreArrays c = fab_->Core(pe);
    if (!c.gpr || (dsrs && !c.dsr)) return Machine::ReadCore(pe, out, dsrs);
    std::copy(c.gpr, c.gpr + arch::kNumGprs, out.gpr.begin());
    if (dsrs) std::copy(c.dsr, c.dsr + arch::kNumDsrs, out.dsr.begin());
  }
  void ReadSram(fabric::Coord pe, uint16_t addr, uint8_t* out, size_t n) override {
    const rtl::CoreArrays c = fab_->Core(pe);
    if (!c.sram) return Machine::ReadSram(pe, addr, out, n);
    // Word i holds bytes 4i..4i+3 in its value's order: the whole words as they are on a
    // little-endian host, the bytes at either end one by one.
    size_t i = 0;
    auto byte = [&](uint32_t a) { return static_cast<uint8_t>(c.sram[a >> 2] >> (8 * (a & 3))); };
    for (; i < n && (addr + i) % 4; ++i) out[i] = byte(addr + static_cast<uint32_t>(i));
    if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
      const size_t words = (n - i) / 4;
      std::memcpy(out + i, c.sram + (addr + i) / 4, words * 4);
      i += words * 4;
    }
    for (; i < n; ++i) out[i] = byte(addr + static_cast<uint32_t>(i));
  }

  uint64_t Step(std::vector<fabric::PeEvents>& events) override {
    const uint64_t cycle = fab_->Cycle();
    fab_->Run(1);  // always one cycle: a run stops only after a cycle
    const int n = fab_->NumPes();
    events.resize(n);
    for (int i = 0; i < n; ++i) {
      const fabric::Coord c = fab_->At(i);
      const fabric::PeEvents e = fab_->LastEvents(c);
      fabric::PeEvents& x = events[i];
      x.Clear();
      x.retire = e.retire;
      x.retire_pc = e.retire_pc;
      x.task_start = e.task_start;
      x.task = e.task;
      x.faulted = fab_->Faulted(c);
      x.quiet = fab_->CeQuiet(c);
      x.settled = fab_->CeSettled(c);
    }
    for (fabric::DebugRecord& r : fab_->TakeDebugRecords())
      events[fab_->Index({r.x, r.y})].debug.push_back(std::move(r));
    fab_->TakeTaskLog();
    return cycle;
  }

  std::vector<std::string> Close() override {
    const uint64_t end = fab_->Cycle();
    target_.reset();
    initiator_.reset();
    fab_.reset();  // closes the FST
    if (opt_.wave_path.empty()) return {};
    return {opt_.wave_path, waves::WriteGtkwSave(opt_.wave_path, opt_, end)};
  }

 private:
  void Transact(fabric::Coord pe, uint16_t addr, uint32_t* word, bool write, bool timed) {
    tlm::tlm_generic_payload p;
    p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(rtl::HostPortTarget::Address(*fab_, pe, addr));
    p.set_data_ptr(reinterpret_cast<unsigned char*>(word));
    p.set_data_length(4);
    p.set_streaming_width(4);
    p.set_byte_enable_ptr(nullptr);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (timed) {
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      initiator_->socket->b_transport(p, delay);
    } else {
      initiator_->socket->transport_dbg(p);
    }
    if (p.get_response_status() != tlm::TLM_OK_RESPONSE)
      throw std::runtime_error(fmt::format("host port: {} of PE({},{}) address 0x{:04x}: {}",
                                           write ? "write" : "read", pe.x, pe.y, addr,
                                           p.get_response_string()));
  }

  rtl::RtlFabricOptions opt_;
  std::unique_ptr<rtl::RtlFabric> fab_;
  std::unique_ptr<rtl::HostPortTarget> target_;
  std::unique_ptr<HostInitiator> initiator_;
};

}  // namespace

std::unique_ptr<Machine> MakeRtlMachine(const RtlMachineOptions& opt) {
  return std::make_unique<RtlMachine>(opt);
}

}  // namespace tessera::machine
