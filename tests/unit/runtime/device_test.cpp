// The host runtime end to end (host/runtime/device.h): the four tutorial programs on the
// functional model, the RTL (plain-loop glue: several fabrics per process) and both compared;
// memcpy orders, element sizes and the host port; deadlock diagnosis, faults, co-simulation
// differences and bad input.
#include "runtime/device.h"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "layout/layout.h"

namespace tessera::runtime {
namespace {

const std::string kTutorial = TESSERA_TUTORIAL_DIR;
const std::string kData = TESSERA_RUNTIME_DATA;

layout::Image LinkFile(const std::string& path) {
  return layout::Link(layout::ParseLayoutFile(path));
}

DeviceOptions Options(Backend b, const layout::Image& img,
                      std::optional<fabric::Coord> lockstep = std::nullopt) {
  DeviceOptions o;
  o.backend = b;
  o.width = img.fabric_w;
  o.height = img.fabric_h;
  o.systemc = false;
  o.lockstep = lockstep;
  return o;
}

// A device with the image loaded, collecting debug records as text.
struct Rig {
  Rig(Backend b, const layout::Image& img, std::optional<fabric::Coord> lockstep = std::nullopt)
      : dev(Options(b, img, lockstep)) {
    dev.SetDebugHandler([this](const ce::DebugRecord& d) { debug.push_back(d.ToString()); });
    dev.Load(img);
  }
  Device dev;
  std::vector<std::string> debug;
};

std::string What(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

const Backend kBackends[] = {Backend::kFunc, Backend::kRtl, Backend::kCosim};

TEST(Device, Tutorial1ScalarLoopOnEveryBackend) {
  const layout::Image img = LinkFile(kTutorial + "/01_loop/loop.tlayout");
  std::vector<uint64_t> cycles;
  for (Backend b : kBackends) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    std::vector<float> x(16);
    for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i + 1);
    rig.dev.MemcpyH2D("x", x.data(), x.size(), {0, 0, 1, 1}, 16);
    rig.dev.Launch("main");
    const RunResult r = rig.dev.Run(100000);
    ASSERT_TRUE(r.ok()) << StatusName(r.status) << ": " << r.message;
    float sum = 0;
    rig.dev.MemcpyD2H(&sum, 1, "sum", {0, 0, 1, 1}, 1);
    EXPECT_EQ(sum, 136.0f);
    ASSERT_EQ(rig.debug.size(), 1u);
    EXPECT_NE(rig.debug[0].find("PE(0,0): 136"), std::string::npos) << rig.debug[0];
    EXPECT_EQ(r.tasks_started, 1u);
    EXPECT_EQ(r.instructions, 3u + 16 * 5 + 3) << "setup, 16 loop iterations, the end";
    EXPECT_EQ(r.link_wavelets, 0u) << "one PE, nothing sent";
    cycles.push_back(r.cycles());
  }
  EXPECT_EQ(cycles[0], cycles[1]) << "func and rtl reach quiescence in different cycles";
  EXPECT_EQ(cycles[0], cycles[2]);
}

TEST(Device, Tutorial2MemoryDsds) {
  const layout::Image img = LinkFile(kTutorial + "/02_dsd/axpy.tlayout");
  for (Backend b : {Backend::kFunc, Backend::kCosim}) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    std::vector<float> x(64), y(64);
    for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i), y[i] = 1.0f;
    rig.dev.MemcpyH2D("x", x.data(), 64, {0, 0, 1, 1}, 64);
    rig.dev.MemcpyH2D("y", y.data(), 64, {0, 0, 1, 1}, 64);
    rig.dev.Launch("main");
    const RunResult r = rig.dev.Run(100000);
    ASSERT_TRUE(r.ok()) << r.message;
    std::vector<float> out(64);
    rig.dev.MemcpyD2H(out.data(), 64, "y", {0, 0, 1, 1}, 64);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], 1.0f + 2.5f * i) << "y[" << i << "]";
    EXPECT_EQ(r.tasks_started, 2u);  // main, then the completion task
  }
}

