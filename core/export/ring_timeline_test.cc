#include "core/export/ring_timeline.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/ring/view/ring_event_test_util.h"

namespace mpo::exporter {
namespace {

using Kind = ring::view::EventKind;
using ring::view::MakeRingEvent;

// A copy of an item that outlives the callback.
struct Got {
  TimelineKind kind;
  Kind event_kind;
  std::uint32_t ring;
  std::uint64_t ts;
  unsigned id;
  std::string name;
  std::uint64_t value;
  TimelineNote note;
};

std::vector<Got> Timeline(const std::vector<RingEvent>& events) {
  std::vector<Got> got;
  RingTimeline t([&](const TimelineItem& i) {
    got.push_back({i.kind, i.event.kind, i.event.ring, i.ts, i.event.id, std::string(i.event.name),
                   i.event.value, i.note});
  });
  for (const RingEvent& e : events) t.Add(e);
  t.Finish();
  return got;
}

// Every begin is ended once, nested, per ring; ends never come before their begin.
void ExpectBalanced(const std::vector<Got>& got) {
  std::map<std::uint32_t, std::vector<std::pair<unsigned, bool>>> stacks;
  std::map<std::uint32_t, bool> seen;
  for (const Got& g : got) {
    if (g.kind == TimelineKind::kThread) {
      EXPECT_FALSE(seen[g.ring]) << "two thread items for ring " << g.ring;
      seen[g.ring] = true;
      continue;
    }
    EXPECT_TRUE(seen[g.ring]) << "item before its thread item";
    auto& s = stacks[g.ring];
    const bool user = g.event_kind == Kind::kUserSpanBegin || g.event_kind == Kind::kUserSpanEnd;
    if (g.kind == TimelineKind::kBegin) s.emplace_back(g.id, user);
    if (g.kind == TimelineKind::kEnd) {
      ASSERT_FALSE(s.empty()) << "unbalanced end at " << g.ts;
      EXPECT_EQ(s.back(), std::make_pair(g.id, user)) << "misnested end at " << g.ts;
      s.pop_back();
    }
  }
  for (const auto& [ring, s] : stacks) EXPECT_TRUE(s.empty()) << "ring " << ring << " left open";
}

TEST(RingTimeline, UserIntsAreCounters) {
  RingEvent i = MakeRingEvent(Kind::kUserInt, 1, 10, 2, "app.queue", 7);
  const auto got = Timeline({i, MakeRingEvent(Kind::kUserUnit, 1, 20, 3, "app.tick")});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[1].kind, TimelineKind::kCounter);
  EXPECT_EQ(got[1].event_kind, Kind::kUserInt);
  EXPECT_EQ(got[1].value, 7u);
  EXPECT_EQ(got[2].kind, TimelineKind::kInstant);
}

TEST(RingTimeline, WrappedRingEndWithoutBeginBecomesAnInstant) {
  const auto got = Timeline({MakeRingEvent(Kind::kEnd, 0, 10, 11, "minor"),
                             MakeRingEvent(Kind::kBegin, 0, 20, 11, "minor"),
                             MakeRingEvent(Kind::kEnd, 0, 30, 11, "minor")});
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].kind, TimelineKind::kThread);
  EXPECT_EQ(got[1].kind, TimelineKind::kInstant);
  EXPECT_EQ(got[1].note, TimelineNote::kEndWithoutBegin);
  EXPECT_EQ(got[2].kind, TimelineKind::kBegin);
  EXPECT_EQ(got[3].kind, TimelineKind::kEnd);
  EXPECT_EQ(got[3].note, TimelineNote::kNone);
  ExpectBalanced(got);
}

