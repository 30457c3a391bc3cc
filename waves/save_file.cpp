#include "waves/save_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "arch/arch.h"

namespace tessera::waves {
namespace {

// GTKWave trace flags (gtkwave's TR_* values) used in save files.
constexpr unsigned kHex = 0x22;  // hex, right-justified
constexpr unsigned kDec = 0x24;  // decimal, right-justified
constexpr unsigned kBin = 0x28;  // binary, right-justified
// A link or credit word, hex through the translate filter process (TR_PTRANSLATED): shown as
// "c5 d 0x3f800000" (wavelet_words.h); plain hex when there is no filter.
constexpr unsigned kPTranslated = 0x4000;
constexpr unsigned kWord = kHex | kPTranslated;
constexpr unsigned kGroupBegin = 0x800200;
constexpr unsigned kGroupEnd = 0x1000200;
// A group that opens folded, as GTKWave writes one: TR_CLOSED on its begin, TR_CLOSED and
// TR_COLLAPSED on its end.
constexpr unsigned kClosedBegin = 0xc00200;
constexpr unsigned kClosedEnd = 0x1401200;

// The window geometry of our save files, and the width it leaves for the waves. GTKWave shows
// 2^-zoom / 200 time units per pixel of it, and zooms in no further than zoom 0 (measured with
// GTKWave 3.3.118 at several window sizes).
constexpr int kWindowW = 1600, kWindowH = 1000, kSstW = 260, kSignalsW = 420;
constexpr double kWavePixels = kWindowW - kSstW - kSignalsW - 40;
constexpr double kUnitsPerPixelAtZoom0 = 1.0 / 200;

struct Sig {
  Sig(unsigned f, std::string n, std::string a = {})
      : flags(f), name(std::move(n)), alias(std::move(a)) {}
  unsigned flags;
  std::string name;   // as the FST names it: scope.path.signal[msb:0]
  std::string alias;  // the name GTKWave shows (no dots: they read as scopes); empty: the full name
};

class Writer {
 public:
  // Names the translate filter for the rows that use it (kWord), if there is one.
  explicit Writer(std::ofstream& out) : out_(out), filter_(WaveFilterPath()) {
    if (!filter_.empty()) out_ << "^>1 " << filter_ << "\n";
  }
  void Group(const std::string& name, const std::vector<Sig>& sigs, bool open = true) {
    out_ << fmt::format("@{:x}\n-{}\n", open ? kGroupBegin : kClosedBegin, name);
    for (const Sig& s : sigs) {
      const unsigned flags = filter_.empty() ? s.flags & ~kPTranslated : s.flags;
      out_ << fmt::format("@{:x}\n", flags);
      if (s.alias.empty()) {
        out_ << s.name << "\n";
      } else {
        out_ << "+{" << s.alias << "} " << s.name << "\n";
      }
    }
    out_ << fmt::format("@{:x}\n-{}\n", open ? kGroupEnd : kClosedEnd, name);
  }