TEST(Device, Tutorial3RouteAndAsyncSend) {
  const layout::Image img = LinkFile(kTutorial + "/03_send/send.tlayout");
  for (Backend b : {Backend::kFunc, Backend::kCosim}) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    std::vector<float> x(32);
    float want = 0;
    for (int i = 0; i < 32; ++i) x[i] = 0.5f * i, want += x[i];
    rig.dev.MemcpyH2D("x", x.data(), 32, {0, 0, 1, 1}, 32);
    rig.dev.Launch("main");  // both PEs export main
    const RunResult r = rig.dev.Run(100000);
    ASSERT_TRUE(r.ok()) << r.message;
    std::vector<float> buf(32);
    rig.dev.MemcpyD2H(buf.data(), 32, "buf", {1, 0, 1, 1}, 32);
    EXPECT_EQ(buf, x);
    float sum = 0;
    rig.dev.MemcpyD2H(&sum, 1, "sum", {1, 0, 1, 1}, 1);
    EXPECT_EQ(sum, want);
    ASSERT_EQ(rig.debug.size(), 2u);
    EXPECT_NE(rig.debug[0].find("PE(0,0): 32"), std::string::npos) << rig.debug[0];
  }
}

TEST(Device, Tutorial4BroadcastWithDataTasks) {
  const layout::Image img = LinkFile(kTutorial + "/04_broadcast/broadcast.tlayout");
  for (Backend b : {Backend::kFunc, Backend::kCosim}) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    std::vector<int32_t> v(8);
    for (int i = 0; i < 8; ++i) v[i] = (i + 1) * (i + 1);
    rig.dev.MemcpyH2D("v", v.data(), 8, {0, 0, 1, 1}, 8);
    rig.dev.Launch("main");
    const RunResult r = rig.dev.Run(100000);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.tasks_started, 1u + 3 * 8);
    for (auto [x, y] : {std::pair{1, 0}, {0, 1}, {1, 1}}) {
      int32_t total = 0;
      rig.dev.MemcpyD2H(&total, 1, "total", {x, y, 1, 1}, 1);
      EXPECT_EQ(total, 204) << "PE(" << x << "," << y << ")";
    }
    EXPECT_EQ(rig.debug.size(), 3u);
  }
}

TEST(Device, EdgeStreamsGoThroughTheFabricAndIntoTasks) {
  const layout::Image img = LinkFile(kData + "/stream.tlayout");
  const int kW = static_cast<int>(arch::Dir::kW), kE = static_cast<int>(arch::Dir::kE);
  std::vector<std::vector<fabric::EdgeStream::Wavelet>> outs;
  std::vector<uint64_t> cycles;
  for (Backend b : kBackends) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    std::vector<uint32_t> pass, sum;
    for (uint32_t i = 0; i < 20; ++i) pass.push_back(0x100 + i);
    for (uint32_t i = 1; i <= 8; ++i) sum.push_back(i * i);
    rig.dev.StreamIn({0, 0}, kW, 1, pass);
    rig.dev.StreamIn({0, 0}, kW, 2, sum);
    EXPECT_TRUE(rig.dev.StreamOut({1, 0}, kE).empty());  // opens the port before the run
    const RunResult r = rig.dev.Run(10000);
    ASSERT_TRUE(r.ok()) << StatusName(r.status) << ": " << r.message;
    const std::vector<fabric::EdgeStream::Wavelet> out = rig.dev.StreamOut({1, 0}, kE);
    ASSERT_EQ(out.size(), pass.size());
    for (size_t i = 0; i < out.size(); ++i) {
      EXPECT_EQ(out[i].color, 1u);
      EXPECT_EQ(out[i].data, pass[i]);
    }
    int32_t total = 0;
    rig.dev.MemcpyD2H(&total, 1, "total", {1, 0, 1, 1}, 1);
    EXPECT_EQ(total, 204);
    EXPECT_EQ(r.tasks_started, 8u);
    outs.push_back(out);
    cycles.push_back(r.cycles());
  }
  EXPECT_EQ(outs[0], outs[1]) << "func and rtl send the stream out in different cycles";
  EXPECT_EQ(cycles[0], cycles[1]);
  EXPECT_EQ(cycles[0], cycles[2]);
  Rig rig(Backend::kFunc, img);
  EXPECT_EQ(What([&] {
              rig.dev.StreamIn({1, 0}, kW, 1, {1});
            }),
            "PE(1,0) port W faces another PE of the 2x1 fabric, not its edge");
}

