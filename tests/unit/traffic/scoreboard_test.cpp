#include "scoreboards/scoreboard.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "fabric/ramp_port.h"
#include "traffic/payload.h"

namespace tessera::noc {
namespace {

using fabric::MakeLink;

uint64_t Word(int src, uint32_t seq, uint32_t color, bool ctrl = false) {
  return MakeLink(ctrl, color, MakePayload(src, seq));
}

bool Has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A 4x4 board; PE 1 sends color 3 to PE 6 (seq 0..n-1), created at cycle 10*seq, all injected.
struct Board {
  explicit Board(int n = 3, bool log = true) : sb(4, 4, log) {
    for (int i = 0; i < n; ++i) {
      sb.Expect(1, 3, static_cast<uint32_t>(i), {6}, 10u * i);
      sb.Injected(1, 10u * i);
    }
  }
  Scoreboard sb;
};

TEST(Scoreboard, InOrderDeliveriesAreOk) {
  Board b;
  EXPECT_EQ(b.sb.Outstanding(), 3u);
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 0, 3), 15), Verdict::kOk);
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 1, 3), 30), Verdict::kOk);
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 2, 3), 21), Verdict::kOk);
  ScoreStats s = b.sb.Stats();
  EXPECT_EQ(s.offered, 3u);
  EXPECT_EQ(s.injected, 3u);
  EXPECT_EQ(s.expected, 3u);
  EXPECT_EQ(s.delivered, 3u);
  EXPECT_EQ(s.ok, 3u);
  EXPECT_EQ(s.lost, 0u);
  EXPECT_EQ(s.Errors(), 0u);
  EXPECT_EQ(s.latency_count, 3u);
  EXPECT_DOUBLE_EQ(s.latency_avg, (15 + 20 + 1) / 3.0);
  EXPECT_EQ(s.latency_max, 20u);
  EXPECT_EQ(s.first_error, "");
  EXPECT_EQ(b.sb.FirstLost(), "");
}

TEST(Scoreboard, Duplicated) {
  Board b;
  b.sb.Deliver(6, Word(1, 0, 3), 15);
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 0, 3), 16), Verdict::kDuplicated);
  ScoreStats s = b.sb.Stats();
  EXPECT_EQ(s.duplicated, 1u);
  EXPECT_EQ(s.delivered, 2u);
  EXPECT_TRUE(Has(s.first_error, "PE(2,1) at cycle 16")) << s.first_error;
  EXPECT_TRUE(Has(s.first_error, "color 3 from PE(1,0) seq 0")) << s.first_error;
  EXPECT_TRUE(Has(s.first_error, "duplicated")) << s.first_error;
}

TEST(Scoreboard, DuplicateOfAFullyDeliveredWaveletIsStillADuplicate) {
  Board b(1);
  b.sb.Deliver(6, Word(1, 0, 3), 15);  // the record retires
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 0, 3), 17), Verdict::kDuplicated);
  EXPECT_EQ(b.sb.Deliver(5, Word(1, 0, 3), 17), Verdict::kMisrouted);
}

TEST(Scoreboard, Misrouted) {
  Board b;
  EXPECT_EQ(b.sb.Deliver(7, Word(1, 0, 3), 15), Verdict::kMisrouted);   // wrong PE
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 0, 4), 15), Verdict::kMisrouted);   // wrong color
  EXPECT_EQ(b.sb.Deliver(6, Word(20, 0, 3), 15), Verdict::kMisrouted);  // no PE 20 on 4x4
  EXPECT_EQ(b.sb.Deliver(6, Word(2, 0, 3), 15), Verdict::kMisrouted);   // PE 2 sent nothing
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 5, 3), 15), Verdict::kMisrouted);   // not injected yet
  ScoreStats s = b.sb.Stats();
  EXPECT_EQ(s.misrouted, 5u);
  EXPECT_EQ(s.ok, 0u);
  EXPECT_EQ(s.lost, 3u);
  EXPECT_TRUE(Has(s.first_error, "PE(3,1) at cycle 15")) << s.first_error;
  EXPECT_TRUE(Has(s.first_error, "misrouted (not expected there)")) << s.first_error;
}