 private:
  std::ofstream& out_;
  std::string filter_;
};

// The scope of PE (x, y) in the FST: the RTL fabric names each tile model tile_x<X>_y<Y> after
// its north-west PE (model/rtl/rtl_fabric.cpp), and tessera_tile's generate blocks name the PE.
std::string PeScope(int x, int y, int tile_w, int tile_h) {
  return fmt::format("tile_x{}_y{}.tessera_tile.g_row[{}].g_col[{}].u_pe", x / tile_w * tile_w,
                     y / tile_h * tile_h, y % tile_h, x % tile_w);
}

// A vector's range as GTKWave names it: x[7:0]; a one-bit vector declared [0:0] is x[0].
std::string Bits(unsigned n) { return n == 1 ? "[0]" : fmt::format("[{}:0]", n - 1); }

const char* DirName(unsigned d) { return arch::ToString(static_cast<arch::Dir>(d)); }

// PE(x,y) router: links, credits and input-queue state per port, then allocation and faults.
std::vector<Sig> RouterSignals(const std::string& pe) {
  const std::string r = pe + ".u_router";
  const std::string lb = Bits(arch::Link::kBits), cb = Bits(arch::Credit::kBits);
  const std::string colors = Bits(arch::kNumColors);
  std::vector<Sig> v;
  const int dirs = static_cast<int>(arch::kNumDirs);
  for (int d = 0; d < dirs; ++d)
    v.push_back(
        {kWord, fmt::format("{}.in_link[{}]{}", r, d, lb), fmt::format("{} in", DirName(d))});
  for (int d = 0; d < dirs; ++d)
    v.push_back(
        {kWord, fmt::format("{}.out_q[{}]{}", r, d, lb), fmt::format("{} out", DirName(d))});
  for (int d = 0; d < dirs; ++d)
    v.push_back({kWord, fmt::format("{}.cred_in[{}]{}", r, d, cb),
                 fmt::format("{} credit in", DirName(d))});
  for (int d = 0; d < dirs; ++d)
    v.push_back({kWord, fmt::format("{}.cred_q[{}]{}", r, d, cb),
                 fmt::format("{} credit out", DirName(d))});
  for (int d = 0; d < dirs; ++d)
    v.push_back({kBin, fmt::format("{}.g_inq[{}].u_inq.nonempty_q{}", r, d, colors),
                 fmt::format("{} queued colors", DirName(d))});
  for (int d = 0; d < dirs; ++d)
    v.push_back({kBin, fmt::format("{}.g_credit[{}].u_credits.ok_q{}", r, d, colors),
                 fmt::format("{} credit ok colors", DirName(d))});
  v.push_back({kDec, r + ".prio_q[2:0]", "prio"});
  v.push_back({kBin, r + ".adv" + colors, "switch advance colors"});
  v.push_back({kHex, r + ".fault_q[31:0]", "RouterFault"});
  return v;
}

// PE(x,y) CE: the scalar pipeline, tasks, stalls, microthreads, input queues, the wavelets on
// its ramp (arch::Link words) and faults.
std::vector<Sig> CeSignals(const std::string& pe) {
  const std::string c = pe + ".g_ce.u_ce";
  const std::string uts = Bits(arch::kNumMicrothreads);
  const std::string ut_words = Bits(32 * arch::kNumMicrothreads);
  const std::string tasks = Bits(arch::kNumTasks);
  return {
      {kHex, c + ".pc_q[15:0]", "pc"},
      {kHex, c + ".ir_q[31:0]", "ir"},
      {kBin, c + ".ir_valid_q", "ir valid"},
      {kBin, c + ".retire_o", "retire"},
      {kHex, c + ".retire_pc_o[15:0]", "retire pc"},
      {kBin, c + ".running_q", "running"},
      {kDec, c + ".task_q[4:0]", "task"},
      {kBin, c + ".task_start_o", "task start"},
      {kDec, c + ".task_id_o[4:0]", "task started"},
      {kHex, c + ".active_q" + tasks, "TaskActive"},
      {kHex, c + ".blocked_q" + tasks, "TaskBlocked"},
      {kHex, c + ".ce_status[31:0]", "CeStatus"},
      {kDec, c + ".stall_q[2:0]", "stall"},
      {kDec, c + ".stall_col_q[4:0]", "stall color"},
      {kBin, c + ".ut_busy" + uts, "ut busy"},
      {kHex, c + ".ut_status" + ut_words, "UtStatus ut7 to ut0"},
      {kHex, c + ".ut_info" + ut_words, "UtInfo ut7 to ut0"},
      {kBin, c + ".in_valid" + Bits(arch::kNumColors), "input heads colors"},
      {kBin, c + ".owed", "credit owed"},
      {kWord, pe + ".ramp_out_o" + Bits(arch::Link::kBits), "ramp wavelet received"},
      {kWord, pe + ".ramp_sent_o" + Bits(arch::Link::kBits), "ramp wavelet sent"},
      {kDec, c + ".fcause_q[4:0]", "fault cause"},
      {kBin, c + ".quiet_o", "quiet"},
  };
}

// PE(x,y) FMAC: the operation issued, the valid bit of each pipeline register, the result.
std::vector<Sig> FmacSignals(const std::string& pe) {
  const std::string f = pe + ".g_ce.u_fmac";
  // The control word tessera_fmac pipes beside the FMA cores, valid in its top bit:
  // {valid, op, fmt, is_fma, is_two_lane, misc_res, misc_flags}. Its registers are the FMA
  // core's: with FmacLatency 4, two (after S2 and after S3); the last one's valid is s4_valid.
  constexpr unsigned kCtlBits = 1 + 4 + 1 + 1 + 1 + 32 + 10;
  constexpr unsigned L = arch::kFmacLatency;
  constexpr unsigned kCoreRegs = L >= 5 ? 3 : L == 4 ? 2 : L == 3 ? 1 : 0;
  std::vector<Sig> v = {
      {kBin, f + ".valid_i", "issue valid"},
      {kDec, f + ".op_i[3:0]", "issue op"},
      {kBin, f + ".fmt_i" + Bits(1), "issue fmt"},
      {kHex, f + ".a_i[31:0]", "a"},
      {kHex, f + ".b_i[31:0]", "b"},
      {kHex, f + ".c_i[31:0]", "c"},
      {kBin, f + ".in_valid", "S1 valid (input register)"},
  };
  for (unsigned k = 0; k + 1 < kCoreRegs; ++k)
    v.push_back({kHex, fmt::format("{}.u_ctl_pipe.g_regs.g_stage[{}].q{}", f, k, Bits(kCtlBits)),
                 fmt::format("S{} control (valid: bit {})", k + 3, kCtlBits - 1)});
  v.push_back({kBin, f + ".s4_valid", "S4 valid"});
  v.push_back({kBin, f + ".valid_o", "result valid"});
  v.push_back({kHex, f + ".result_o[31:0]", "result"});
  v.push_back({kBin, f + ".flags_o[9:0]", "flags"});
  return v;
}

// `marker`: the primary marker's time, or -1 for none.
void WriteHeader(std::ofstream& out, const std::string& what, const std::string& fst_path,
                 uint64_t start, double zoom, int64_t marker) {
  out << "[*] GTKWave save file generated by tessera: " << what << "\n";
  out << "[*] Time is in cycles: the dump's unit is 1 s, so GTKWave's \"sec\" reads as cycles.\n";
  // The dump's path as given: a relative one keeps the pair movable together.
  out << "[dumpfile] \"" << fst_path << "\"\n";
  out << "[timestart] " << start << "\n";
  out << fmt::format("[size] {} {}\n[pos] -1 -1\n*{:.6f} {} -1\n", kWindowW, kWindowH, zoom,
                     marker);
  out << fmt::format(
      "[sst_width] {}\n[signals_width] {}\n[sst_expanded] 1\n[sst_vpaned_height] 300\n", kSstW,
      kSignalsW);
}

}  // namespace

std::string WaveFilterPath() {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto usable = [&](const fs::path& p) { return !p.empty() && fs::is_regular_file(p, ec); };
  if (const char* env = std::getenv("TESSERA_WAVE_FILTER"); env && *env) {
    const fs::path p = fs::absolute(env, ec);
    return usable(p) ? p.string() : std::string();
  }
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside = self.parent_path() / "tessera_wave_filter";
    if (usable(beside)) return beside.string();
  }
#ifdef TESSERA_WAVE_FILTER_BUILT
  if (usable(TESSERA_WAVE_FILTER_BUILT)) return TESSERA_WAVE_FILTER_BUILT;
#endif
  return {};
}