TEST(Device, ColumnMajorAndSixteenBitCopiesRoundTrip) {
  const layout::Image img = LinkFile(kData + "/halves.tlayout");
  Rig rig(Backend::kFunc, img);
  const Region all{0, 0, 2, 2};
  // w: 3 per PE. Column-major host order: element (py, px, i) at py + 2 * (px + 2 * i).
  std::vector<uint32_t> w(12);
  for (int i = 0; i < 12; ++i) w[i] = 100 + i;
  MemcpyOptions col;
  col.order = Order::kColMajor;
  rig.dev.MemcpyH2D("w", w.data(), 12, all, 3, col);
  std::vector<uint32_t> row(12);
  rig.dev.MemcpyD2H(row.data(), 12, "w", all, 3);
  for (int py = 0; py < 2; ++py)
    for (int px = 0; px < 2; ++px)
      for (int i = 0; i < 3; ++i) EXPECT_EQ(row[(py * 2 + px) * 3 + i], w[py + 2 * (px + 2 * i)]);
  // h: 5 u16 per PE; the guard words on both sides keep their values.
  std::vector<uint16_t> h(20), back(20);
  for (int i = 0; i < 20; ++i) h[i] = static_cast<uint16_t>(0xA000 + i);
  MemcpyOptions half;
  half.elem_bits = 16;
  rig.dev.MemcpyH2D("h", h.data(), 20, all, 5, half);
  rig.dev.MemcpyD2H(back.data(), 20, "h", all, 5, half);
  EXPECT_EQ(back, h);
  std::vector<uint32_t> g0(4), g1(4);
  rig.dev.MemcpyD2H(g0.data(), 4, "g0", all, 1);
  rig.dev.MemcpyD2H(g1.data(), 4, "g1", all, 1);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(g0[k], 0xdeadbeefu);
    EXPECT_EQ(g1[k], 0xfeedfaceu);
  }
  // A copy of fewer elements than exported leaves the rest as it was.
  const uint16_t two[2] = {1, 2};
  rig.dev.MemcpyH2D("h", two, 2, {1, 1, 1, 1}, 2, half);
  uint16_t five[5];
  rig.dev.MemcpyD2H(five, 5, "h", {1, 1, 1, 1}, 5, half);
  EXPECT_EQ(five[0], 1);
  EXPECT_EQ(five[1], 2);
  EXPECT_EQ(five[2], h[17]);
}

TEST(Device, HostPortCopiesCostOneCyclePerWordPerTile) {
  const layout::Image img = LinkFile(kData + "/halves.tlayout");
  for (Backend b : {Backend::kFunc, Backend::kCosim}) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    std::vector<uint32_t> w(12), back(12);
    for (int i = 0; i < 12; ++i) w[i] = 7 * i;
    MemcpyOptions port;
    port.timing = Timing::kHostPort;
    const uint64_t c0 = rig.dev.Cycle();
    // 1x1 tiles: each PE has its own port, so 3 words per PE take 3 cycles.
    const MemcpyResult r = rig.dev.MemcpyH2D("w", w.data(), 12, {0, 0, 2, 2}, 3, port);
    EXPECT_EQ(r.cycles, 3u);
    EXPECT_EQ(r.words, 12u);
    EXPECT_EQ(rig.dev.Cycle(), c0 + 3);
    rig.dev.MemcpyD2H(back.data(), 12, "w", {0, 0, 2, 2}, 3);  // back door: no cycles
    EXPECT_EQ(rig.dev.Cycle(), c0 + 3);
    EXPECT_EQ(back, w);
  }
}

