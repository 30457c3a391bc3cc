// Running a layout's programs the way the comparison tests do (threads_test, rtl_tiles_test):
// the same program run two ways must end alike.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cosim/end_state.h"
#include "fabric/fabric.h"
#include "layout/layout.h"
#include "runtime/device.h"

namespace tessera::runtime::test {

struct LayoutRun {
  std::unique_ptr<Device> dev;
  RunResult result;
  std::vector<fabric::LinkEvent> links;  // the link log of the whole run
};

// Links `layout_text` (a .tlayout's text, its paths relative to `dir`), opens a device with
// `opt` on the image's fabric, counts back pressure, loads the image, launches main and runs at
// most `cycles`.
inline LayoutRun RunLayout(const std::string& layout_text, const std::string& dir,
                           DeviceOptions opt, uint64_t cycles) {
  const layout::Image img = layout::Link(layout::ParseLayoutText("run.tlayout", layout_text, dir));
  opt.width = img.fabric_w;
  opt.height = img.fabric_h;
  LayoutRun r;
  r.dev = std::make_unique<Device>(opt);
  r.dev->SetDebugHandler([](const ce::DebugRecord&) {});
  r.dev->SetLinkHandler([&r](const std::vector<fabric::LinkEvent>& v) {
    r.links.insert(r.links.end(), v.begin(), v.end());
  });
  r.dev->machine().Fabric().SetBackPressureCount(true);
  r.dev->Load(img);
  r.dev->Launch("main");
  r.result = r.dev->Run(cycles);
  return r;
}

// Both runs ended alike: the status, cycles and instructions, every PE's final state
// (instructions issued, every compared register, all SRAM), the links both fabrics observe
// (Fabric::ObservesLink: the RTL sees router outputs only at tile sides) and the back pressure.
inline void ExpectSameRuns(const LayoutRun& a, const LayoutRun& b) {
  EXPECT_EQ(StatusName(b.result.status), StatusName(a.result.status));
  EXPECT_EQ(b.result.cycles(), a.result.cycles());
  EXPECT_EQ(b.result.instructions, a.result.instructions);
  EXPECT_EQ(cosim::CompareState(a.dev->machine(), b.dev->machine()), "");
  std::vector<fabric::LinkEvent> la = a.links, lb = b.links;
  fabric::CanonicalLinkLogs(la, lb, a.dev->machine().Fabric(), b.dev->machine().Fabric());
  EXPECT_EQ(lb, la);
  EXPECT_EQ(b.dev->machine().Fabric().BackPressure(), a.dev->machine().Fabric().BackPressure());
}

// Two runs of one layout stopped after the same cycles (`ref` the reference): the register back
// door reads every PE's CycleLo and CeStatus alike; a write of `value` to the SRAM word at `addr`
// of PE `pe` in both; then both run at most `cycles` more and end alike (status, cycles, every
// PE's state).
inline void ExpectSameAfterBackDoor(LayoutRun& ref, LayoutRun& run, fabric::Coord pe, uint16_t addr,
                                    uint32_t value, uint64_t cycles) {
  machine::Machine& mf = ref.dev->machine();
  machine::Machine& mr = run.dev->machine();
  for (int y = 0; y < mf.Height(); ++y) {
    for (int x = 0; x < mf.Width(); ++x) {
      const fabric::Coord c{x, y};
      SCOPED_TRACE(testing::Message() << "PE(" << x << "," << y << ")");
      EXPECT_EQ(mr.Read(c, arch::CycleLo::kAddr), mf.Read(c, arch::CycleLo::kAddr));
      EXPECT_EQ(mr.Read(c, arch::CeStatus::kAddr), mf.Read(c, arch::CeStatus::kAddr));
    }
  }
  for (machine::Machine* m : {&mf, &mr}) m->Write(pe, addr, value);
  const RunResult rf = ref.dev->Run(cycles);
  const RunResult rr = run.dev->Run(cycles);
  EXPECT_EQ(StatusName(rr.status), StatusName(rf.status));
  EXPECT_EQ(rr.cycles(), rf.cycles());
  EXPECT_EQ(cosim::CompareState(mf, mr), "");
}

}  // namespace tessera::runtime::test