std::string SaveFilePath(const std::string& fst_path) {
  std::filesystem::path p(fst_path);
  p.replace_extension(".gtkw");
  return p.string();
}

void WriteRouterSaveFile(const std::string& save_path, const std::string& fst_path,
                         const FabricShape& shape, std::pair<int, int> pe) {
  std::ofstream out(save_path);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write the save file", save_path));
  const auto [x, y] = pe;
  const std::string pe_scope = PeScope(x, y, shape.tile_w, shape.tile_h);
  const std::string r = pe_scope + ".u_router";
  const std::string lb = Bits(arch::Link::kBits);
  const std::string cb = Bits(arch::Credit::kBits);
  const std::string colors = Bits(arch::kNumColors);

  WriteHeader(out, fmt::format("router of PE({},{})", x, y), fst_path, 0, -3.0, 0);

  Writer w(out);
  for (int d = 0; d < static_cast<int>(arch::kNumDirs); ++d) {
    std::string q = fmt::format("{}.g_inq[{}].u_inq", r, d);
    std::string c = fmt::format("{}.g_credit[{}].u_credits", r, d);
    w.Group(fmt::format("PE({},{}) {} port", x, y, DirName(d)),
            {{kWord, fmt::format("{}.in_link[{}]{}", r, d, lb)},
             {kWord, fmt::format("{}.cred_q[{}]{}", r, d, cb)},
             {kBin, fmt::format("{}.nonempty_q{}", q, colors)},
             {kWord, fmt::format("{}.out_q[{}]{}", r, d, lb)},
             {kWord, fmt::format("{}.cred_in[{}]{}", r, d, cb)},
             {kBin, fmt::format("{}.ok_q{}", c, colors)},
             {kDec, fmt::format("{}.rr_ptr_q[{}][4:0]", r, d)}});
  }
  w.Group(fmt::format("PE({},{}) allocation and faults", x, y),
          {{kDec, r + ".prio_q[2:0]"}, {kHex, r + ".fault_q[31:0]"}, {kBin, r + ".adv" + colors}});
  w.Group(fmt::format("PE({},{}) ramp to and from the CE", x, y),
          {{kWord, pe_scope + ".ramp_in_i" + lb},
           {kWord, pe_scope + ".ramp_out_o" + lb},
           {kWord, pe_scope + ".ramp_credit_i" + cb},
           {kWord, pe_scope + ".ramp_credit_o" + cb}});
  if (!out) throw std::runtime_error(fmt::format("{}: write failed", save_path));
}