TEST(Scoreboard, ReorderedCountsOnceAndRemovesTheWavelet) {
  Board b;
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 1, 3), 15), Verdict::kReordered);
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 0, 3), 16), Verdict::kOk);
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 2, 3), 40), Verdict::kOk);
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 1, 3), 41), Verdict::kDuplicated);
  ScoreStats s = b.sb.Stats();
  EXPECT_EQ(s.reordered, 1u);
  EXPECT_EQ(s.ok, 2u);
  EXPECT_EQ(s.duplicated, 1u);
  EXPECT_EQ(s.lost, 0u);
  EXPECT_EQ(s.latency_count, 3u);
  EXPECT_TRUE(Has(s.first_error,
                  "seq 1: reordered (seq 0 of its stream, older, is still "
                  "outstanding: overtaken or lost)"))
      << s.first_error;
}

TEST(Scoreboard, StreamsAreIndependent) {
  // Two sources to one destination on one color, and one source to two destinations: any
  // interleaving of different streams is fine.
  Scoreboard sb(3, 3);
  for (uint32_t i = 0; i < 2; ++i) {
    sb.Expect(0, 1, i, {4}, i);
    sb.Injected(0, i);
    sb.Expect(2, 1, i, {4}, i);
    sb.Injected(2, i);
  }
  EXPECT_EQ(sb.Deliver(4, Word(2, 0, 1), 5), Verdict::kOk);
  EXPECT_EQ(sb.Deliver(4, Word(2, 1, 1), 6), Verdict::kOk);
  EXPECT_EQ(sb.Deliver(4, Word(0, 0, 1), 7), Verdict::kOk);
  EXPECT_EQ(sb.Deliver(4, Word(0, 1, 1), 8), Verdict::kOk);
  EXPECT_EQ(sb.Stats().Errors(), 0u);
}

TEST(Scoreboard, MulticastIsExpectedOncePerDestination) {
  Scoreboard sb(2, 2);
  sb.Expect(0, 0, 0, {3, 1, 0, 2}, 0);  // any order
  sb.Injected(0, 1);
  EXPECT_EQ(sb.Stats().expected, 4u);
  EXPECT_EQ(sb.Deliver(2, Word(0, 0, 0), 5), Verdict::kOk);
  EXPECT_EQ(sb.Deliver(0, Word(0, 0, 0), 6), Verdict::kOk);
  EXPECT_EQ(sb.Deliver(2, Word(0, 0, 0), 7), Verdict::kDuplicated);
  EXPECT_EQ(sb.Lost(), 2u);
  EXPECT_EQ(sb.Deliver(1, Word(0, 0, 0), 5), Verdict::kOk);
  EXPECT_EQ(sb.Deliver(3, Word(0, 0, 0), 5), Verdict::kOk);
  EXPECT_EQ(sb.Lost(), 0u);
}

TEST(Scoreboard, CorruptedControlBit) {
  Board b;
  EXPECT_EQ(b.sb.Deliver(6, Word(1, 0, 3, true), 15), Verdict::kCorrupted);
  EXPECT_EQ(b.sb.Stats().corrupted, 1u);
  EXPECT_EQ(b.sb.Lost(), 2u);
  EXPECT_TRUE(Has(b.sb.FirstError(), "sent as a data wavelet")) << b.sb.FirstError();
}

TEST(Scoreboard, LostAtTheEnd) {
  Board b;
  b.sb.Expect(1, 3, 3, {6}, 35);  // created, never injected
  b.sb.Deliver(6, Word(1, 0, 3), 15);
  b.sb.Deliver(6, Word(1, 2, 3), 35);  // overtakes 1
  EXPECT_EQ(b.sb.Lost(), 2u);
  ScoreStats s = b.sb.Stats();
  EXPECT_EQ(s.lost, 2u);
  EXPECT_EQ(s.Errors(), 3u);
  const std::string l = b.sb.FirstLost();
  EXPECT_TRUE(Has(l, "PE(2,1) never received the data wavelet of color 3 from PE(1,0) seq 1")) << l;
  EXPECT_TRUE(Has(l, "created at cycle 10")) << l;
  EXPECT_TRUE(Has(l, "2 expected deliveries missing")) << l;
}

TEST(Scoreboard, LostOnlyMakesTheFirstErrorWhenThereIsNoOther) {
  Board b;
  EXPECT_TRUE(Has(b.sb.Stats().first_error, "never received")) << b.sb.Stats().first_error;
  EXPECT_EQ(b.sb.FirstError(), "");
}

