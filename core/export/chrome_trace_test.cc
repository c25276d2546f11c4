#include "core/export/chrome_trace.h"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <set>

#include "core/ring/producer.h"
#include "core/ring/ring_test_util.h"
#include "core/ring/view/event_decoder.h"
#include "core/ring/view/ring_event_test_util.h"

namespace mpo::exporter {
namespace {

using Kind = ring::view::EventKind;

// `value` is the lifecycle data for lifecycle events, else the value word. Names and
// payloads are views: the tests give literals, which outlive the events.
RingEvent Ev(Kind k, std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
             std::int64_t value = 0) {
  if (k != Kind::kLifecycle)
    return ring::view::MakeRingEvent(k, ring, ts, id, name, static_cast<std::uint64_t>(value));
  RingEvent e = ring::view::MakeRingEvent(k, ring, ts, id, name);
  e.data = value;
  return e;
}

constexpr std::string_view kNotUtf8("\xc3\x28", 2);

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

TEST(Chrome, UserIntsAreCounterTracksPerDomain) {
  const nlohmann::json t = ChromeTrace({Ev(Kind::kUserInt, 1, 1000, 2, "app.queue", -4),
                                        Ev(Kind::kUserInt, 1, 3000, 2, "app.queue", 9)},
                                       5);
  std::vector<nlohmann::json> counters;
  for (const nlohmann::json& e : t["traceEvents"]) {
    if (e["ph"] == "C") counters.push_back(e);
    EXPECT_NE(e["ph"], "i") << e.dump();
  }
  ASSERT_EQ(counters.size(), 2u);
  EXPECT_EQ(counters[0]["name"], "app.queue (domain 1)");
  EXPECT_EQ(counters[0]["cat"], "user");
  EXPECT_EQ(counters[0]["args"]["value"], -4);
  EXPECT_EQ(counters[1]["args"]["value"], 9);
  EXPECT_EQ(counters[1]["ts"], 2.0);
  EXPECT_EQ(counters[1]["tid"], 1);
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

// --- The Perfetto rules, checked on the parsed JSON of real and producer rings ---

// The Chrome JSON of a ring, as `events chrome` writes it (two streamed passes), parsed.
nlohmann::json ChromeOfCursors(ring::Cursor first, ring::Cursor second) {
  auto drain = [](ring::Cursor& c, const std::function<void(const RingEvent&)>& f) {
    ring::view::EventCollector collector(ring::kDefaultOcamlVersion, f);
    while (true) {
      auto n = c.ReadPoll(collector);
      EXPECT_TRUE(n.ok()) << n.status().ToString();
      if (!n.ok() || *n == 0) break;
    }
    EXPECT_TRUE(collector.error().ok());
  };
  ChromeTraceScan scan;
  drain(first, [&](const RingEvent& e) { scan.Add(e); });
  std::string text;
  ChromeTraceWriter w(scan.origin(), scan.pid(1), [&](std::string_view t) { text += t; });
  drain(second, [&](const RingEvent& e) { w.Add(e); });
  w.Finish();
  return nlohmann::json::parse(text);
}

struct RuleFigures {
  std::size_t domains = 0;         // threads with events
  std::size_t counter_tracks = 0;  // distinct C names
  std::size_t spans = 0;           // B/E pairs
  std::size_t lost_markers = 0;
  std::size_t notes = 0;  // repaired events
};

// Checks the rules every export must keep, and returns what it saw.
RuleFigures CheckChromeRules(const nlohmann::json& t) {
  RuleFigures f;
  EXPECT_EQ(t.size(), 1u) << "only traceEvents: no displayTimeUnit or other unit key";
  const auto& te = t.at("traceEvents");
  EXPECT_FALSE(te.empty());
  const auto pid = te.at(0).at("pid");
  std::size_t process_names = 0;
  std::set<std::int64_t> named_threads;
  std::map<std::int64_t, std::vector<std::pair<std::string, std::string>>> open;
  std::map<std::int64_t, double> last_ts;
  std::map<std::int64_t, std::set<double>> times;  // of events other than lost markers
  std::map<std::string, std::int64_t> counter_tid;
  std::vector<std::pair<std::int64_t, double>> lost;
  for (const auto& e : te) {
    EXPECT_EQ(e.at("pid"), pid) << e;
    if (e.at("ph") == "M") {
      if (e.at("name") == "process_name") ++process_names;
      if (e.at("name") == "thread_name") {
        const std::int64_t tid = e.at("tid");
        EXPECT_EQ(e.at("args").at("name"), "domain " + std::to_string(tid));
        EXPECT_TRUE(named_threads.insert(tid).second) << "thread named twice: " << e;
      }
      continue;
    }
    const std::int64_t tid = e.at("tid");
    const double ts = e.at("ts");
    EXPECT_TRUE(named_threads.count(tid)) << "event before its thread_name: " << e;
    EXPECT_GE(ts, 0.0);
    // Each domain's events are in time order (the producer's clock is monotonic).
    if (last_ts.count(tid)) {
      EXPECT_GE(ts, last_ts[tid]) << e;
    }
    last_ts[tid] = ts;
    if (e.contains("args") && e.at("args").contains("note")) ++f.notes;
    const std::string ph = e.at("ph");
    if (ph == "B") {
      open[tid].emplace_back(e.at("name"), e.at("cat"));
    } else if (ph == "E") {
      auto& stack = open[tid];
      if (stack.empty()) {
        ADD_FAILURE() << "E without an open B: " << e;
        continue;
      }
      EXPECT_EQ(stack.back(),
                std::make_pair(e.at("name").get<std::string>(), e.at("cat").get<std::string>()))
          << "E does not close the innermost B: " << e;
      stack.pop_back();
      ++f.spans;
    } else if (ph == "C") {
      const std::string name = e.at("name");
      EXPECT_TRUE(name.ends_with(" (domain " + std::to_string(tid) + ")")) << e;
      const auto [it, added] = counter_tid.try_emplace(name, tid);
      EXPECT_EQ(it->second, tid) << "one counter track holds two domains: " << name;
    } else {
      EXPECT_EQ(ph, "i") << e;
      EXPECT_EQ(e.at("s"), "t");
    }
    if (e.at("name") == "lost_events") {
      lost.emplace_back(tid, ts);
    } else {
      times[tid].insert(ts);
    }
  }
  EXPECT_EQ(process_names, 1u);
  for (const auto& [tid, stack] : open) EXPECT_TRUE(stack.empty()) << "domain " << tid << " open";
  // A lost marker sits at the time of another event of its domain (previous or next).
  for (const auto& [tid, ts] : lost) {
    EXPECT_TRUE(times[tid].count(ts)) << "lost_events of domain " << tid << " at " << ts;
  }
  f.domains = named_threads.size();
  f.counter_tracks = counter_tid.size();
  f.lost_markers = lost.size();
  return f;
}

ring::Cursor OpenBytes(const std::string& bytes) {
  auto c = ring::Cursor::FromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())));
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return std::move(*c);
}

