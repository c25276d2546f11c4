#include "core/ring/view/event_decoder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace mpo::ring::view {
namespace {

// An event with its views copied out (they are only valid during OnEvent).
struct Copied {
  EventKind kind;
  std::uint32_t ring;
  std::uint64_t ts;
  unsigned id;
  std::string name;
  std::uint64_t value;
  std::int64_t data;
  std::vector<std::uint64_t> buckets;
  std::string payload;
};

class Recorder final : public EventDecoder {
 public:
  explicit Recorder(OcamlVersion v, OnMalformedPayload p = OnMalformedPayload::kStop)
      : EventDecoder(v, p) {}
  std::vector<Copied> events;
  bool refuse_next = false;

 protected:
  bool OnEvent(const RingEvent& e) override {
    if (refuse_next) {
      refuse_next = false;
      return false;
    }
    events.push_back({e.kind, e.ring, e.ts, e.id, std::string(e.name), e.value, e.data,
                      std::vector<std::uint64_t>(e.buckets.begin(), e.buckets.end()),
                      std::string(e.payload)});
    return true;
  }
};

// Payload words holding `bytes` followed by OCaml's pad-count byte.
std::vector<std::uint64_t> CustomWords(const std::string& bytes, unsigned pad_override = 256) {
  const std::size_t words = bytes.size() / 8 + 1;
  std::string raw(words * 8, '\0');
  std::memcpy(raw.data(), bytes.data(), bytes.size());
  raw.back() = static_cast<char>(pad_override < 256 ? pad_override : raw.size() - 1 - bytes.size());
  std::vector<std::uint64_t> w(words);
  std::memcpy(w.data(), raw.data(), raw.size());
  return w;
}

TEST(EventDecoder, NamesIdsWithTheGivenRelease) {
  Recorder r53(OcamlVersion::k5_3);
  Recorder r52(OcamlVersion::k5_2);
  for (Recorder* r : {&r53, &r52}) {
    EXPECT_TRUE(r->RuntimeBegin(0, 10, 11));
    EXPECT_TRUE(r->RuntimeEnd(1, 20, 200));
    EXPECT_TRUE(r->RuntimeCounter(0, 30, 26, 7));
  }
  EXPECT_EQ(r53.events[0].name, "minor");
  EXPECT_EQ(r52.events[0].name, "minor_local_roots");  // 5.3 inserted memprof phases
  EXPECT_EQ(r53.events[1].name, "unknown");
  EXPECT_EQ(r53.events[1].kind, EventKind::kEnd);
  EXPECT_EQ(r53.events[1].ring, 1u);
  EXPECT_EQ(r53.events[1].id, 200u);
  EXPECT_EQ(r53.events[2].name, "unknown");  // 26 counters in 5.3
  Recorder r55(OcamlVersion::k5_5);
  EXPECT_TRUE(r55.RuntimeCounter(0, 30, 26, 7));
  EXPECT_EQ(r55.events[0].name, "minor_allocated_words");
}

TEST(EventDecoder, KeepsTheConsumersValuesUnconverted) {
  Recorder r(OcamlVersion::k5_3);
  const std::uint64_t big = (std::uint64_t{1} << 63) + 3;
  EXPECT_TRUE(r.RuntimeCounter(0, 1, 4, big));
  const std::uint64_t buckets[3] = {1, big, 0};
  EXPECT_TRUE(r.Alloc(2, 5, buckets));
  EXPECT_TRUE(r.LifecycleEvent(0, 6, 0, 4242));
  EXPECT_TRUE(r.LifecycleEvent(0, 7, 1, 0));
  EXPECT_TRUE(r.LostEvents(3, 99));
  EXPECT_TRUE(r.UserInt(0, 8, 2, "n", static_cast<std::uint64_t>(-5)));
  ASSERT_EQ(r.events.size(), 6u);
  EXPECT_EQ(r.events[0].value, big);
  EXPECT_EQ(r.events[0].name, "minor_promoted");
  EXPECT_EQ(r.events[1].kind, EventKind::kAlloc);
  EXPECT_EQ(r.events[1].buckets, (std::vector<std::uint64_t>{1, big, 0}));
  EXPECT_EQ(r.events[1].name, "alloc");
  EXPECT_EQ(r.events[2].name, "ring_start");
  EXPECT_EQ(r.events[2].data, 4242);
  EXPECT_EQ(r.events[3].name, "ring_stop");
  EXPECT_EQ(r.events[3].data, 0);
  EXPECT_EQ(r.events[4].kind, EventKind::kLostEvents);
  EXPECT_EQ(r.events[4].ring, 3u);
  EXPECT_EQ(r.events[4].ts, 0u);
  EXPECT_EQ(r.events[4].value, 99u);
  EXPECT_EQ(r.events[5].value, static_cast<std::uint64_t>(-5));
  EXPECT_EQ(r.delivered(), 6u);
}

TEST(EventDecoder, UserEventsKeepTheirNameAndCustomLosesItsPadding) {
  Recorder r(OcamlVersion::k5_3);
  const std::string odd_name("\xff\x01", 2);
  EXPECT_TRUE(r.UserUnit(0, 1, 3, odd_name));
  EXPECT_TRUE(r.UserSpan(0, 2, 4, "s", true));
  EXPECT_TRUE(r.UserSpan(0, 3, 4, "s", false));
  const auto words = CustomWords(std::string("ab\0c", 4));
  EXPECT_TRUE(r.UserCustom(1, 4, 5, "c", words));
  ASSERT_EQ(r.events.size(), 4u);
  EXPECT_EQ(r.events[0].kind, EventKind::kUserUnit);
  EXPECT_EQ(r.events[0].name, odd_name);
  EXPECT_EQ(r.events[1].kind, EventKind::kUserSpanBegin);
  EXPECT_EQ(r.events[2].kind, EventKind::kUserSpanEnd);
  EXPECT_EQ(r.events[3].payload, std::string("ab\0c", 4));
  EXPECT_TRUE(r.error().ok());
}

TEST(EventDecoder, MalformedPayloadStopsEverythingAfterIt) {
  Recorder r(OcamlVersion::k5_3, OnMalformedPayload::kStop);
  EXPECT_TRUE(r.UserUnit(0, 1, 0, "u"));
  EXPECT_FALSE(r.UserCustom(0, 2, 1, "c", CustomWords("abc", 200)));
  EXPECT_EQ(r.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(r.error().field(), "custom event: pad-count byte");
  // Whatever comes next is refused: the stream has ended at the error.
  EXPECT_FALSE(r.RuntimeBegin(0, 3, 11));
  EXPECT_FALSE(r.UserCustom(0, 4, 1, "c", CustomWords("fine")));
  EXPECT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.delivered(), 1u);
}

TEST(EventDecoder, MalformedPayloadIsSkippedWhenAsked) {
  Recorder r(OcamlVersion::k5_3, OnMalformedPayload::kSkip);
  EXPECT_TRUE(r.UserCustom(0, 2, 1, "c", {}));  // no payload word at all
  EXPECT_TRUE(r.UserCustom(0, 3, 1, "c", CustomWords("abc", 200)));
  EXPECT_TRUE(r.RuntimeBegin(0, 4, 11));
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].kind, EventKind::kBegin);
  // The first error is the one kept.
  EXPECT_NE(r.error().message().find("without payload"), std::string::npos);
}

TEST(EventDecoder, RefusedEventsAreNotCounted) {
  Recorder r(OcamlVersion::k5_3);
  r.refuse_next = true;
  EXPECT_FALSE(r.RuntimeBegin(0, 1, 11));
  EXPECT_TRUE(r.RuntimeBegin(0, 1, 11));
  EXPECT_EQ(r.delivered(), 1u);
}

TEST(EventCollector, HandsEachEventToTheFunction) {
  std::vector<std::string> kinds;
  EventCollector c(OcamlVersion::k5_3,
                   [&](const RingEvent& e) { kinds.emplace_back(KindName(e.kind)); });
  EXPECT_TRUE(c.RuntimeBegin(0, 1, 11));
  EXPECT_TRUE(c.LostEvents(0, 2));
  EXPECT_FALSE(c.UserCustom(0, 3, 0, "c", {}));
  EXPECT_EQ(kinds, (std::vector<std::string>{"begin", "lost_events"}));
  EXPECT_FALSE(c.error().ok());
}

}  // namespace
}  // namespace mpo::ring::view
