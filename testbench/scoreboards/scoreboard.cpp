#include "scoreboards/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "traffic/payload.h"
#include "util/enum_names.h"

namespace tessera::noc {
namespace {

using arch::Link;

constexpr uint32_t kLogColors = 32;  // every value of the 5-bit color field

const std::vector<LogEntry>& EmptyLog() {
  static const std::vector<LogEntry> kEmpty;
  return kEmpty;
}

}  // namespace

constexpr util::EnumName<Verdict> kToStringTable[] = {
    {Verdict::kOk, "ok"},
    {Verdict::kReordered, "reordered"},
    {Verdict::kDuplicated, "duplicated"},
    {Verdict::kMisrouted, "misrouted"},
    {Verdict::kCorrupted, "corrupted"},
};

const char* ToString(Verdict v) { return util::NameOf(kToStringTable, v); }

Scoreboard::Scoreboard(int width, int height, bool keep_log)
    : width_(width), height_(height), num_pes_(width * height), keep_log_(keep_log) {
  if (width < 1 || height < 1 || num_pes_ > kMaxTrafficPes) {
    throw std::invalid_argument(fmt::format("scoreboard: a {}x{} fabric is not 1 to {} PEs", width,
                                            height, kMaxTrafficPes));
  }
  sources_.resize(static_cast<size_t>(num_pes_));
  last_stream_.assign(static_cast<size_t>(num_pes_) * kLogColors, {-1, 0});
  if (keep_log_) logs_.resize(static_cast<size_t>(num_pes_) * kLogColors);
}

std::string Scoreboard::PeName(int pe) const {
  if (pe < 0 || pe >= num_pes_) return fmt::format("PE#{}", pe);
  return fmt::format("PE({},{})", pe % width_, pe / width_);
}

uint32_t Scoreboard::InternSet(const std::vector<int>& sorted) {
  // Called once per new (source, color, set): a linear search over the known sets is fine.
  for (uint32_t i = 0; i < sets_.size(); ++i) {
    const Set& s = sets_[i];
    if (s.len == sorted.size() &&
        std::equal(sorted.begin(), sorted.end(), set_pool_.begin() + s.off)) {
      return i;
    }
  }
  sets_.push_back({static_cast<uint32_t>(set_pool_.size()), static_cast<uint32_t>(sorted.size())});
  set_pool_.insert(set_pool_.end(), sorted.begin(), sorted.end());
  return static_cast<uint32_t>(sets_.size() - 1);
}

uint32_t Scoreboard::FindSrcSet(int src, uint32_t color, const std::vector<int>& sorted) {
  Source& s = sources_[static_cast<size_t>(src)];
  auto matches = [&](const SrcSet& ss) {
    const Set& set = sets_[ss.set];
    if (ss.color != color || set.len != sorted.size()) return false;
    if (set.len == 1) return set_pool_[set.off] == sorted[0];  // unicast: skip memcmp
    return std::equal(sorted.begin(), sorted.end(), set_pool_.begin() + set.off);
  };
  if (!s.runs.empty() && matches(s.sets[s.runs.back().second])) return s.runs.back().second;
  for (uint32_t i = 0; i < s.sets.size(); ++i) {
    if (matches(s.sets[i])) return i;
  }
  SrcSet ss;
  ss.color = color;
  ss.set = InternSet(sorted);
  ss.streams_off = static_cast<uint32_t>(stream_lists_.size());
  for (int dst : sorted) stream_lists_.push_back(StreamFor(dst, color, src));
  s.sets.push_back(ss);
  return static_cast<uint32_t>(s.sets.size() - 1);
}

uint32_t Scoreboard::StreamFor(int dst, uint32_t color, int src) {
  uint32_t key = StreamKey(dst, color, src);
  uint32_t id = stream_index_.Find(key);
  if (id != FlatMap32::kAbsent) return id;
  id = static_cast<uint32_t>(streams_.size());
  streams_.emplace_back();
  streams_.back().dst = dst;
  streams_.back().src = src;
  streams_.back().color = color;
  stream_index_.Insert(key, id);
  return id;
}

int Scoreboard::FindStream(int dst, uint32_t color, int src) {
  auto& cached = last_stream_[static_cast<size_t>(dst) * kLogColors + color];
  if (cached.first == src) return static_cast<int>(cached.second);
  uint32_t id = stream_index_.Find(StreamKey(dst, color, src));
  if (id == FlatMap32::kAbsent) return -1;
  cached = {src, id};
  return static_cast<int>(id);
}

void Scoreboard::Expect(int src, uint32_t color, uint32_t seq, const std::vector<int>& dests,
                        uint64_t cycle, bool ctrl) {
  if (src < 0 || src >= num_pes_ || color >= kLogColors) {
    throw std::out_of_range(
        fmt::format("scoreboard: no source PE index {} / color {}", src, color));
  }
  Source& s = sources_[static_cast<size_t>(src)];
  if (seq != s.next) {
    throw std::logic_error(
        fmt::format("scoreboard: {} created seq {} but its next is {}", PeName(src), seq, s.next));
  }
  const std::vector<int>* sorted = &dests;
  if (!std::is_sorted(dests.begin(), dests.end())) {
    scratch_ = dests;
    std::sort(scratch_.begin(), scratch_.end());
    sorted = &scratch_;
  }
  for (size_t i = 0; i < sorted->size(); ++i) {
    int d = (*sorted)[i];
    if (d < 0 || d >= num_pes_ || (i > 0 && (*sorted)[i - 1] == d)) {
      throw std::invalid_argument(
          fmt::format("scoreboard: {} seq {}: destination index {} is out of range or repeated",
                      PeName(src), seq, d));
    }
  }
  uint32_t idx = FindSrcSet(src, color, *sorted);
  if (s.runs.empty() || s.runs.back().second != idx) s.runs.push_back({seq, idx});
  const SrcSet& ss = s.sets[idx];
  const uint32_t n = sets_[ss.set].len;
  Record rec;
  rec.cycle = cycle;
  rec.pending = n;
  rec.ctrl = ctrl;
  s.records.push_back(rec);
  ++s.next;
  for (uint32_t i = 0; i < n; ++i) streams_[stream_lists_[ss.streams_off + i]].seqs.push_back(seq);
  ++offered_;
  expected_ += n;
  outstanding_ += n;
  while (!s.records.empty() && s.records.front().pending == 0) {
    s.records.pop_front();
    ++s.lo;
  }
}

void Scoreboard::Injected(int src, uint64_t cycle) {
  if (src < 0 || src >= num_pes_) {
    throw std::out_of_range(fmt::format("scoreboard: no source PE index {}", src));
  }
  Source& s = sources_[static_cast<size_t>(src)];
  if (s.injected >= s.next) {
    throw std::logic_error(
        fmt::format("scoreboard: {} injected a wavelet at cycle {} but created only {}",
                    PeName(src), cycle, s.next));
  }
  ++s.injected;
  ++injected_;
}

const Scoreboard::SrcSet* Scoreboard::SetOfSeq(const Source& s, uint32_t seq) const {
  if (seq >= s.next || s.runs.empty()) return nullptr;
  auto it = std::upper_bound(
      s.runs.begin(), s.runs.end(), seq,
      [](uint32_t v, const std::pair<uint32_t, uint32_t>& r) { return v < r.first; });
  return &s.sets[std::prev(it)->second];
}

bool Scoreboard::SetHas(uint32_t set, int pe) const {
  const Set& s = sets_[set];
  auto b = set_pool_.begin() + s.off;
  return std::binary_search(b, b + s.len, pe);
}

Verdict Scoreboard::Deliver(int dst, uint64_t word, uint64_t cycle) {
  if (dst < 0 || dst >= num_pes_) {
    throw std::out_of_range(fmt::format("scoreboard: no destination PE index {}", dst));
  }
  ++delivered_;
  const uint32_t color = static_cast<uint32_t>(Link::Color(word));
  const bool ctrl = Link::Ctrl(word) != 0;
  const uint32_t data = static_cast<uint32_t>(Link::Data(word));
  const int src = PayloadSrc(data);
  uint32_t seq = PayloadSeq(data);
  Verdict v = Verdict::kMisrouted;
  const char* why = nullptr;
  uint32_t older = 0;  // for a reordered delivery: the oldest outstanding one of its stream
  if (src >= num_pes_) {
    why = "its payload names no PE";
  } else {
    Source& s = sources_[static_cast<size_t>(src)];
    // The full number: the latest injected one with these low bits (a wavelet in flight is
    // always among its source's last 2^20 injected ones).
    const uint32_t back = (s.injected - 1 - seq) & kPayloadSeqMask;
    if (s.injected == 0 || back > s.injected - 1) {
      why = "its source has not injected it";
    } else {
      seq = s.injected - 1 - back;
      int id = FindStream(dst, color, src);
      bool matched = false;
      if (id >= 0) {
        Ring<uint32_t>& q = streams_[static_cast<size_t>(id)].seqs;
        if (!q.empty() && q.front() == seq) {
          q.pop_front();
          matched = true;
          v = Verdict::kOk;
        } else if (!q.empty() && seq > q.front()) {
          // Outstanding seqs are ascending: binary search the ring.
          size_t lo = 1, hi = q.size();
          while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (q[mid] < seq) {
              lo = mid + 1;
            } else {
              hi = mid;
            }
          }
          if (lo < q.size() && q[lo] == seq) {
            older = q.front();
            q.erase(lo);
            matched = true;
            v = Verdict::kReordered;
          }
        }
      }
      if (matched) {
        Record& rec = s.records[seq - s.lo];
        --rec.pending;
        --outstanding_;
        uint64_t lat = cycle >= rec.cycle ? cycle - rec.cycle : 0;
        ++latency_count_;
        latency_sum_ += lat;
        latency_max_ = std::max(latency_max_, lat);
        if (rec.ctrl != ctrl) {
          v = Verdict::kCorrupted;
          why = rec.ctrl ? "it was sent as a control wavelet" : "it was sent as a data wavelet";
        }
        while (!s.records.empty() && s.records.front().pending == 0) {
          s.records.pop_front();
          ++s.lo;
        }
      } else {
        const SrcSet* ss = SetOfSeq(s, seq);
        if (ss && ss->color == color && SetHas(ss->set, dst)) {
          v = Verdict::kDuplicated;
          why = "delivered there before";
        } else if (ss && ss->color != color) {
          why = "it was sent on another color";
        } else {
          why = "not expected there";
        }
      }
    }
  }
  if (v == Verdict::kOk) {
    ++ok_;
  } else if (v == Verdict::kReordered && first_error_.empty()) {
    const std::string w =
        fmt::format("seq {} of its stream, older, is still outstanding: overtaken or lost", older);
    Fail(v, dst, cycle, color, src, seq, ctrl, w.c_str());
  } else {
    Fail(v, dst, cycle, color, src, seq, ctrl, why);
  }
  if (keep_log_) {
    LogEntry e;
    e.cycle = cycle;
    e.seq = seq;
    e.src = static_cast<uint16_t>(src);
    e.ctrl = ctrl;
    e.verdict = v;
    logs_[static_cast<size_t>(dst) * kLogColors + color].push_back(e);
  }
  return v;
}