TEST(RingTimeline, LostEventsTakeTheNextOrPreviousTimestampOfTheirRing) {
  const auto got = Timeline({
      MakeRingEvent(Kind::kLostEvents, 1, 0, 0, "lost_events", 5),
      MakeRingEvent(Kind::kCounter, 0, 100, 1, "c", 3),
      MakeRingEvent(Kind::kLostEvents, 1, 0, 0, "lost_events", 7),
      MakeRingEvent(Kind::kUserUnit, 1, 500, 2, "u"),
      MakeRingEvent(Kind::kBegin, 1, 600, 11, "minor"),
      MakeRingEvent(Kind::kLostEvents, 1, 0, 0, "lost_events", 9),
      MakeRingEvent(Kind::kEnd, 1, 900, 11, "minor"),
  });
  std::vector<Got> lost;
  for (const Got& g : got) {
    if (g.event_kind == Kind::kLostEvents) lost.push_back(g);
  }
  ASSERT_EQ(lost.size(), 2u);
  EXPECT_EQ(lost[0].ts, 500u);  // the next event of ring 1, not ring 0's 100
  EXPECT_EQ(lost[0].value, 12u);
  EXPECT_EQ(lost[1].ts, 600u);  // the previous event of ring 1
  EXPECT_EQ(lost[1].value, 9u);
  // The span open at the loss is closed there; its end after the loss has no begin.
  bool closed = false, orphan = false;
  for (const Got& g : got) {
    closed |=
        g.kind == TimelineKind::kEnd && g.note == TimelineNote::kClosedAtLostEvents && g.ts == 600;
    orphan |=
        g.kind == TimelineKind::kInstant && g.note == TimelineNote::kEndWithoutBegin && g.ts == 900;
  }
  EXPECT_TRUE(closed);
  EXPECT_TRUE(orphan);
  ExpectBalanced(got);
}

TEST(RingTimeline, LostMarkerOfARingWithoutTimestampsTakesTheEarliest) {
  const auto got = Timeline({MakeRingEvent(Kind::kCounter, 0, 70, 1, "c"),
                             MakeRingEvent(Kind::kCounter, 0, 40, 1, "c"),
                             MakeRingEvent(Kind::kLostEvents, 3, 0, 0, "lost_events", 2)});
  ASSERT_EQ(got.back().event_kind, Kind::kLostEvents);
  EXPECT_EQ(got.back().ts, 40u);
  EXPECT_EQ(got.back().ring, 3u);
}

TEST(RingTimeline, OuterEndClosesInnerSpansAndFinishClosesTheRest) {
  const auto got = Timeline({
      MakeRingEvent(Kind::kBegin, 0, 10, 1, "outer"),
      MakeRingEvent(Kind::kUserSpanBegin, 0, 20, 1, "span"),  // same id, other kind: not a match
      MakeRingEvent(Kind::kBegin, 0, 30, 2, "inner"),
      MakeRingEvent(Kind::kEnd, 0, 40, 1, "outer"),
      MakeRingEvent(Kind::kBegin, 0, 50, 3, "open"),
      MakeRingEvent(Kind::kCounter, 0, 60, 0, "c"),
  });
  std::vector<std::pair<std::string, TimelineNote>> ends;
  for (const Got& g : got) {
    if (g.kind == TimelineKind::kEnd) ends.emplace_back(g.name, g.note);
  }
  const std::vector<std::pair<std::string, TimelineNote>> want = {
      {"inner", TimelineNote::kClosedByOuterEnd},
      {"span", TimelineNote::kClosedByOuterEnd},
      {"outer", TimelineNote::kNone},
      {"open", TimelineNote::kClosedAtEndOfRing},
  };
  EXPECT_EQ(ends, want);
  EXPECT_EQ(got.back().ts, 60u);  // closed at the ring's last timestamp
  ExpectBalanced(got);
}

TEST(RingTimeline, DeepNestingBecomesInstants) {
  std::vector<RingEvent> events;
  for (unsigned i = 0; i < RingTimeline::kMaxOpenSpans + 10; ++i) {
    events.push_back(MakeRingEvent(Kind::kBegin, 0, i, 1));
  }
  const auto got = Timeline(events);
  std::size_t deep = 0;
  for (const Got& g : got) deep += g.note == TimelineNote::kBeginTooDeep;
  EXPECT_EQ(deep, 10u);
  ExpectBalanced(got);
}

TEST(RingTimeline, RandomStreamsStayBalanced) {
  std::mt19937_64 rng(20261122);
  const Kind kinds[] = {Kind::kBegin,       Kind::kEnd,        Kind::kUserSpanBegin,
                        Kind::kUserSpanEnd, Kind::kLostEvents, Kind::kCounter};
  for (int round = 0; round < 50; ++round) {
    std::vector<RingEvent> events;
    for (int i = 0; i < 400; ++i) {
      const Kind k = kinds[rng() % std::size(kinds)];
      events.push_back(MakeRingEvent(k, static_cast<std::uint32_t>(rng() % 3), rng() % 1000,
                                     static_cast<unsigned>(rng() % 4), "r", rng() % 8));
    }
    ExpectBalanced(Timeline(events));
  }
}

}  // namespace
}  // namespace mpo::exporter
