#include "core/export/ring_stats.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/ring/event_names.h"
#include "core/ring/producer.h"
#include "core/ring/ring_test_util.h"
#include "core/ring/view/event_decoder.h"
#include "core/ring/view/ring_event_test_util.h"

namespace mpo::exporter {
namespace {

using Kind = ring::view::EventKind;
using ring::view::MakeRingEvent;

RingEvent Life(std::uint32_t ring, std::uint64_t ts, ring::Lifecycle l) {
  RingEvent e = MakeRingEvent(Kind::kLifecycle, ring, ts, static_cast<unsigned>(l), "lifecycle");
  return e;
}

RingStats Compute(const std::vector<RingEvent>& events) {
  RingStatsAccumulator a;
  for (const RingEvent& e : events) a.Add(e);
  return a.Finish();
}

TEST(Percentile, NearestRank) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t i = 100; i >= 1; --i) v.push_back(i * 10);  // 10 .. 1000, reversed
  EXPECT_EQ(Percentile(v, 50), 500u);
  EXPECT_EQ(Percentile(v, 90), 900u);
  EXPECT_EQ(Percentile(v, 99), 990u);
  EXPECT_EQ(Percentile(v, 100), 1000u);
  std::vector<std::uint64_t> three = {7, 1, 4};
  EXPECT_EQ(Percentile(three, 50), 4u);  // rank ceil(1.5) = 2
  EXPECT_EQ(Percentile(three, 90), 7u);  // rank 3
  std::vector<std::uint64_t> none;
  EXPECT_EQ(Percentile(none, 50), 0u);
}