TEST(Scoreboard, WaveletsWithoutDestinations) {
  Scoreboard sb(2, 1);
  sb.Expect(0, 5, 0, {}, 0);
  sb.Expect(0, 5, 1, {1}, 1);
  sb.Injected(0, 1);
  sb.Injected(0, 2);
  EXPECT_EQ(sb.Deliver(1, Word(0, 0, 5), 9), Verdict::kMisrouted);
  EXPECT_EQ(sb.Deliver(1, Word(0, 1, 5), 9), Verdict::kOk);
  EXPECT_EQ(sb.Stats().offered, 2u);
  EXPECT_EQ(sb.Stats().expected, 1u);
}

TEST(Scoreboard, ApiMisuseThrows) {
  Scoreboard sb(2, 2);
  EXPECT_THROW(sb.Expect(0, 0, 1, {1}, 0), std::logic_error);  // seq 0 comes first
  EXPECT_THROW(sb.Expect(0, 0, 0, {4}, 0), std::invalid_argument);
  EXPECT_THROW(sb.Expect(0, 0, 0, {1, 1}, 0), std::invalid_argument);
  EXPECT_THROW(sb.Expect(9, 0, 0, {1}, 0), std::out_of_range);
  EXPECT_THROW(sb.Injected(0, 0), std::logic_error);  // nothing created
  EXPECT_THROW(sb.Deliver(4, Word(0, 0, 0), 0), std::out_of_range);
  EXPECT_THROW(Scoreboard(65, 64), std::invalid_argument);
}

TEST(Scoreboard, SequenceNumbersWrapInThePayload) {
  Scoreboard sb(2, 1, false);
  const uint32_t n = (1u << 20) + 5;
  const std::vector<int> dst{1};
  for (uint32_t i = 0; i < n; ++i) {
    sb.Expect(0, 2, i, dst, i);
    sb.Injected(0, i);
    if (i >= 3) {
      ASSERT_EQ(sb.Deliver(1, Word(0, i - 3, 2), i), Verdict::kOk) << i;
    }
  }
  for (uint32_t i = n - 3; i < n; ++i) EXPECT_EQ(sb.Deliver(1, Word(0, i, 2), n), Verdict::kOk);
  EXPECT_EQ(sb.Lost(), 0u);
  EXPECT_EQ(sb.Stats().ok, n);
  EXPECT_EQ(sb.Stats().latency_max, 3u);
}

TEST(Scoreboard, ProtocolErrors) {
  Scoreboard sb(2, 2);
  sb.ReportError(3, 77, "credit beyond depth");
  EXPECT_EQ(sb.Stats().protocol, 1u);
  EXPECT_EQ(sb.FirstError(), "PE(1,1) at cycle 77: protocol: credit beyond depth");
}

TEST(Scoreboard, LogKeepsEveryDeliveryInOrder) {
  Board b;
  b.sb.Deliver(6, Word(1, 1, 3), 15);
  b.sb.Deliver(6, Word(1, 0, 3), 16);
  b.sb.Deliver(9, Word(1, 2, 3, true), 17);
  const auto& log = b.sb.Log(6, 3);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].src, 1);
  EXPECT_EQ(log[0].seq, 1u);
  EXPECT_EQ(log[0].cycle, 15u);
  EXPECT_EQ(log[0].verdict, Verdict::kReordered);
  EXPECT_EQ(log[1].seq, 0u);
  ASSERT_EQ(b.sb.Log(9, 3).size(), 1u);
  EXPECT_EQ(b.sb.Log(9, 3)[0].ctrl, 1);
  EXPECT_TRUE(b.sb.Log(6, 4).empty());
  Board quiet(3, false);
  quiet.sb.Deliver(6, Word(1, 0, 3), 15);
  EXPECT_TRUE(quiet.sb.Log(6, 3).empty());
  EXPECT_EQ(quiet.sb.Stats().ok, 1u);
}

TEST(Scoreboard, CompareLogsNamesTheFirstDifference) {
  Board a, b;
  for (Board* x : {&a, &b}) {
    x->sb.Deliver(6, Word(1, 0, 3), 15);
    x->sb.Deliver(6, Word(1, 1, 3), 20);
  }
  EXPECT_EQ(CompareLogs(a.sb, b.sb), "");
  a.sb.Deliver(6, Word(1, 2, 3), 30);
  b.sb.Deliver(6, Word(1, 2, 3), 31);
  EXPECT_EQ(CompareLogs(a.sb, b.sb), "") << "cycles are not compared by default";
  const std::string d = CompareLogs(a.sb, b.sb, true);
  EXPECT_TRUE(Has(d, "PE(2,1) color 3 delivery #2")) << d;
  EXPECT_TRUE(Has(d, "at cycle 30")) << d;
  EXPECT_TRUE(Has(d, "at cycle 31")) << d;
}