std::string WriteGtkwSave(const std::string& fst_path, const rtl::RtlFabricOptions& opt,
                          uint64_t end_cycle) {
  rtl::ValidateRtlOptions(opt);
  const std::string save_path = SaveFilePath(fst_path);
  std::ofstream out(save_path);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write the save file", save_path));
  const rtl::WaveRegion r = rtl::ResolveWaveRegion(opt);

  // The view: from the window's first cycle over the cycles dumped (a thousand if unknown).
  const uint64_t from = opt.wave_from;
  const uint64_t to = std::min(opt.wave_to, end_cycle);
  const uint64_t span = to > from && to != UINT64_MAX ? to - from : 1000;
  // The view spans [from, to] and a little more (GTKWave's view of a few dozen cycles comes out
  // narrower than the formula says): the last sample, at to - 1, stays visible.
  const double zoom = std::min(
      0.0, -std::log2(1.25 * static_cast<double>(span) / (kWavePixels * kUnitsPerPixelAtZoom0)));

  WriteHeader(out,
              fmt::format("PEs ({},{})..({},{}), cycles from {}", r.x0, r.y0, r.x1, r.y1, from),
              fst_path, from, zoom, -1);
  Writer w(out);
  for (int y = r.y0; y <= r.y1; ++y) {
    for (int x = r.x0; x <= r.x1; ++x) {
      // The first PE's groups open, the others folded: a big region stays one screen long.
      const bool open = x == r.x0 && y == r.y0;
      const std::string pe = PeScope(x, y, opt.tile_w, opt.tile_h);
      w.Group(fmt::format("PE({},{}) router", x, y), RouterSignals(pe), open);
      if (!opt.ce) continue;
      w.Group(fmt::format("PE({},{}) CE", x, y), CeSignals(pe), open);
      w.Group(fmt::format("PE({},{}) FMAC", x, y), FmacSignals(pe), false);
    }
  }
  if (!out) throw std::runtime_error(fmt::format("{}: write failed", save_path));
  return save_path;
}

}  // namespace tessera::waves