RuleFigures RulesOfRealRing(const std::string& name, int pid) {
  const std::string bytes =
      ring::testutil::Gunzip("testdata/ring/" + name + "/" + std::to_string(pid) + ".events.gz");
  EXPECT_FALSE(bytes.empty());
  if (bytes.empty()) return {};
  return CheckChromeRules(ChromeOfCursors(OpenBytes(bytes), OpenBytes(bytes)));
}

TEST(ChromeRules, RealSingleDomainRing) {
  const RuleFigures f = RulesOfRealRing("single", 3995);
  EXPECT_EQ(f.domains, 1u);
  EXPECT_GT(f.spans, 100u);
  EXPECT_GT(f.counter_tracks, 0u);
}

TEST(ChromeRules, RealTwoDomainRing) {
  const RuleFigures f = RulesOfRealRing("user", 4131);
  EXPECT_EQ(f.domains, 2u);
  EXPECT_GT(f.spans, 10u);
}

// A producer ring: `domains` domains each writing the same phases and counters, the
// first `rounds` times; the cursor is opened before the writes, so that a ring written
// past its size is read as lost words, then what survived.
nlohmann::json ProducerChrome(const std::string& sub, unsigned domains, unsigned log2,
                              unsigned rounds) {
  ring::ProducerOptions o;
  o.dir = ring::testutil::FreshDir(sub);
  o.max_domains = domains;
  o.ring_log2_words = log2;
  o.pid = 5150;
  ring::RuntimeEvents ev(o);
  EXPECT_TRUE(ev.Start().ok());
  auto first = ring::Cursor::OpenCurrent(ev.path());
  auto second = ring::Cursor::OpenCurrent(ev.path());
  EXPECT_TRUE(first.ok() && second.ok());
  const unsigned span = *ev.RegisterUserEvent("test.span");
  for (std::uint32_t d = 0; d < domains; ++d) {
    // An outer phase whose begin a small ring overwrites, and whose end survives.
    EXPECT_TRUE(ev.Begin(d, 1).ok());
    for (unsigned i = 0; i < rounds; ++i) {
      EXPECT_TRUE(ev.Begin(d, 11).ok());
      EXPECT_TRUE(ev.Counter(d, 4, i * (d + 1)).ok());
      EXPECT_TRUE(ev.UserSpan(d, span, true).ok());
      EXPECT_TRUE(ev.UserSpan(d, span, false).ok());
      EXPECT_TRUE(ev.End(d, 11).ok());
    }
    EXPECT_TRUE(ev.End(d, 1).ok());
    EXPECT_TRUE(ev.Begin(d, 2).ok());  // never ended: closed at the end
  }
  return ChromeOfCursors(std::move(*first), std::move(*second));
}

TEST(ChromeRules, ProducerSingleDomainRing) {
  const nlohmann::json t = ProducerChrome("single", 1, 16, 50);
  const RuleFigures f = CheckChromeRules(t);
  EXPECT_EQ(f.domains, 1u);
  EXPECT_EQ(f.spans, 2u * 50 + 2);  // 50 x (phase, user span), the outer phase, phase 2
  EXPECT_EQ(f.lost_markers, 0u);
  EXPECT_EQ(f.notes, 1u);  // phase 2 closed at the end
  EXPECT_EQ(t.at("traceEvents").at(0).at("args").at("name"), "OCaml process 5150");
}

TEST(ChromeRules, ProducerMultiDomainRingHasOneCounterTrackPerDomain) {
  const RuleFigures f = CheckChromeRules(ProducerChrome("multi", 4, 16, 20));
  EXPECT_EQ(f.domains, 4u);
  EXPECT_EQ(f.counter_tracks, 4u);  // the same counter, four tracks
  EXPECT_EQ(f.spans, 4u * (2 * 20 + 2));
}

TEST(ChromeRules, ProducerWrappedRing) {
  // 256-word rings written with about 25 words a round, 100 rounds: each ring wraps
  // ten times; the cursor reports the overwritten words as lost.
  const RuleFigures f = CheckChromeRules(ProducerChrome("wrapped", 2, 8, 100));
  EXPECT_EQ(f.domains, 2u);
  EXPECT_EQ(f.lost_markers, 2u);
  // Per domain: the outer phase's end (its begin was lost) becomes a noted instant,
  // phase 2 is closed at the end, maybe a span whose begin was lost.
  EXPECT_GE(f.notes, 4u);
  EXPECT_GT(f.spans, 10u);
}

}  // namespace
}  // namespace mpo::exporter