void Scoreboard::Fail(Verdict v, int dst, uint64_t cycle, uint32_t color, int src, uint32_t seq,
                      bool ctrl, const char* why) {
  switch (v) {
    case Verdict::kReordered:
      ++reordered_;
      break;
    case Verdict::kDuplicated:
      ++duplicated_;
      break;
    case Verdict::kMisrouted:
      ++misrouted_;
      break;
    case Verdict::kCorrupted:
      ++corrupted_;
      break;
    case Verdict::kOk:
      break;
  }
  if (!first_error_.empty()) return;
  first_error_ =
      fmt::format("{} at cycle {}: {} wavelet of color {} from {} seq {}: {} ({})", PeName(dst),
                  cycle, ctrl ? "control" : "data", color, PeName(src), seq, ToString(v), why);
}

void Scoreboard::ReportError(int pe, uint64_t cycle, const std::string& what) {
  ++protocol_;
  if (first_error_.empty()) {
    first_error_ = fmt::format("{} at cycle {}: protocol: {}", PeName(pe), cycle, what);
  }
}

void Scoreboard::ExpectFault(const TraceFault& fault, uint64_t cycle) {
  predicted_faults_.push_back({fault, cycle});
}

ScoreStats Scoreboard::Stats() const {
  ScoreStats st;
  st.offered = offered_;
  st.injected = injected_;
  st.expected = expected_;
  st.delivered = delivered_;
  st.ok = ok_;
  st.reordered = reordered_;
  st.duplicated = duplicated_;
  st.misrouted = misrouted_;
  st.corrupted = corrupted_;
  st.protocol = protocol_;
  st.lost = outstanding_;
  st.latency_count = latency_count_;
  st.latency_avg = latency_count_ ? static_cast<double>(latency_sum_) / latency_count_ : 0.0;
  st.latency_max = latency_max_;
  st.first_error = first_error_;
  if (st.first_error.empty() && outstanding_ > 0) st.first_error = FirstLost();
  return st;
}