TEST(Scoreboard, CompareLogsReportsOrderAndMissingEntries) {
  Scoreboard a(2, 2), b(2, 2);
  for (Scoreboard* s : {&a, &b}) {
    for (uint32_t i = 0; i < 2; ++i) {
      s->Expect(0, 0, i, {3}, 0);
      s->Injected(0, 0);
      s->Expect(1, 0, i, {3}, 0);
      s->Injected(1, 0);
    }
  }
  // a: 0/0, 1/0, 0/1; b: 0/0, 0/1, 1/0. Both correct per stream, different interleaving.
  a.Deliver(3, Word(0, 0, 0), 5);
  a.Deliver(3, Word(1, 0, 0), 6);
  a.Deliver(3, Word(0, 1, 0), 7);
  b.Deliver(3, Word(0, 0, 0), 5);
  b.Deliver(3, Word(0, 1, 0), 6);
  b.Deliver(3, Word(1, 0, 0), 7);
  std::string d = CompareLogs(a, b);
  EXPECT_EQ(d,
            "PE(1,1) color 0 delivery #1: a got PE(1,0) seq 0 data at cycle 6, b got "
            "PE(0,0) seq 1 data at cycle 6 (1 destination/color log differ)");
  EXPECT_EQ(CompareLogs(a, b, false, true), "") << "per source, the interleaving is free";
  b.Deliver(3, Word(1, 1, 0), 8);
  a.Deliver(3, Word(1, 1, 0), 8);
  a.Deliver(3, Word(1, 1, 0), 9);  // a duplicate only a has
  d = CompareLogs(a, b);
  EXPECT_TRUE(Has(d, "delivery #1")) << d;  // the earlier difference wins
  d = CompareLogs(a, b, false, true);
  EXPECT_EQ(d,
            "PE(1,1) color 0 delivery #2 from PE(1,0): a got PE(1,0) seq 1 data at cycle 9, "
            "b got nothing (only 4 deliveries) (1 destination/color log differ)");
  Scoreboard c(3, 2);
  EXPECT_TRUE(Has(CompareLogs(a, c), "different fabrics"));
}

TEST(Scoreboard, CompareLogsPicksTheEarliestDifference) {
  Scoreboard a(2, 2), b(2, 2);
  for (Scoreboard* s : {&a, &b}) {
    s->Expect(0, 0, 0, {0, 1, 2, 3}, 0);
    s->Injected(0, 0);
  }
  a.Deliver(0, Word(0, 0, 0), 50);  // b never gets it at PE 0: a late difference
  a.Deliver(3, Word(0, 0, 0), 10);  // b gets it with the control bit: an early difference
  b.Deliver(3, Word(0, 0, 0, true), 12);
  const std::string d = CompareLogs(a, b);
  EXPECT_TRUE(Has(d,
                  "PE(1,1) color 0 delivery #0: a got PE(0,0) seq 0 data at cycle 10, b got "
                  "PE(0,0) seq 0 control at cycle 12"))
      << d;
  EXPECT_TRUE(Has(d, "(2 destination/color logs differ)")) << d;
  Scoreboard e(2, 2);
  e.Expect(0, 0, 0, {0}, 0);
  e.Injected(0, 0);
  Scoreboard f(2, 2);
  f.Expect(0, 0, 0, {0}, 0);
  f.Injected(0, 0);
  e.Deliver(0, Word(0, 0, 0), 4);
  EXPECT_TRUE(Has(CompareLogs(e, f), "b got nothing (only 0 deliveries)")) << CompareLogs(e, f);
}

TEST(Scoreboard, PredictedFaultsAreKept) {
  Scoreboard sb(2, 2);
  sb.ExpectFault({1, arch::FaultCause::kNoRoute, 4, arch::Dir::kRamp}, 12);
  ASSERT_EQ(sb.PredictedFaults().size(), 1u);
  EXPECT_EQ(sb.PredictedFaults()[0].cycle, 12u);
  EXPECT_EQ(sb.PredictedFaults()[0].fault.cause, arch::FaultCause::kNoRoute);
}

}  // namespace
}  // namespace tessera::noc
