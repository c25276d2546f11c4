#include "core/ring/view/ring_event.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace mpo::ring::view {
namespace {

TEST(KindName, EveryKindHasItsSchemaName) {
  EXPECT_EQ(KindName(EventKind::kBegin), "begin");
  EXPECT_EQ(KindName(EventKind::kEnd), "end");
  EXPECT_EQ(KindName(EventKind::kCounter), "counter");
  EXPECT_EQ(KindName(EventKind::kAlloc), "alloc");
  EXPECT_EQ(KindName(EventKind::kLifecycle), "lifecycle");
  EXPECT_EQ(KindName(EventKind::kLostEvents), "lost_events");
  EXPECT_EQ(KindName(EventKind::kUserUnit), "user_unit");
  EXPECT_EQ(KindName(EventKind::kUserInt), "user_int");
  EXPECT_EQ(KindName(EventKind::kUserSpanBegin), "user_span_begin");
  EXPECT_EQ(KindName(EventKind::kUserSpanEnd), "user_span_end");
  EXPECT_EQ(KindName(EventKind::kUserCustom), "user_custom");
}

TEST(KindName, NamesAreDistinctAndOutOfRangeIsUnknown) {
  std::set<std::string> names;
  for (unsigned k = 0; k <= static_cast<unsigned>(EventKind::kUserCustom); ++k) {
    names.insert(std::string(KindName(static_cast<EventKind>(k))));
  }
  EXPECT_EQ(names.size(), 11u);
  EXPECT_EQ(names.count("unknown"), 0u);
  EXPECT_EQ(KindName(static_cast<EventKind>(200)), "unknown");
}

TEST(RingEvent, OcamlIntIsTheSignExtendedLow63Bits) {
  RingEvent e;
  e.value = (std::uint64_t{1} << 63) | 5;  // the top bit is not part of an OCaml int
  EXPECT_EQ(e.OcamlInt(), 5);
  e.value = static_cast<std::uint64_t>(-42);
  EXPECT_EQ(e.OcamlInt(), -42);
  e.value = std::uint64_t{1} << 62;  // bit 62 is the OCaml int's sign
  EXPECT_EQ(e.OcamlInt(), -(std::int64_t{1} << 62));
}

}  // namespace
}  // namespace mpo::ring::view
