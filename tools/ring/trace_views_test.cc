#include "tools/ring/trace_views.h"

#include <gtest/gtest.h>

namespace mpo::tools {
namespace {

using Kind = ring::view::EventKind;

// `value` is the lifecycle data for lifecycle events, else the value word. Names and
// payloads are views: the tests give literals, which outlive the events.
RingEvent Ev(Kind k, std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
             std::int64_t value = 0) {
  RingEvent e;
  e.kind = k;
  e.ring = ring;
  e.ts = ts;
  e.id = id;
  e.name = name;
  if (k == Kind::kLifecycle) {
    e.data = value;
  } else {
    e.value = static_cast<std::uint64_t>(value);
  }
  return e;
}

constexpr std::string_view kNotUtf8("\xc3\x28", 2);

TEST(Stats, NestedPhasesAndLostEvents) {
  const std::vector<RingEvent> events = {
      Ev(Kind::kBegin, 0, 100, 11, "minor"),
      Ev(Kind::kBegin, 0, 110, 31, "minor_global_roots"),
      Ev(Kind::kEnd, 0, 150, 31, "minor_global_roots"),
      Ev(Kind::kEnd, 0, 200, 11, "minor"),
      Ev(Kind::kBegin, 1, 10, 11, "minor"),
      Ev(Kind::kLostEvents, 1, 0, 0, "lost_events", 12),
      Ev(Kind::kEnd, 1, 90, 11, "minor"),
      Ev(Kind::kBegin, 0, 300, 11, "minor"),
      Ev(Kind::kEnd, 0, 340, 11, "minor"),
  };
  const StreamStats s = ComputeStats(events);
  EXPECT_EQ(s.phases.at("minor").count, 2u);
  EXPECT_EQ(s.phases.at("minor").total_ns, 140u);
  EXPECT_EQ(s.phases.at("minor").max_ns, 100u);
  EXPECT_EQ(s.phases.at("minor_global_roots").total_ns, 40u);
  EXPECT_EQ(s.rings.at(1).lost_words, 12u);
  EXPECT_EQ(s.rings.at(1).unmatched_ends, 1u);
  EXPECT_EQ(s.rings.at(0).events_by_kind.at("begin"), 3u);
  EXPECT_NE(FormatStats(s).find("domain 1: 3 events, 12 lost words"), std::string::npos);
}

TEST(Stats, HostileNestingStaysLinear) {
  // 200,000 open begins, then 200,000 ends that match none: each end used to scan every
  // open begin (4e10 steps); the open stack is now capped.
  constexpr unsigned kN = 200000;
  std::vector<RingEvent> events;
  for (unsigned i = 0; i < kN; ++i) events.push_back(Ev(Kind::kBegin, 0, i, 1, "x"));
  for (unsigned i = 0; i < kN; ++i) events.push_back(Ev(Kind::kEnd, 0, kN + i, 2, "y"));
  events.push_back(Ev(Kind::kEnd, 0, 3 * kN, 1, "x"));
  const StreamStats s = ComputeStats(events);
  EXPECT_EQ(s.rings.at(0).unmatched_ends, kN);
  EXPECT_EQ(s.phases.at("x").count, 1u);
  EXPECT_EQ(s.phases.at("x").max_ns, 2 * kN + 1);  // the newest begin matched
}

// The events of `te` that are not metadata ("M").
std::vector<nlohmann::json> NonMetadata(const nlohmann::json& te) {
  std::vector<nlohmann::json> out;
  for (const auto& e : te) {
    if (e.at("ph") != "M") out.push_back(e);
  }
  return out;
}

TEST(Chrome, SpansCountersAndInstants) {
  std::vector<RingEvent> events = {
      Ev(Kind::kLifecycle, 0, 1000, 0, "ring_start", 42),
      Ev(Kind::kBegin, 0, 2000, 11, "minor"),
      Ev(Kind::kCounter, 0, 2500, 4, "minor_promoted", 7),
      Ev(Kind::kEnd, 0, 3000, 11, "minor"),
      Ev(Kind::kUserSpanBegin, 1, 4000, 2, "my.span"),
      Ev(Kind::kUserSpanEnd, 1, 5000, 2, "my.span"),
  };
  events.push_back(Ev(Kind::kUserCustom, 1, 6000, 3, "bytes"));
  events.back().payload = std::string_view("a\"\xff", 3);
  const nlohmann::json t = ChromeTrace(events, 1);
  ASSERT_EQ(t.size(), 1u);  // traceEvents only: no displayTimeUnit
  const auto& te = t.at("traceEvents");
  ASSERT_EQ(te.size(), 12u);  // process name + 2 x (thread name, sort index) + 7 events
  EXPECT_EQ(te[0].at("name"), "process_name");
  EXPECT_EQ(te[0].at("pid"), 42);  // the ring_start's pid, not the fallback
  EXPECT_EQ(te[0].at("args").at("name"), "OCaml process 42");
  EXPECT_EQ(te[1].at("name"), "thread_name");
  EXPECT_EQ(te[1].at("args").at("name"), "domain 0");
  EXPECT_EQ(te[2].at("name"), "thread_sort_index");
  const auto ev = NonMetadata(te);
  ASSERT_EQ(ev.size(), 7u);
  EXPECT_EQ(ev[0].at("ph"), "i");
  EXPECT_EQ(ev[1].at("ph"), "B");
  EXPECT_DOUBLE_EQ(ev[1].at("ts").get<double>(), 1.0);
  EXPECT_EQ(ev[2].at("ph"), "C");
  EXPECT_EQ(ev[2].at("name"), "minor_promoted (domain 0)");
  EXPECT_EQ(ev[2].at("args").at("value"), 7);
  EXPECT_EQ(ev[3].at("ph"), "E");
  EXPECT_EQ(ev[4].at("ph"), "B");
  EXPECT_EQ(ev[4].at("cat"), "user");
  EXPECT_EQ(ev[4].at("tid"), 1);
  EXPECT_EQ(ev[6].at("args").at("payload"), "a\\\"\\255");
  // Serialisable even with bytes that are not UTF-8 in names.
  events.back().name = kNotUtf8;
  EXPECT_FALSE(DumpJson(ChromeTrace(events, 42)).empty());
}

TEST(Chrome, RepairsAreNoted) {
  const std::vector<RingEvent> events = {
      Ev(Kind::kLostEvents, 0, 0, 0, "lost_events", 8),
      Ev(Kind::kEnd, 0, 1000, 11, "minor"),  // its begin was overwritten
      Ev(Kind::kBegin, 0, 2000, 12, "major"),
  };
  const auto ev = NonMetadata(ChromeTrace(events, 9).at("traceEvents"));
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[0].at("name"), "lost_events");
  EXPECT_EQ(ev[0].at("args").at("words"), 8);
  EXPECT_DOUBLE_EQ(ev[0].at("ts").get<double>(), 0.0);  // the next event's time
  EXPECT_EQ(ev[1].at("ph"), "i");
  EXPECT_NE(ev[1].at("args").at("note").get<std::string>().find("without its begin"),
            std::string::npos);
  EXPECT_EQ(ev[3].at("ph"), "E");
  EXPECT_EQ(ev[3].at("name"), "major");
  EXPECT_DOUBLE_EQ(ev[3].at("ts").get<double>(), 1.0);
  EXPECT_TRUE(ev[3].at("args").contains("note"));
}

std::string Streamed(const std::vector<RingEvent>& events, std::int64_t fallback_pid) {
  ChromeTraceScan scan;
  for (const RingEvent& e : events) scan.Add(e);
  std::string out;
  ChromeTraceWriter w(scan.origin(), scan.pid(fallback_pid),
                      [&](std::string_view text) { out += text; });
  for (const RingEvent& e : events) w.Add(e);
  w.Finish();
  return out;
}

TEST(Chrome, StreamedBytesEqualTheDocument) {
  std::vector<RingEvent> events = {
      Ev(Kind::kLostEvents, 2, 0, 0, "lost_events", 99),
      Ev(Kind::kBegin, 2, 7000, 11, "minor"),
      Ev(Kind::kLifecycle, 0, 1500, 0, "ring_start", 4242),
      Ev(Kind::kCounter, 1, 1200, 4, "minor_promoted", -3),
      Ev(Kind::kEnd, 2, 9000, 11, "minor"),
      Ev(Kind::kLostEvents, 1, 0, 0, "lost_events", 5),
      Ev(Kind::kUserInt, 0, 1400, 1, "before.origin", 1),
      Ev(Kind::kLifecycle, 1, 1600, 0, "ring_start", 1),
  };
  events.push_back(Ev(Kind::kUserCustom, 0, 8000, 3, kNotUtf8));
  events.back().payload = std::string_view("a\"\xff\n", 4);
  static constexpr std::uint64_t kBuckets[] = {1, 0, 5};
  events.push_back(Ev(Kind::kAlloc, 1, 8100, 0, "alloc"));
  events.back().buckets = kBuckets;
  EXPECT_EQ(Streamed(events, 1), DumpJson(ChromeTrace(events, 4242)));
  EXPECT_EQ(Streamed({}, 7), DumpJson(ChromeTrace({}, 7)));
  EXPECT_EQ(
      Streamed({}, 7),
      R"({"traceEvents":[{"args":{"name":"OCaml process 7"},"name":"process_name","ph":"M","pid":7}]})");
}

TEST(Chrome, ScanFindsOriginAndFirstRecordedPid) {
  ChromeTraceScan scan;
  scan.Add(Ev(Kind::kLostEvents, 0, 0, 0, "lost_events", 3));
  scan.Add(Ev(Kind::kBegin, 0, 900, 11, "minor"));
  scan.Add(Ev(Kind::kLifecycle, 1, 800, 0, "ring_start", 0));
  scan.Add(Ev(Kind::kLifecycle, 0, 950, 0, "ring_start", 31));
  scan.Add(Ev(Kind::kLifecycle, 0, 960, 0, "ring_start", 32));
  EXPECT_EQ(scan.origin(), 800u);
  EXPECT_EQ(scan.pid(1), 31);
  EXPECT_EQ(ChromeTraceScan().pid(1), 1);
}

}  // namespace
}  // namespace mpo::tools