TEST(RingStats, KnownPausesGivePercentilesPerPhase) {
  // minor pauses of 1..100 us on domain 0, one major_slice of 5 ms on domain 1.
  std::vector<RingEvent> ev;
  std::uint64_t t = 1000;
  for (std::uint64_t i = 1; i <= 100; ++i) {
    ev.push_back(MakeRingEvent(Kind::kBegin, 0, t, 11, "minor"));
    t += i * 1000;
    ev.push_back(MakeRingEvent(Kind::kEnd, 0, t, 11, "minor"));
    t += 10;
  }
  ev.push_back(MakeRingEvent(Kind::kBegin, 1, 50, 32, "major_slice"));
  ev.push_back(MakeRingEvent(Kind::kEnd, 1, 5'000'050, 32, "major_slice"));
  const RingStats s = Compute(ev);
  const PauseSummary minor = Summarise(s.domains.at(0).phases.at("minor"));
  EXPECT_EQ(minor.count, 100u);
  EXPECT_EQ(minor.total_ns, 5050u * 1000);
  EXPECT_EQ(minor.p50_ns, 50'000u);
  EXPECT_EQ(minor.p90_ns, 90'000u);
  EXPECT_EQ(minor.p99_ns, 99'000u);
  EXPECT_EQ(minor.max_ns, 100'000u);
  EXPECT_EQ(s.minor_collections, 100u);
  EXPECT_EQ(Summarise(s.domains.at(1).phases.at("major_slice")).p50_ns, 5'000'000u);
  EXPECT_EQ(s.domains.at(1).phases.count("minor"), 0u);  // never pooled into another domain
}

TEST(RingStats, WallTimeIsRingStartToStopNotASumOverDomains) {
  // Two domains each in stw_handler for 8 of the 10 units of wall time.
  const std::vector<RingEvent> ev = {
      Life(0, 100, ring::Lifecycle::kRingStart),
      Life(1, 110, ring::Lifecycle::kDomainSpawn),
      MakeRingEvent(Kind::kBegin, 0, 120, 40, "stw_leader"),
      MakeRingEvent(Kind::kBegin, 0, 120, 38, "stw_handler"),
      MakeRingEvent(Kind::kBegin, 1, 120, 38, "stw_handler"),
      MakeRingEvent(Kind::kBegin, 1, 121, 19, "interrupt_remote"),
      MakeRingEvent(Kind::kEnd, 1, 171, 19, "interrupt_remote"),
      MakeRingEvent(Kind::kEnd, 0, 920, 38, "stw_handler"),
      MakeRingEvent(Kind::kEnd, 0, 920, 40, "stw_leader"),
      MakeRingEvent(Kind::kEnd, 1, 920, 38, "stw_handler"),
      Life(1, 160 + 900, ring::Lifecycle::kDomainTerminate),
      Life(0, 1100, ring::Lifecycle::kRingStop),
  };
  const RingStats s = Compute(ev);
  EXPECT_EQ(s.wall_ns, 1000u);
  EXPECT_EQ(s.wall_basis, "ring_start..ring_stop");
  const DomainStats& d0 = s.domains.at(0);
  const DomainStats& d1 = s.domains.at(1);
  EXPECT_EQ(d0.elapsed_ns, 1000u);
  EXPECT_TRUE(d0.elapsed_from_lifecycle);
  EXPECT_EQ(d1.elapsed_ns, 950u);
  EXPECT_EQ(d0.gc_ns, 800u);  // stw_leader, the outermost olly phase
  EXPECT_EQ(d1.gc_ns, 50u);   // interrupt_remote; stw_handler is not one of olly's
  EXPECT_EQ(d0.phases.at("stw_handler").total_ns, 800u);
  EXPECT_EQ(d1.phases.at("stw_handler").total_ns, 800u);
  EXPECT_TRUE(d0.open_at_end.empty());
}

TEST(RingStats, WrappedRingFallsBackToItsEventsAndReportsOpenSpans) {
  const std::vector<RingEvent> ev = {
      MakeRingEvent(Kind::kEnd, 0, 500, 11, "minor"),  // its begin was overwritten
      MakeRingEvent(Kind::kBegin, 0, 600, 0, "major"),
      MakeRingEvent(Kind::kUserSpanBegin, 1, 650, 0, "app.work"),
      MakeRingEvent(Kind::kBegin, 0, 700, 11, "minor"),
      MakeRingEvent(Kind::kCounter, 1, 800, 0, "x"),
  };
  const RingStats s = Compute(ev);
  EXPECT_EQ(s.wall_basis, "first event..last event");
  EXPECT_EQ(s.wall_ns, 300u);
  const DomainStats& d0 = s.domains.at(0);
  EXPECT_EQ(d0.unmatched_ends, 1u);
  EXPECT_FALSE(d0.elapsed_from_lifecycle);
  EXPECT_EQ(d0.elapsed_ns, 200u);
  ASSERT_EQ(d0.open_at_end.size(), 2u);
  EXPECT_EQ(d0.open_at_end[0].name, "major");
  EXPECT_EQ(d0.open_at_end[0].open_ns, 100u);
  EXPECT_EQ(d0.open_at_end[1].name, "minor");
  ASSERT_EQ(s.domains.at(1).open_at_end.size(), 1u);
  EXPECT_TRUE(s.domains.at(1).open_at_end[0].user);
  EXPECT_EQ(s.domains.at(1).open_at_end[0].open_ns, 150u);
  EXPECT_EQ(d0.gc_ns, 0u);  // the open major is not counted as a finished pause
}

TEST(RingStats, LostEventsForgetOpenSpans) {
  const std::vector<RingEvent> ev = {
      MakeRingEvent(Kind::kBegin, 0, 100, 0, "major"),
      MakeRingEvent(Kind::kLostEvents, 0, 0, 0, "lost_events", 12),
      MakeRingEvent(Kind::kEnd, 0, 900, 0, "major"),
  };
  const RingStats s = Compute(ev);
  EXPECT_EQ(s.domains.at(0).lost_words, 12u);
  EXPECT_EQ(s.domains.at(0).unmatched_ends, 1u);
  EXPECT_EQ(s.domains.at(0).gc_ns, 0u);
  EXPECT_EQ(s.domains.at(0).first_ts, 100u);  // lost_events has no time
}

TEST(RingStats, WordCountersAsOllyReadsThem) {
  std::vector<RingEvent> ev = {
      // OCaml 5.3: minor counters in bytes.
      MakeRingEvent(Kind::kCounter, 0, 1, 5, "minor_allocated", 800),
      MakeRingEvent(Kind::kCounter, 0, 2, 4, "minor_promoted", 80),
      MakeRingEvent(Kind::kCounter, 0, 3, 18, "major_allocated_words", 7),
      MakeRingEvent(Kind::kCounter, 0, 4, 18, "major_allocated_words", 3),
      // OCaml 5.5: word counters win over the legacy byte ones.
      MakeRingEvent(Kind::kCounter, 1, 1, 5, "minor_allocated", 8000),
      MakeRingEvent(Kind::kCounter, 1, 2, 26, "minor_allocated_words", 1000),
      MakeRingEvent(Kind::kCounter, 1, 3, 27, "minor_promoted_words", 10),
      MakeRingEvent(Kind::kCounter, 2, 1, 0, "force_minor_alloc_small", 1),
  };
  const RingStats s = Compute(ev);
  EXPECT_EQ(s.domains.at(0).minor_words, 100u);
  EXPECT_EQ(s.domains.at(0).promoted_words, 10u);
  EXPECT_EQ(s.domains.at(0).major_words, 10u);
  EXPECT_EQ(s.domains.at(1).minor_words, 1000u);
  EXPECT_EQ(s.domains.at(1).promoted_words, 10u);
  EXPECT_FALSE(s.domains.at(1).major_words.has_value());
  EXPECT_FALSE(s.domains.at(2).minor_words.has_value());
}

TEST(RingStats, HostileNestingStaysLinear) {
  constexpr unsigned kN = 200000;
  RingStatsAccumulator a;
  for (unsigned i = 0; i < kN; ++i) a.Add(MakeRingEvent(Kind::kBegin, 0, i, 1, "x"));
  for (unsigned i = 0; i < kN; ++i) a.Add(MakeRingEvent(Kind::kEnd, 0, kN + i, 2, "y"));
  a.Add(MakeRingEvent(Kind::kEnd, 0, 3 * kN, 1, "x"));
  const RingStats s = a.Finish();
  EXPECT_EQ(s.domains.at(0).unmatched_ends, kN);
  EXPECT_EQ(s.domains.at(0).phases.at("x").max_ns, 2 * kN + 1);
  EXPECT_EQ(s.domains.at(0).open_at_end.size(), RingStatsAccumulator::kMaxOpenPhases - 1);
}

// A ring of the project's producer, decoded as `events stats` decodes it: a clock that
// ticks 100 ns a call gives known durations.
TEST(RingStats, ProducerRing) {
  ring::ProducerOptions o;
  o.dir = ring::testutil::FreshDir("ring_stats_producer");
  o.max_domains = 2;
  o.ring_log2_words = 12;
  o.pid = 99;
  o.preserve = true;
  std::uint64_t now = 1000;
  o.clock = [&now] { return now += 100; };
  ring::RuntimeEvents ev(o);
  ASSERT_TRUE(ev.Start().ok());  // ring_start at 1100
  auto cursor = ring::Cursor::OpenCurrent(ev.path());
  ASSERT_TRUE(cursor.ok());
  const auto v = ring::kDefaultOcamlVersion;
  auto phase = [&](std::string_view name) {
    for (unsigned id = 0; id < 100; ++id) {
      if (ring::PhaseName(v, id) == name) return id;
    }
    ADD_FAILURE() << name;
    return 0u;
  };
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(ev.Begin(0, phase("major")).ok());
    ASSERT_TRUE(ev.Begin(0, phase("minor")).ok());
    ASSERT_TRUE(ev.End(0, phase("minor")).ok());  // 100 ns
    ASSERT_TRUE(ev.End(0, phase("major")).ok());  // 300 ns
  }
  ASSERT_TRUE(ev.Begin(0, phase("major_gc_stw")).ok());
  ASSERT_TRUE(ev.Stop().ok());
  RingStatsAccumulator a;
  ring::view::EventCollector collector(v, [&](const RingEvent& e) { a.Add(e); });
  while (true) {
    auto n = cursor->ReadPoll(collector);
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    if (*n == 0) break;
  }
  const RingStats s = a.Finish();
  EXPECT_EQ(s.wall_basis, "ring_start..ring_stop");
  EXPECT_EQ(s.wall_ns, 14u * 100);  // 12 phase events and a begin between start and stop
  EXPECT_EQ(s.minor_collections, 3u);
  EXPECT_EQ(s.major_collections, 1u);
  const DomainStats& d = s.domains.at(0);
  EXPECT_EQ(d.gc_ns, 900u);
  EXPECT_EQ(Summarise(d.gc_pauses).p50_ns, 300u);
  EXPECT_EQ(Summarise(d.phases.at("minor")).max_ns, 100u);
  ASSERT_EQ(d.open_at_end.size(), 1u);
  EXPECT_EQ(d.open_at_end[0].name, "major_gc_stw");
  EXPECT_EQ(d.open_at_end[0].open_ns, 100u);
}

TEST(RingStatsFigures, PooledOverDomains) {
  RingStats s;
  DomainStats& a = s.domains[0];
  a.elapsed_ns = 1000;
  a.gc_ns = 300;
  a.gc_pauses = {.count = 2, .total_ns = 300, .max_ns = 200, .all = {100, 200}};
  a.phases["minor"] = {.count = 1, .total_ns = 50, .max_ns = 50, .all = {50}};
  a.minor_words = 100;
  a.promoted_words = 30;
  a.major_words = 7;
  DomainStats& b = s.domains[3];
  b.elapsed_ns = 500;
  b.gc_ns = 40;
  b.gc_pauses = {.count = 1, .total_ns = 40, .max_ns = 40, .all = {40}};
  b.phases["minor"] = {.count = 2, .total_ns = 90, .max_ns = 70, .all = {20, 70}};
  b.phases["major"] = {.count = 1, .total_ns = 9, .max_ns = 9, .all = {9}};
  b.minor_words = 5;
  b.promoted_words = 9;  // more than allocated (a lost event): counts as all promoted

  const DomainSums sum = SumOverDomains(s);
  EXPECT_EQ(sum.time_ns, 1500u);
  EXPECT_EQ(sum.gc_ns, 340u);

  const Durations gc = PooledGcPauses(s);
  EXPECT_EQ(gc.count, 3u);
  EXPECT_EQ(gc.total_ns, 340u);
  EXPECT_EQ(gc.max_ns, 200u);
  EXPECT_EQ(gc.all, (std::vector<std::uint64_t>{100, 200, 40}));

  const std::map<std::string, Durations> phases = PooledPhases(s);
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases.at("minor").count, 3u);
  EXPECT_EQ(phases.at("minor").max_ns, 70u);
  EXPECT_EQ(phases.at("minor").all, (std::vector<std::uint64_t>{50, 20, 70}));
  EXPECT_EQ(Summarise(phases.at("minor")).p50_ns, 50u);
  EXPECT_EQ(phases.at("major").count, 1u);

  EXPECT_EQ(TotalWords(a), std::optional<std::uint64_t>(77));
  EXPECT_EQ(TotalWords(b), std::nullopt);  // no major counter
  b.major_words = 4;
  EXPECT_EQ(TotalWords(b), std::optional<std::uint64_t>(4));
}

}  // namespace
}  // namespace mpo::exporter