// A run in which nothing moves ends early, on every backend, with the same diagnosis (StallProbe):
// the receiver of tutorial 3 waits for data nobody sends.
TEST(Device, ADeadlockEndsTheRunEarlyWithItsDiagnosis) {
  const layout::Image img = LinkFile(kData + "/wait.tlayout");
  for (Backend b : {Backend::kFunc, Backend::kRtl, Backend::kCosim}) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    rig.dev.Launch("main", Region{1, 0, 1, 1});
    const RunResult r = rig.dev.Run(10'000'000);
    EXPECT_EQ(r.status, RunResult::Status::kDeadlock);
    EXPECT_LT(r.cycles(), 20'000u);
    EXPECT_NE(r.message.find("deadlock: nothing has moved for 4096 cycles"), std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("microthread 0 (mov32 at pc 0x0008 (receiver.s:21), element 0)"),
              std::string::npos)
        << r.message;
  }
  // A long run that moves is not a deadlock: it ends at its limit.
  const layout::Image spin = LinkFile(kData + "/spin.tlayout");
  for (Backend b : {Backend::kFunc, Backend::kRtl}) {
    Rig rig(b, spin);
    rig.dev.Launch("main");
    EXPECT_EQ(rig.dev.Run(60'000).status, RunResult::Status::kCycleLimit);
  }
}

TEST(Device, ACycleLimitGivesADeadlockDiagnosis) {
  const layout::Image img = LinkFile(kData + "/wait.tlayout");
  for (Backend b : {Backend::kFunc, Backend::kRtl}) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    rig.dev.Launch("main", Region{1, 0, 1, 1});  // the receiver only: nobody sends
    const RunResult r = rig.dev.Run(500);
    EXPECT_EQ(r.status, RunResult::Status::kCycleLimit);
    EXPECT_EQ(r.cycles(), 500u);
    EXPECT_NE(r.message.find("did not finish within 500 cycles"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("PE(1,0): no task running"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("microthread 0 (mov32 at pc 0x0008 (receiver.s:21), element 0)"),
              std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("waits for data on color 3"), std::string::npos) << r.message;
    EXPECT_EQ(r.message.find("PE(0,0)"), std::string::npos) << "PE(0,0) is quiet";
  }
}

TEST(Device, TheDiagnosisShowsWaveletsBackedUpInRouterQueues) {
  const layout::Image img = LinkFile(kData + "/backup.tlayout");
  std::vector<std::string> messages;
  for (Backend b : {Backend::kFunc, Backend::kRtl}) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    rig.dev.Launch("main");
    const RunResult r = rig.dev.Run(400);
    ASSERT_EQ(r.status, RunResult::Status::kCycleLimit) << r.message;
    // The sender's 32 wavelets all left its CE: 13 wait in its router's ramp queue.
    EXPECT_NE(r.message.find("PE(0,0): compute engine quiet;\n    router input queues: from RAMP "
                             "color 3: 13"),
              std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("CE input queues: color 3: 16 of 16"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("router input queues: from W color 3: 3"), std::string::npos)
        << r.message;
    messages.push_back(r.message);
  }
  EXPECT_EQ(messages[0], messages[1]);
}

TEST(Device, AFaultStopsTheRunAndSaysWhere) {
  const layout::Image img = LinkFile(kData + "/fault.tlayout");
  for (Backend b : kBackends) {
    SCOPED_TRACE(BackendName(b));
    Rig rig(b, img);
    rig.dev.Launch("main");
    const RunResult r = rig.dev.Run(1000);
    ASSERT_EQ(r.status, RunResult::Status::kFault) << StatusName(r.status) << ": " << r.message;
    ASSERT_EQ(r.faults.size(), 1u);
    EXPECT_EQ(r.message,
              "PE(0,0) fault: misaligned 32-bit load at pc 0x0004 (address 0x0103), fault.s:6, at "
              "cycle 2\n");
  }
}

TEST(Device, AFabricTooLargeForMemoryIsRefusedWithItsSize) {
  DeviceOptions o;
  o.width = 65535;
  o.height = 65535;
  try {
    Device dev(o);
    FAIL() << "a 65535x65535 fabric was opened";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find("--fabric 65535x65535: too large for memory: a 65535x65535 fabric on func "
                     "needs about 6 KB per PE, "),
              0u)
        << m;
    EXPECT_NE(m.find(" GB for its 4294836225 PEs; this machine has "), std::string::npos) << m;
  }
}

// Makes the RTL's copy of x[i] on PE(0,0) differ: it holds `value` (cosim: machine 1 is the RTL).
void CorruptRtlX(Rig& rig, int i, float value) {
  const uint16_t addr = static_cast<uint16_t>(rig.dev.image().Symbol(0, 0, "x")->address + 4 * i);
  uint32_t word;
  std::memcpy(&word, &value, 4);
  rig.dev.machine().Parts()[1]->Write({0, 0}, addr, word);
}

TEST(Device, CosimReportsTheFirstDifference) {
  const layout::Image img = LinkFile(kTutorial + "/01_loop/loop.tlayout");
  Rig rig(Backend::kCosim, img);
  std::vector<float> x(16, 1.0f);
  rig.dev.MemcpyH2D("x", x.data(), 16, {0, 0, 1, 1}, 16);
  CorruptRtlX(rig, 3, 2.0f);
  rig.dev.Launch("main");
  const RunResult r = rig.dev.Run(100000);
  ASSERT_EQ(r.status, RunResult::Status::kMismatch);
  EXPECT_NE(r.message.find("debug records #0 differs: func has \"@180 PE(0,0): 16\"; rtl has "
                           "\"@180 PE(0,0): 17\""),
            std::string::npos)
      << r.message;
}

TEST(Device, CosimFindsTheFirstWaveletThatDiffersOnItsLink) {
  const layout::Image img = LinkFile(kTutorial + "/03_send/send.tlayout");
  Rig rig(Backend::kCosim, img);
  std::vector<float> x(32);
  for (int i = 0; i < 32; ++i) x[i] = 0.5f * i;
  rig.dev.MemcpyH2D("x", x.data(), 32, {0, 0, 1, 1}, 32);
  // The RTL's sender sends 7.0 instead of x[5] = 2.5: the difference shows where the wavelet
  // enters the fabric, long before the receiver's sum differs.
  CorruptRtlX(rig, 5, 7.0f);
  rig.dev.Launch("main");
  const RunResult r = rig.dev.Run(100000);
  ASSERT_EQ(r.status, RunResult::Status::kMismatch);
  EXPECT_NE(r.message.find("cosim: the ramp from PE(0,0)'s CE up to its router, color 3: func "
                           "carries data 0x40200000 at cycle "),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("rtl carries data 0x40e00000 at cycle "), std::string::npos)
      << r.message;
}

TEST(Device, LockstepFindsTheFirstInstructionThatDiffers) {
  const layout::Image img = LinkFile(kTutorial + "/01_loop/loop.tlayout");
  Rig rig(Backend::kCosim, img, fabric::Coord{0, 0});
  std::vector<float> x(16, 1.0f);
  rig.dev.MemcpyH2D("x", x.data(), 16, {0, 0, 1, 1}, 16);
  CorruptRtlX(rig, 3, 2.0f);  // 0x40000000 on the RTL only
  rig.dev.Launch("main");
  const RunResult r = rig.dev.Run(100000);
  ASSERT_EQ(r.status, RunResult::Status::kMismatch);
  EXPECT_NE(r.message.find("cosim lockstep: PE(0,0) after the instruction at pc"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("r4 is 0x3f800000 on func but 0x40000000 on rtl"), std::string::npos)
      << r.message;
}

TEST(Device, LockstepAgreesOnAGoodRun) {
  const layout::Image img = LinkFile(kTutorial + "/03_send/send.tlayout");
  Rig rig(Backend::kCosim, img, fabric::Coord{1, 0});
  rig.dev.Launch("main");
  const RunResult r = rig.dev.Run(100000);
  EXPECT_TRUE(r.ok()) << r.message;
}

TEST(Device, BadInputIsNamedAndNothingRuns) {
  const layout::Image img = LinkFile(kTutorial + "/01_loop/loop.tlayout");
  DeviceOptions o = Options(Backend::kFunc, img);
  o.width = 2;
  {
    Device wrong(o);
    EXPECT_EQ(What([&] { wrong.Load(img); }),
              "the image is linked for a 1x1 fabric, the device has 2x1 (--fabric)");
  }
  Rig rig(Backend::kFunc, img);
  EXPECT_EQ(What([&] { rig.dev.Symbol("nope"); }),
            "unknown symbol 'nope': no PE's program exports it (exported: main, sum, x)");
  float f[4] = {};
  EXPECT_EQ(What([&] {
              rig.dev.MemcpyH2D("x", f, 4, {1, 0, 1, 1}, 4);
            }),
            "memcpy 'x': region at (1,0) of 1x1 PEs reaches outside the 1x1 fabric");
  EXPECT_EQ(What([&] {
              rig.dev.MemcpyH2D("x", f, 4, {0, 0, 1, 1}, 17);
            }),
            "memcpy 'x': the host array has 4 elements, but 1x1 PEs with 17 each need 17");
  EXPECT_NE(What([&] { rig.dev.Launch("x"); }).find("no local task starts at 'x'"),
            std::string::npos);
  EXPECT_EQ(rig.dev.Cycle(), 0u);
  const RunResult r = rig.dev.Run(100);  // nothing was launched: quiescent at once
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.cycles(), 0u);
  EXPECT_EQ(What([] {
              DeviceOptions bad;
              bad.lockstep = fabric::Coord{0, 0};
              Device d(bad);
            }),
            "--lockstep: needs --backend cosim");
  EXPECT_EQ(What([] { ParseBackend("verilog"); }),
            "--backend verilog: expected func, rtl or cosim");
}

}  // namespace
}  // namespace tessera::runtime