std::string Scoreboard::FirstLost() const {
  if (outstanding_ == 0) return "";
  const Stream* oldest = nullptr;
  uint64_t oldest_cycle = 0;
  for (const Stream& st : streams_) {
    if (st.seqs.empty()) continue;
    const Source& s = sources_[static_cast<size_t>(st.src)];
    uint64_t c = s.records[st.seqs.front() - s.lo].cycle;
    if (!oldest || c < oldest_cycle) oldest = &st, oldest_cycle = c;
  }
  const Source& s = sources_[static_cast<size_t>(oldest->src)];
  uint32_t seq = oldest->seqs.front();
  return fmt::format(
      "{} never received the {} wavelet of color {} from {} seq {} (created at cycle {}{}); {} "
      "expected deliveries missing",
      PeName(oldest->dst), s.records[seq - s.lo].ctrl ? "control" : "data", oldest->color,
      PeName(oldest->src), seq, oldest_cycle, seq < s.injected ? "" : ", never injected",
      outstanding_);
}

const std::vector<LogEntry>& Scoreboard::Log(int dst, uint32_t color) const {
  if (dst < 0 || dst >= num_pes_ || color >= kLogColors) {
    throw std::out_of_range(fmt::format("scoreboard: no log for PE index {} color {}", dst, color));
  }
  if (!keep_log_) return EmptyLog();
  return logs_[static_cast<size_t>(dst) * kLogColors + color];
}

