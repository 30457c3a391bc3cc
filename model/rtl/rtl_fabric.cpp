#include "rtl/rtl_fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "verilated.h"
#include "verilated_fst_c.h"

namespace tessera::rtl {

void ValidateRtlOptions(const RtlFabricOptions& opt) {
  if (opt.width < 1 || opt.height < 1)
    throw std::invalid_argument(
        fmt::format("--fabric {}x{}: needs at least 1x1 PEs", opt.width, opt.height));
  if (opt.width > 0xFFFF || opt.height > 0xFFFF)
    throw std::invalid_argument("--fabric: coordinates are 16-bit, at most 65535 per side");
  bool built = false;
  for (auto [w, h] : BuiltTileShapes(opt.ce)) built |= (w == opt.tile_w && h == opt.tile_h);
  if (!built)
    throw std::invalid_argument(
        fmt::format("--tile {}x{}: not verilated in this build{} (built: {})", opt.tile_w,
                    opt.tile_h, opt.ce ? " for full PEs" : "", BuiltTileShapesText(opt.ce)));
  if (opt.width % opt.tile_w || opt.height % opt.tile_h)
    throw std::invalid_argument(
        fmt::format("--fabric {}x{} is not a whole number of --tile {}x{} tiles", opt.width,
                    opt.height, opt.tile_w, opt.tile_h));
  if (opt.threads < 1 || opt.threads > 64)
    throw std::invalid_argument(fmt::format("--threads {}: 1 to 64", opt.threads));
  if (opt.wave_from >= opt.wave_to)
    throw std::invalid_argument(fmt::format(
        "--wave-window {}:{}: empty; FROM must be below TO (cycles [FROM, TO) are dumped)",
        opt.wave_from, opt.wave_to));
  const WaveRegion r = ResolveWaveRegion(opt);
  const std::string region =
      fmt::format("--wave-region {},{}:{},{}", opt.wave_x0, opt.wave_y0, opt.wave_x1, opt.wave_y1);
  if (r.x0 < 0 || r.y0 < 0 || r.x0 >= opt.width || r.y0 >= opt.height || opt.wave_x1 < -1 ||
      opt.wave_y1 < -1 || r.x1 >= opt.width || r.y1 >= opt.height)
    throw std::invalid_argument(
        fmt::format("{}: outside the {}x{} fabric (PE columns 0..{}, rows 0..{}; -1 for X1 or Y1 "
                    "is the last)",
                    region, opt.width, opt.height, opt.width - 1, opt.height - 1));
  if (r.x1 < r.x0 || r.y1 < r.y0)
    throw std::invalid_argument(
        fmt::format("{}: empty; X0,Y0 is the north-west PE and X1,Y1 the south-east one", region));
}

WaveRegion ResolveWaveRegion(const RtlFabricOptions& opt) {
  return {opt.wave_x0, opt.wave_y0, opt.wave_x1 == -1 ? opt.width - 1 : opt.wave_x1,
          opt.wave_y1 == -1 ? opt.height - 1 : opt.wave_y1};
}

RtlFabric::RtlFabric(const RtlFabricOptions& opt) : opt_(opt) {
  ValidateRtlOptions(opt);
  tiles_x_ = opt.width / opt.tile_w;
  tiles_y_ = opt.height / opt.tile_h;
  ctx_ = std::make_unique<VerilatedContext>();
  ctx_->fatalOnError(false);
  if (!opt.wave_path.empty()) ctx_->traceEverOn(true);
  tiles_.resize(tiles_x_ * tiles_y_);
  for (int ty = 0; ty < tiles_y_; ++ty) {
    for (int tx = 0; tx < tiles_x_; ++tx) {
      Tile& t = tiles_[TileIndex(tx, ty)];
      t.tx = tx;
      t.ty = ty;
      t.model = MakeTileModel(opt.tile_w, opt.tile_h, opt.ce, ctx_.get(),
                              fmt::format("tile_x{}_y{}", tx * opt.tile_w, ty * opt.tile_h));
      t.io.Resize(opt.tile_w, opt.tile_h);
      // Edges of the fabric are tied off: a wavelet routed there is a fault.
      for (int s = 0; s < kNumSides; ++s) {
        if (Neighbour(TileIndex(tx, ty), static_cast<Side>(s)) < 0)
          std::fill(t.io.tied[s].begin(), t.io.tied[s].end(), 1);
      }
      t.model->Reset(static_cast<uint16_t>(opt.pe_x0 + tx * opt.tile_w),
                     static_cast<uint16_t>(opt.pe_y0 + ty * opt.tile_h), t.io);
      t.model->SetSkipIdle(opt.skip_idle_tiles);
      t.model->SetSkipInputRegion(opt.skip_input_region);
    }
  }
  for (int t = 0; t < NumTiles(); ++t) {
    for (int s = 0; s < kNumSides; ++s) {
      if (Neighbour(t, static_cast<Side>(s)) < 0) edge_sides_.push_back({t, static_cast<Side>(s)});
    }
  }
  for (int s = 0; s < kNumSides; ++s)
    edges_[s].resize(s == kWest || s == kEast ? opt.height : opt.width);
  endpoints_.assign(NumPes(), nullptr);
  events_.assign(NumPes(), 0);
  retired_.assign(NumPes(), 0);
  quiet_.assign(NumPes(), 1);
  settled_.assign(NumPes(), 1);
  char_lines_.assign(NumPes(), std::string());
  fault_cycle_.assign(NumPes(), fabric::kNever);
  if (!opt.wave_path.empty()) {
    tfp_ = std::make_unique<VerilatedFstC>();
    // One cycle per time unit, and a unit GTKWave never rescales (seconds: it shows "2000 sec",
    // never "2 ns"), so the axis reads in cycles (waves/README.md, "Time").
    tfp_->set_time_unit("1s");
    tfp_->set_time_resolution("1s");
    // Only the tiles overlapping the region: the others are not in the file at all.
    const WaveRegion r = ResolveWaveRegion(opt);
    for (auto& t : tiles_) {
      const int x0 = t.tx * opt.tile_w, y0 = t.ty * opt.tile_h;
      if (x0 <= r.x1 && x0 + opt.tile_w > r.x0 && y0 <= r.y1 && y0 + opt.tile_h > r.y0) {
        t.model->Trace(tfp_.get());
        t.model->SetSkipIdle(false);  // its signals are dumped: it is evaluated every cycle
      }
    }
    tfp_->open(opt.wave_path.c_str());
    if (!tfp_->isOpen())
      throw std::runtime_error(fmt::format("--wave {}: cannot open for writing", opt.wave_path));
  }
}

RtlFabric::~RtlFabric() {
  if (tfp_ && tfp_->isOpen()) tfp_->close();
  // Verilator 5.006 erases a model's scopes through the thread's current context, which is the
  // context made last: with two fabrics alive, or after one died, it is not this one's (and may
  // be gone). The tiles die after this body, while ctx_ still lives.
  Verilated::threadContextp(ctx_.get());
}

int RtlFabric::Neighbour(int t, Side s) const {
  int tx = t % tiles_x_, ty = t / tiles_x_;
  switch (s) {
    case kWest:
      return tx > 0 ? t - 1 : -1;
    case kEast:
      return tx + 1 < tiles_x_ ? t + 1 : -1;
    case kNorth:
      return ty > 0 ? t - tiles_x_ : -1;
    case kSouth:
      return ty + 1 < tiles_y_ ? t + tiles_x_ : -1;
  }
  return -1;
}

uint64_t RtlFabric::TileCyclesClocked() const {
  uint64_t n = 0;
  for (const Tile& t : tiles_) n += t.model->Clocked();
  return n;
}

uint64_t RtlFabric::TileCyclesWithoutInputRegion() const {
  uint64_t n = 0;
  for (const Tile& t : tiles_) n += t.model->WithoutInputRegion();
  return n;
}

std::pair<TileModel*, int> RtlFabric::Locate(fabric::Coord pe) {
  CheckContains(pe);
  Tile& t = tiles_[TileIndex(pe.x / opt_.tile_w, pe.y / opt_.tile_h)];
  return {t.model.get(), (pe.y % opt_.tile_h) * opt_.tile_w + pe.x % opt_.tile_w};
}

void RtlFabric::WriteReg(fabric::Coord pe, uint16_t addr, uint32_t value) {
  auto [model, local] = Locate(pe);
  AttendTile(TileOf(pe), true);
  // A frozen edge moves nothing else, in this tile or elsewhere: zero simulated time.
  model->WriteReg(local, addr, value);
  quiet_stale_ = opt_.ce;
}

uint32_t RtlFabric::ReadReg(fabric::Coord pe, uint16_t addr) {
  auto [model, local] = Locate(pe);
  AttendTile(TileOf(pe), false);
  return model->ReadReg(local, addr);
}

void RtlFabric::SetEndpoint(fabric::Coord pe, fabric::RampEndpoint* ep) {
  CheckContains(pe);
  if (opt_.ce && ep)
    throw std::invalid_argument(fmt::format(
        "PE({},{}): this RTL fabric has full PEs; their ramps end at their own CEs", pe.x, pe.y));
  endpoints_[Index(pe)] = ep;
}

void RtlFabric::SetEdgeEndpoint(fabric::Coord pe, int dir, fabric::RampEndpoint* ep) {
  CheckEdgePort(pe, dir);
  const Side s = static_cast<Side>(dir);
  const int along = (s == kWest || s == kEast) ? pe.y : pe.x;
  EdgeLink& e = edges_[s][along];
  Tile& tile = tiles_[TileIndex(pe.x / opt_.tile_w, pe.y / opt_.tile_h)];
  const int j = (s == kWest || s == kEast) ? pe.y % opt_.tile_h : pe.x % opt_.tile_w;
  if (e.ep && ep != e.ep && (arch::Link::Valid(tile.io.out[s][j]) || arch::Link::Valid(e.link_q)))
    ThrowEdgeLinkBusy(pe, dir);
  if (!e.ep != !ep) {
    for (EdgeSide& side : edge_sides_)
      if (side.tile == TileOf(pe) && side.side == s) side.endpoints += ep ? 1 : -1;
  }
  e.ep = ep;
  tile.io.tied[s][j] = ep ? 0 : 1;
  AttendTile(TileOf(pe), true);
  tile.model->ApplyTies(tile.io);
}

bool RtlFabric::WaveletsInFlight() {
  for (const Tile& t : tiles_)
    if (t.io.busy) return true;
  for (const auto& side : edges_)
    for (const EdgeLink& e : side)
      if (arch::Link::Valid(e.link_q)) return true;
  return false;
}

void RtlFabric::TickEdgeEndpoints(int t, Side s, const std::vector<uint64_t>& out,
                                  const std::vector<uint8_t>& cout, std::vector<uint64_t>& in,
                                  std::vector<uint8_t>& cin) {
  const Tile& tile = tiles_[t];
  const int base = (s == kWest || s == kEast) ? tile.ty * opt_.tile_h : tile.tx * opt_.tile_w;
  for (size_t j = 0; j < in.size(); ++j) {
    EdgeLink& e = edges_[s][base + j];
    in[j] = e.link_q;  // sent in the last cycle: it reaches the router now
    e.link_q = 0;
    cin[j] = 0;
    if (!e.ep) continue;
    scratch_.from_router = out[j];
    scratch_.credit_from_router = cout[j];
    scratch_.to_router = 0;
    scratch_.credit_to_router = 0;
    e.ep->Tick(cycle_, scratch_);
    e.link_q = scratch_.to_router;
    cin[j] = scratch_.credit_to_router;
    if (link_log_on_ && arch::Link::Valid(e.link_q))
      LogLink(cycle_, SidePe(tile, s, static_cast<int>(j)), s, true, e.link_q);
  }
}

void RtlFabric::TickEndpoints(int t, const std::vector<uint64_t>& ramp_out,
                              const std::vector<uint8_t>& ramp_cout, std::vector<uint64_t>& ramp_in,
                              std::vector<uint8_t>& ramp_cin) {
  const Tile& tile = tiles_[t];
  const int tw = opt_.tile_w, th = opt_.tile_h;
  for (int ly = 0; ly < th; ++ly) {
    for (int lx = 0; lx < tw; ++lx) {
      int local = ly * tw + lx;
      const fabric::Coord pe{tile.tx * tw + lx, tile.ty * th + ly};
      fabric::RampEndpoint* ep = endpoints_[Index(pe)];
      constexpr int kRamp = static_cast<int>(arch::Dir::kRamp);
      if (link_log_on_ && arch::Link::Valid(ramp_out[local]))
        LogLink(cycle_, pe, kRamp, false, ramp_out[local]);
      if (!ep) {
        ramp_in[local] = 0;
        ramp_cin[local] = 0;
        continue;
      }
      scratch_.from_router = ramp_out[local];
      scratch_.credit_from_router = ramp_cout[local];
      scratch_.to_router = 0;
      scratch_.credit_to_router = 0;
      ep->Tick(cycle_, scratch_);
      ramp_in[local] = scratch_.to_router;
      ramp_cin[local] = scratch_.credit_to_router;
      if (link_log_on_ && arch::Link::Valid(ramp_in[local]))  // full PEs: Observe logs the CE's
        LogLink(cycle_, pe, kRamp, true, ramp_in[local]);
    }
  }
}

void RtlFabric::NoteTileFaults(int t, uint64_t fault_bits, uint64_t cycle) {
  const Tile& tile = tiles_[t];
  for (int local = 0; local < opt_.tile_w * opt_.tile_h; ++local) {
    if (!((fault_bits >> local) & 1)) continue;
    int x = tile.tx * opt_.tile_w + local % opt_.tile_w;
    int y = tile.ty * opt_.tile_h + local / opt_.tile_w;
    uint64_t& fc = fault_cycle_[Index({x, y})];
    if (fc == fabric::kNever) {
      fc = cycle;
      fault_pending_ = true;
    }
  }
}

fabric::Coord RtlFabric::SidePe(const Tile& tile, int s, int j) const {
  const int x0 = tile.tx * opt_.tile_w, y0 = tile.ty * opt_.tile_h;
  switch (s) {
    case kWest:
      return {x0, y0 + j};
    case kEast:
      return {x0 + opt_.tile_w - 1, y0 + j};
    case kSouth:
      return {x0 + j, y0 + opt_.tile_h - 1};
    default:
      return {x0 + j, y0};
  }
}

bool RtlFabric::ObservesLink(fabric::Coord pe, int port, bool into) const {
  if (!Fabric::ObservesLink(pe, port, into)) return false;
  switch (port) {  // router outputs: only those on the tile's sides are ports of the model
    case kWest:
      return pe.x % opt_.tile_w == 0;
    case kEast:
      return pe.x % opt_.tile_w == opt_.tile_w - 1;
    case kSouth:
      return pe.y % opt_.tile_h == opt_.tile_h - 1;
    case kNorth:
      return pe.y % opt_.tile_h == 0;
    default:
      return true;  // the ramp
  }
}

void RtlFabric::ObserveTile(int t, uint64_t cycle) {
  Tile& tile = tiles_[t];
  const TileIo& io = tile.io;
  tile.observed_clear = io.observers_clear;
  if (io.want_blocked) {
    for (int local = 0; local < opt_.tile_w * opt_.tile_h; ++local) {
      const int i = Index({tile.tx * opt_.tile_w + local % opt_.tile_w,
                           tile.ty * opt_.tile_h + local / opt_.tile_w});
      for (int d = 0; d < static_cast<int>(arch::kNumDirs); ++d)
        if (const uint32_t m = io.blocked[local * arch::kNumDirs + d]) AddBackPressure(i, d, m);
    }
  }
  if (link_log_on_) {  // the tile's side outputs after the edge: sent in this cycle
    for (int s = 0; s < kNumSides; ++s)
      for (size_t j = 0; j < io.out[s].size(); ++j)
        if (arch::Link::Valid(io.out[s][j]))
          LogLink(cycle, SidePe(tile, s, static_cast<int>(j)), s, false, io.out[s][j]);
  }
  if (!opt_.ce) return;
  quiet_stale_ = false;  // every tile is observed in each cycle before anyone asks
  for (int local = 0; local < opt_.tile_w * opt_.tile_h; ++local) {
    const int x = tile.tx * opt_.tile_w + local % opt_.tile_w;
    const int y = tile.ty * opt_.tile_h + local / opt_.tile_w;
    const int i = Index({x, y});
    const uint64_t d = io.dbg[local];
    if (d >> 63) {
      fabric::DebugRecord r;
      r.cycle = cycle;
      r.x = static_cast<uint16_t>(x);
      r.y = static_cast<uint16_t>(y);
      r.fmt = static_cast<uint8_t>((d >> 32) & 7);
      r.value = static_cast<uint32_t>(d);
      fabric::AddDebugStore(char_lines_[i], r, debug_);
    }
    events_[i] = io.events[local];
    retired_[i] += io.events[local] >> 31;
    if (link_log_on_) {  // the ramp inside the PE: the CE's wavelets, and the router's
      constexpr int kRamp = static_cast<int>(arch::Dir::kRamp);
      if (arch::Link::Valid(io.ramp_sent[local]))
        LogLink(cycle, {x, y}, kRamp, true, io.ramp_sent[local]);
      // What the router sends down the ramp in this cycle reaches the CE's side in the next, as
      // an endpoint would tick with it (TickEndpoints): logged then (FlushRampDown).
      if (arch::Link::Valid(io.ramp_out[local])) {
        fabric::LinkEvent& e = ramp_down_.emplace_back();
        e.cycle = cycle + 1;
        e.pe = {x, y};
        e.port = static_cast<uint8_t>(kRamp);
        e.into = false;
        e.word = io.ramp_out[local];
      }
    }
    if (task_log_on_ && ((io.events[local] >> 30) & 1))
      task_log_.push_back({cycle, {x, y}, static_cast<int>((io.events[local] >> 24) & 31)});
    quiet_[i] = static_cast<uint8_t>((io.quiet >> local) & 1);
    settled_[i] = static_cast<uint8_t>((io.settled >> local) & 1);
  }
}

void RtlFabric::FlushRampDown(uint64_t cycle) {
  size_t n = 0;  // in the order logged, so by cycle
  while (n < ramp_down_.size() && ramp_down_[n].cycle <= cycle) ++n;
  if (n == 0) return;
  link_log_.insert(link_log_.end(), ramp_down_.begin(), ramp_down_.begin() + n);
  ramp_down_.erase(ramp_down_.begin(), ramp_down_.begin() + n);
}

std::vector<fabric::DebugRecord> RtlFabric::TakeDebugRecords() {
  std::vector<fabric::DebugRecord> out;
  out.swap(debug_);
  return out;
}

std::vector<fabric::TaskStart> RtlFabric::TakeTaskLog() {
  std::vector<fabric::TaskStart> out;
  out.swap(task_log_);
  return out;
}

fabric::PeEvents RtlFabric::LastEvents(fabric::Coord pe) const {
  CheckContains(pe);
  const uint32_t w = events_[Index(pe)];
  fabric::PeEvents e;
  e.retire = (w >> 31) & 1;
  e.task_start = (w >> 30) & 1;
  e.task = static_cast<uint8_t>((w >> 24) & 31);
  e.retire_pc = static_cast<uint16_t>(w);
  return e;
}

bool RtlFabric::CeQuiet(fabric::Coord pe) {
  CheckContains(pe);
  RefreshQuiet();  // after a back-door write: every PE's bits from CeStatus
  return quiet_[Index(pe)] != 0;
}

void RtlFabric::RefreshQuiet() {
  if (!quiet_stale_) return;
  for (int i = 0; i < NumPes(); ++i) {
    const uint32_t status = ReadReg(At(i), arch::CeStatus::kAddr);
    quiet_[i] = static_cast<uint8_t>(arch::CeStatus::Quiet(status));
    settled_[i] = static_cast<uint8_t>(arch::CeStatus::Settled(status));
  }
  quiet_stale_ = false;
}

bool RtlFabric::CeSettled(fabric::Coord pe) {
  CheckContains(pe);
  RefreshQuiet();
  return settled_[Index(pe)] != 0;
}

bool RtlFabric::AllQuiet() {
  RefreshQuiet();
  for (uint8_t q : quiet_)
    if (!q) return false;
  return true;
}

bool RtlFabric::AllSettled() {
  RefreshQuiet();
  for (uint8_t q : settled_)
    if (!q) return false;
  return true;
}

bool RtlFabric::Settled() {
  if (WaveletsInFlight() || (opt_.ce && !AllSettled())) return false;
  for (const fabric::RampEndpoint* ep : endpoints_)
    if (ep && !ep->Settled()) return false;
  for (const auto& side : edges_)
    for (const EdgeLink& e : side)
      if (e.ep && !e.ep->Settled()) return false;
  return true;
}

bool RtlFabric::Quiescent() {
  if (WaveletsInFlight() || (opt_.ce && !AllQuiet())) return false;
  for (const fabric::RampEndpoint* ep : endpoints_)
    if (ep && !ep->Quiet()) return false;
  for (const auto& side : edges_)
    for (const EdgeLink& e : side)
      if (e.ep && !e.ep->Quiet()) return false;
  return true;
}

std::vector<fabric::FaultRecord> RtlFabric::Faults() {
  std::vector<fabric::FaultRecord> out;
  for (int i = 0; i < NumPes(); ++i) {
    if (fault_cycle_[i] == fabric::kNever) continue;
    fabric::Coord c = At(i);
    fabric::FaultRecord f{c, fault_cycle_[i], ReadReg(c, arch::RouterFault::kAddr)};
    if (opt_.ce) {
      f.ce_status = ReadReg(c, arch::FaultStatus::kAddr);
      f.ce_pc = ReadReg(c, arch::FaultPc::kAddr);
      f.ce_addr = ReadReg(c, arch::FaultAddr::kAddr);
      f.ce_info = ReadReg(c, arch::FaultInfo::kAddr);
    }
    out.push_back(f);
  }
  return out;
}

void RtlFabric::DumpWaves(uint64_t cycle) {
  if (!WaveCycle(cycle)) return;
  // The first dump writes every signal (Verilator's full dump), later ones only changes.
  tfp_->dump(cycle);
  if (cycle + 1 == opt_.wave_to) tfp_->close();  // the window is complete: finish the file
}

void RtlFabric::CheckAssertions() const {
  if (ctx_->gotError())
    throw std::runtime_error(fmt::format(
        "an RTL assertion failed in cycle {} (its message is above): the run is not valid",
        cycle_ ? cycle_ - 1 : 0));
}

// ---- The plain-loop glue ----

LoopRtlFabric::LoopRtlFabric(const RtlFabricOptions& opt) : RtlFabric(opt) {
  if (opt.threads > 1 && NumTiles() > 1)
    pool_ = std::make_unique<util::WorkerPool>(std::min(opt.threads, NumTiles()));
  // Precompute every copy from a tile output to its neighbour's input, by the tile copied from.
  link_copies_.resize(static_cast<size_t>(NumTiles()));
  credit_copies_.resize(static_cast<size_t>(NumTiles()));
  for (int t = 0; t < NumTiles(); ++t) {
    for (int s = 0; s < kNumSides; ++s) {
      int n = Neighbour(t, static_cast<Side>(s));
      if (n < 0) continue;
      TileIo& me = tiles_[t].io;
      TileIo& other = tiles_[n].io;
      Side o = Opposite(static_cast<Side>(s));
      for (size_t i = 0; i < me.in[s].size(); ++i) {
        link_copies_[static_cast<size_t>(n)].push_back({&other.out[o][i], &me.in[s][i], t});
        credit_copies_[static_cast<size_t>(n)].push_back({&other.cout[o][i], &me.cin[s][i], t});
      }
    }
  }
  can_sleep_ = opt.ce && !Tracing();
  asleep_.assign(static_cast<size_t>(NumTiles()), 0);
  evaluated_.assign(static_cast<size_t>(NumTiles()), 0);
}

void LoopRtlFabric::AttendTile(int t, bool wake) {
  if (!asleep_[static_cast<size_t>(t)]) return;
  // Its own cycle count catches up with the cycles it slept through (as if it had skipped each).
  Tile& tile = tiles_[static_cast<size_t>(t)];
  if (!tile.model->SkipIdle(tile.io, cycle_ - 1)) wake = true;  // it may no longer skip
  if (wake) asleep_[static_cast<size_t>(t)] = 0;
}

uint64_t LoopRtlFabric::Run(uint64_t cycles) {
  fault_pending_ = false;
  PrepareObservers();
  Verilated::threadContextp(ctx_.get());  // assertion flags go to this fabric's context
  uint64_t done = 0;
  while (done < cycles) {
    FlushRampDown(cycle_);
    for (int t = 0; t < NumTiles() && !opt_.ce; ++t) {  // full PEs: the CE is inside (Observe)
      TileIo& io = tiles_[t].io;
      TickEndpoints(t, io.ramp_out, io.ramp_cout, io.ramp_in, io.ramp_cin);
    }
    for (const EdgeSide& e : edge_sides_) {
      TileIo& io = tiles_[e.tile].io;
      TickEdgeEndpoints(e.tile, e.side, io.out[e.side], io.cout[e.side], io.in[e.side],
                        io.cin[e.side]);
      uint8_t& asleep = asleep_[static_cast<size_t>(e.tile)];
      if (asleep && (!AllZero(io.in[e.side]) || !AllZero(io.cin[e.side])))
        asleep = 0;  // something arrives across the edge: awake for this cycle
    }
    awake_.clear();
    for (int t = 0; t < NumTiles(); ++t)
      if (!asleep_[static_cast<size_t>(t)]) awake_.push_back(t);
    // A sleeping tile's outputs are zero, and were copied so when it fell asleep: only awake
    // tiles are copied from. A nonzero word into a sleeping tile wakes it for this cycle.
    const size_t copied_from = awake_.size();
    for (size_t k = 0; k < copied_from; ++k) {
      const auto t = static_cast<size_t>(awake_[k]);
      for (const Copy64& c : link_copies_[t]) {
        *c.to = *c.from;
        if (*c.to) Wake(c.to_tile);
      }
      for (const Copy8& c : credit_copies_[t]) {
        *c.to = *c.from;
        if (*c.to) Wake(c.to_tile);
      }
    }
    if (WaveCycle(cycle_)) {  // (no tile sleeps while waves are traced)
      for (auto& t : tiles_) t.model->StepLow(t.io, cycle_);
      DumpWaves(cycle_);  // every tile holds this cycle's state and inputs
      for (auto& t : tiles_) t.model->StepHigh(t.io, cycle_);
    } else if (pool_) {
      // Parts of the awake tiles on the threads: each tile touches only its own model and
      // ports. Assertion failures go to this fabric's context from every thread.
      pool_->For(awake_.size(), [this](size_t begin, size_t end, size_t) {
        Verilated::threadContextp(ctx_.get());
        for (size_t k = begin; k < end; ++k) {
          const auto t = static_cast<size_t>(awake_[k]);
          evaluated_[t] = tiles_[t].model->Step(tiles_[t].io, cycle_);
        }
      });
    } else {
      for (int t : awake_)
        evaluated_[static_cast<size_t>(t)] =
            tiles_[static_cast<size_t>(t)].model->Step(tiles_[static_cast<size_t>(t)].io, cycle_);
    }
    // In tile order (the logs' order within a cycle): the awake tiles' faults and observers; a
    // tile skipped with its inputs zero then sleeps.
    for (int t = 0; t < NumTiles(); ++t) {
      const auto i = static_cast<size_t>(t);
      if (asleep_[i]) continue;
      NoteFaults(t, tiles_[i].io.fault, cycle_);
      Observe(t, cycle_);
      if (can_sleep_ && !evaluated_[i] && !tiles_[i].io.fault) asleep_[i] = 1;
    }
    ++cycle_;
    ++done;
    CheckAssertions();
    if (fault_pending_ || StopNow()) break;
  }
  return done;
}

}  // namespace tessera::rtl
