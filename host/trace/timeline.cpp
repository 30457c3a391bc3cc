#include "trace/timeline.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "arch/arch.h"
#include "asm/disasm.h"
#include "trace/issued.h"
#include "util/json.h"
#include "util/strings.h"

namespace tessera::trace {
namespace {

// The neighbour across router port `dir`.
fabric::Coord Across(fabric::Coord pe, int dir) {
  switch (static_cast<arch::Dir>(dir)) {
    case arch::Dir::kW:
      return {pe.x - 1, pe.y};
    case arch::Dir::kE:
      return {pe.x + 1, pe.y};
    case arch::Dir::kN:
      return {pe.x, pe.y - 1};
    case arch::Dir::kS:
      return {pe.x, pe.y + 1};
    default:
      return pe;
  }
}

constexpr int kRankEnd = 0, kRankBegin = 1, kRankSlice = 2, kRankInstant = 3, kRankFlowStart = 4,
              kRankFlowEnd = 5;

}  // namespace

Timeline::Timeline(const std::string& path, const std::string& option, const Scope& scope,
                   const layout::Image& image)
    : path_(path), option_(option), scope_(scope), image_(image) {
  width_ = image.fabric_w;
  height_ = image.fabric_h;
  std::FILE* f = std::fopen(path.c_str(), "w");  // refuse an unwritable path before the run
  if (!f) throw std::invalid_argument(fmt::format("{} {}: cannot write the file", option, path));
  std::fclose(f);
}

std::string Timeline::TaskName(machine::Machine& m, fabric::Coord pe, int task) {
  auto key = std::make_pair(Tid(pe), task);
  auto it = task_names_.find(key);
  if (it != task_names_.end()) return it->second;
  return task_names_[key] = trace::TaskName(m, image_, pe, task);
}

void Timeline::Begin(fabric::Coord pe, uint64_t ts, const std::string& name) {
  if (open_[Tid(pe)]) End(pe, ts);
  Add(ts, Tid(pe), kRankBegin,
      fmt::format("{{\"ph\":\"B\",\"pid\":1,\"tid\":{},\"ts\":{},\"name\":{},\"cat\":\"task\"}}",
                  Tid(pe), ts, util::JsonObject::Quote(name)));
  open_[Tid(pe)] = true;
}

void Timeline::End(fabric::Coord pe, uint64_t ts) {
  if (!open_[Tid(pe)]) return;
  Add(ts, Tid(pe), kRankEnd,
      fmt::format("{{\"ph\":\"E\",\"pid\":1,\"tid\":{},\"ts\":{}}}", Tid(pe), ts));
  open_[Tid(pe)] = false;
}

void Timeline::Before(uint64_t cycle, machine::Machine& m) {
  if (started_) return;
  started_ = true;
  fabric::Fabric& f = m.Fabric();
  for (int i = 0; i < f.NumPes(); ++i) {
    const fabric::Coord pe = f.At(i);
    if (!scope_.Has(pe)) continue;
    open_[Tid(pe)] = false;
    Inside& in = inside_[f.Index(pe)];
    for (int k = 0; k < 6; ++k)
      in.stalls[k] =
          m.Read(pe, arch::PerfCount::Addr(static_cast<int>(arch::PerfEvent::kStallUt) + k));
    in.ut_from.fill(-1);
    in.wait.fill(-1);
    const uint32_t status = m.Read(pe, arch::CeStatus::kAddr);
    if (arch::CeStatus::Running(status))
      Begin(pe, cycle, TaskName(m, pe, static_cast<int>(arch::CeStatus::Task(status))));
  }
}

void Timeline::After(uint64_t cycle, machine::Machine& m,
                     const std::vector<fabric::PeEvents>& events) {
  last_cycle_ = cycle;
  fabric::Fabric& f = m.Fabric();
  for (int i = 0; i < static_cast<int>(events.size()); ++i) {
    const fabric::Coord pe = f.At(i);
    if (!scope_.Has(pe)) continue;
    const fabric::PeEvents& e = events[i];
    if (e.task_start) Begin(pe, cycle, TaskName(m, pe, e.task));
    Inner(cycle, m, pe);
    if (e.retire && open_[Tid(pe)] && EndsTask(IssuedWord(m, pe, e.retire_pc))) End(pe, cycle + 1);
    for (const fabric::DebugRecord& d : e.debug) {
      const std::string text = d.ToString();
      Add(cycle, Tid(pe), kRankInstant,
          fmt::format(
              "{{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":{},\"ts\":{},\"name\":\"debug\","
              "\"cat\":\"debug\",\"args\":{{\"record\":{}}}}}",
              Tid(pe), cycle, util::JsonObject::Quote(text.substr(text.find(": ") + 2))));
    }
  }
}

void Timeline::Slice(int tid, uint64_t from, uint64_t to, const std::string& name, const char* cat,
                     int rank) {
  if (to <= from) return;  // opened by the state after the last cycle stepped
  Add(from, tid, rank,
      fmt::format("{{\"ph\":\"X\",\"pid\":1,\"tid\":{},\"ts\":{},\"dur\":{},\"name\":{},"
                  "\"cat\":\"{}\"}}",
                  tid, from, to - from, util::JsonObject::Quote(name), cat));
}

void Timeline::EndStall(fabric::Coord pe, Inside& in, uint64_t end) {
  if (in.stall < 0) return;
  Slice(SubTid(pe, 1), in.stall_from, end,
        arch::ToString(
            static_cast<arch::PerfEvent>(static_cast<int>(arch::PerfEvent::kStallUt) + in.stall)),
        "stall");
  in.stall = -1;
}

void Timeline::EndWait(fabric::Coord pe, Inside& in, int u, uint64_t end) {
  if (in.wait[u] < 0) return;
  std::string name = arch::ToString(static_cast<arch::PerfEvent>(
      static_cast<int>(arch::PerfEvent::kUtReady) + (in.wait[u] & 0xFF)));
  if (in.wait[u] >> 8) name += fmt::format(" c{}", in.wait[u] >> 8);
  Slice(SubTid(pe, 2 + u), in.wait_from[u], end, name, "wait");
  in.wait[u] = -1;
}

void Timeline::EndUt(fabric::Coord pe, Inside& in, int u, uint64_t end) {
  EndWait(pe, in, u, end);
  if (in.ut_from[u] < 0) return;
  // Ranked before the wait slices that start with it: Perfetto nests them under the span.
  Slice(SubTid(pe, 2 + u), static_cast<uint64_t>(in.ut_from[u]), end, in.ut_name[u], "microthread",
        kRankBegin);
  in.ut_from[u] = -1;
}

// After cycle `cycle`: the stall class of that cycle (the PerfCount stall counter that moved),
// and the microthreads' state at the start of the next (CeStatus.UtBusy, UtStatus.Wait, as the
// PerfCount microthread classes count it).
void Timeline::Inner(uint64_t cycle, machine::Machine& m, fabric::Coord pe) {
  using P = arch::PerfEvent;
  Inside& in = inside_[m.Fabric().Index(pe)];
  const uint32_t status = m.Read(pe, arch::CeStatus::kAddr);
  int cls = -1;
  if (arch::CeStatus::Running(status) || in.stall >= 0) {  // stalls need a task
    for (int k = 0; k < 6; ++k) {
      const uint32_t v = m.Read(pe, arch::PerfCount::Addr(static_cast<int>(P::kStallUt) + k));
      if (v != in.stalls[k]) cls = k;
      in.stalls[k] = v;
    }
  }
  if (cls != in.stall) {
    EndStall(pe, in, cycle);
    if (cls >= 0) {
      in.stall = cls;
      in.stall_from = cycle;
      tracks_.emplace(SubTid(pe, 1), fmt::format("PE({},{}) stalls", pe.x, pe.y));
    }
  }
  const uint32_t busy = arch::CeStatus::UtBusy(status);
  const uint64_t next = cycle + 1;
  for (int u = 0; u < static_cast<int>(arch::kNumMicrothreads); ++u) {
    if (!(busy >> u & 1)) {
      EndUt(pe, in, u, next);
      continue;
    }
    if (in.ut_from[u] < 0) {
      in.ut_from[u] = static_cast<int64_t>(next);
      const uint32_t info = m.Read(pe, arch::UtInfo::Addr(u));
      in.ut_name[u] = assembler::DisassembleWord(
          IssuedWord(m, pe, static_cast<uint16_t>(arch::UtInfo::Pc(info))));
      tracks_.emplace(SubTid(pe, 2 + u), fmt::format("PE({},{}) ut{}", pe.x, pe.y, u));
    }
    int wait = -1;
    const auto w = static_cast<int>(arch::UtStatus::Wait(m.Read(pe, arch::UtStatus::Addr(u))));
    if (w != static_cast<int>(arch::UtWait::kReady)) {
      wait = w;
      if (w == static_cast<int>(arch::UtWait::kFabIn) ||
          w == static_cast<int>(arch::UtWait::kFabOut))
        wait |= static_cast<int>(arch::UtInfo::Color(m.Read(pe, arch::UtInfo::Addr(u)))) << 8;
    }
    if (wait != in.wait[u]) {
      EndWait(pe, in, u, next);
      in.wait[u] = wait;
      in.wait_from[u] = next;
    }
  }
}

void Timeline::AddLinks(const std::vector<fabric::LinkEvent>& v) {
  using L = arch::Link;
  for (const fabric::LinkEvent& e : v) {
    if (!scope_.During(e.cycle) || !scope_.Has(e.pe)) continue;
    const int color = static_cast<int>(L::Color(e.word));
    const std::string args = fmt::format("{{\"color\":{},\"control\":{},\"data\":\"0x{:08x}\"}}",
                                         color, L::Ctrl(e.word), L::Data(e.word));
    const bool ramp = e.port == static_cast<int>(arch::Dir::kRamp);
    std::string name;
    if (ramp) {
      name = fmt::format("{} c{}", e.into ? "send" : "recv", color);
    } else if (e.into) {
      name = fmt::format("in {} c{}", arch::ToString(static_cast<arch::Dir>(e.port)), color);
    } else {
      name = fmt::format("{} c{}", arch::ToString(static_cast<arch::Dir>(e.port)), color);
    }
    const int tid = Tid(e.pe);
    Add(e.cycle, tid, kRankSlice,
        fmt::format("{{\"ph\":\"X\",\"pid\":1,\"tid\":{},\"ts\":{},\"dur\":1,\"name\":{},"
                    "\"cat\":\"wavelet\",\"args\":{}}}",
                    tid, e.cycle, util::JsonObject::Quote(name), args));
    if (ramp || e.into) continue;
    // A hop to a neighbour: the wavelet reaches its router in the next cycle.
    const fabric::Coord to = Across(e.pe, e.port);
    if (to.x < 0 || to.y < 0 || to.x >= width_ || to.y >= height_ || !scope_.Has(to) ||
        !scope_.During(e.cycle + 1))
      continue;
    const uint64_t id = next_flow_++;
    const int to_tid = Tid(to);
    const std::string arrive =
        fmt::format("from {} c{}", arch::ToString(static_cast<arch::Dir>(e.port ^ 1)), color);
    Add(e.cycle + 1, to_tid, kRankSlice,
        fmt::format("{{\"ph\":\"X\",\"pid\":1,\"tid\":{},\"ts\":{},\"dur\":1,\"name\":{},"
                    "\"cat\":\"wavelet\",\"args\":{}}}",
                    to_tid, e.cycle + 1, util::JsonObject::Quote(arrive), args));
    Add(e.cycle, tid, kRankFlowStart,
        fmt::format("{{\"ph\":\"s\",\"pid\":1,\"tid\":{},\"ts\":{},\"id\":{},\"name\":\"hop\","
                    "\"cat\":\"wavelet\"}}",
                    tid, e.cycle, id));
    Add(e.cycle + 1, to_tid, kRankFlowEnd,
        fmt::format("{{\"ph\":\"f\",\"bp\":\"e\",\"pid\":1,\"tid\":{},\"ts\":{},\"id\":{},"
                    "\"name\":\"hop\",\"cat\":\"wavelet\"}}",
                    to_tid, e.cycle + 1, id));
  }
}

void Timeline::AddFault(fabric::Coord pe, uint64_t cycle, const std::string& text) {
  if (!scope_.Has(pe)) return;
  Add(cycle, Tid(pe), kRankInstant,
      fmt::format("{{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":{},\"ts\":{},\"name\":\"fault\","
                  "\"cat\":\"fault\",\"args\":{{\"fault\":{}}}}}",
                  Tid(pe), cycle, util::JsonObject::Quote(text)));
}

uint64_t Timeline::Close() {
  for (auto& [tid, open] : open_)
    if (open) End({(tid - 1) % width_, (tid - 1) / width_}, last_cycle_ + 1);
  // Stalls and microthreads still open: their slices up to the end.
  for (auto& [index, in] : inside_) {
    const fabric::Coord pe{index % width_, index / width_};
    EndStall(pe, in, last_cycle_ + 1);
    // The state after the last cycle is the next one's, which the run did not step.
    for (int u = 0; u < static_cast<int>(arch::kNumMicrothreads); ++u)
      EndUt(pe, in, u, last_cycle_ + 1);
  }
  std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) {
    return std::tie(a.tid, a.ts, a.rank) < std::tie(b.tid, b.ts, b.rank);
  });
  std::string out = "{\"traceEvents\":[\n";
  out += "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"fabric\"}}";
  for (const auto& [tid, open] : open_) {
    const fabric::Coord pe{(tid - 1) % width_, (tid - 1) / width_};
    out += fmt::format(
        ",\n{{\"ph\":\"M\",\"pid\":1,\"tid\":{},\"name\":\"thread_name\",\"args\":{{\"name\":"
        "\"PE({},{})\"}}}},\n{{\"ph\":\"M\",\"pid\":1,\"tid\":{},\"name\":\"thread_sort_index\","
        "\"args\":{{\"sort_index\":{}}}}}",
        tid, pe.x, pe.y, tid, tid * 16);
  }
  for (const auto& [tid, name] : tracks_) {
    const int n = width_ * height_, k = (tid - 1) / n;
    out += fmt::format(
        ",\n{{\"ph\":\"M\",\"pid\":1,\"tid\":{},\"name\":\"thread_name\",\"args\":{{\"name\":"
        "{}}}}},\n{{\"ph\":\"M\",\"pid\":1,\"tid\":{},\"name\":\"thread_sort_index\","
        "\"args\":{{\"sort_index\":{}}}}}",
        tid, util::JsonObject::Quote(name), tid, ((tid - 1) % n + 1) * 16 + k);
  }
  for (const Event& e : events_) out += ",\n" + e.json;
  out +=
      "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"tessera\","
      "\"time_unit\":\"1 us = 1 cycle\"}}\n";
  bool ok = false;
  if (util::EndsWith(path_, ".gz")) {
    if (gzFile gz = gzopen(path_.c_str(), "wb")) {
      ok = gzwrite(gz, out.data(), static_cast<unsigned>(out.size())) ==
           static_cast<int>(out.size());
      ok = gzclose(gz) == Z_OK && ok;
    }
  } else if (std::FILE* f = std::fopen(path_.c_str(), "w")) {
    ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
    ok = std::fclose(f) == 0 && ok;
  }
  if (!ok) throw std::runtime_error(fmt::format("{} {}: write failed", option_, path_));
  return events_.size();
}

}  // namespace tessera::trace