std::string CompareLogs(const Scoreboard& a, const Scoreboard& b, bool compare_cycles,
                        bool per_source) {
  if (a.Width() != b.Width() || a.Height() != b.Height()) {
    return fmt::format("the runs are on different fabrics: {}x{} and {}x{}", a.Width(), a.Height(),
                       b.Width(), b.Height());
  }
  if (a.KeepsLog() != b.KeepsLog()) {
    return fmt::format("run {} kept no delivery log", a.KeepsLog() ? "b" : "a");
  }
  auto same = [&](const LogEntry& x, const LogEntry& y) {
    return x.src == y.src && x.seq == y.seq && x.ctrl == y.ctrl &&
           (!compare_cycles || x.cycle == y.cycle);
  };
  auto describe = [&](const LogEntry* e, size_t n) -> std::string {
    if (!e) return fmt::format("nothing (only {} deliveries)", n);
    return fmt::format("{} seq {} {} at cycle {}", a.PeName(e->src), e->seq,
                       e->ctrl ? "control" : "data", e->cycle);
  };
  // The order compared: the log's own, or (per_source) the log stably sorted by source.
  auto view = [&](const std::vector<LogEntry>& log, std::vector<uint32_t>& idx) {
    idx.resize(log.size());
    for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = i;
    if (per_source) {
      std::stable_sort(idx.begin(), idx.end(),
                       [&](uint32_t x, uint32_t y) { return log[x].src < log[y].src; });
    }
  };
  std::vector<uint32_t> va, vb;
  bool found = false;
  uint64_t best_cycle = 0;
  std::string best;
  size_t differing = 0;
  for (int dst = 0; dst < a.Width() * a.Height(); ++dst) {
    for (uint32_t color = 0; color < kLogColors; ++color) {
      const auto& la = a.Log(dst, color);
      const auto& lb = b.Log(dst, color);
      if (la.empty() && lb.empty()) continue;
      view(la, va);
      view(lb, vb);
      const size_t n = std::min(va.size(), vb.size());
      size_t i = 0;
      while (i < n && same(la[va[i]], lb[vb[i]])) ++i;
      if (i == va.size() && i == vb.size()) continue;
      ++differing;
      const LogEntry* ea = i < va.size() ? &la[va[i]] : nullptr;
      const LogEntry* eb = i < vb.size() ? &lb[vb[i]] : nullptr;
      const uint64_t when = std::min(ea ? ea->cycle : ~0ull, eb ? eb->cycle : ~0ull);
      if (found && when >= best_cycle) continue;
      found = true;
      best_cycle = when;
      std::string where = fmt::format("{} color {} delivery #{}", a.PeName(dst), color, i);
      if (per_source) {
        // Position within the deliveries from the source where the two first part.
        const std::vector<uint32_t>& v = ea ? va : vb;
        const std::vector<LogEntry>& l = ea ? la : lb;
        const uint16_t src = l[v[i]].src;
        size_t k = i;
        while (k > 0 && l[v[k - 1]].src == src) --k;
        where = fmt::format("{} color {} delivery #{} from {}", a.PeName(dst), color, i - k,
                            a.PeName(src));
      }
      best = fmt::format("{}: a got {}, b got {}", where, describe(ea, va.size()),
                         describe(eb, vb.size()));
    }
  }
  if (!found) return "";
  return fmt::format("{} ({} destination/color log{} differ)", best, differing,
                     differing == 1 ? "" : "s");
}

}  // namespace tessera::noc
