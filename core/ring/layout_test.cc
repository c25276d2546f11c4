#include "core/ring/layout.h"

#include <gtest/gtest.h>

#include <utility>

#include "core/ring/event_names.h"

namespace mpo::ring {
namespace {

TEST(HeaderCodec, RoundTripsEveryField) {
  for (std::uint64_t len : {1u, 2u, 3u, 131u, 1023u}) {
    for (bool user : {false, true}) {
      for (unsigned type : {0u, 1u, 4u, 15u}) {
        for (unsigned id : {0u, 1u, 48u, 8191u}) {
          const std::uint64_t h = header::Make(len, user, type, id);
          EXPECT_EQ(header::Length(h), len);
          EXPECT_EQ(header::IsUser(h), user);
          EXPECT_EQ(header::Type(h), type);
          EXPECT_EQ(header::Id(h), id);
          EXPECT_EQ(h & ((std::uint64_t{1} << 36) - 1), 0u);
        }
      }
    }
  }
  EXPECT_TRUE(header::IsPadding(header::Padding(5)));
  EXPECT_FALSE(header::IsPadding(header::Make(3, true, 0, 0)));
}

TEST(Geometry, DefaultFileIsOcamlsDefault) {
  const FileGeometry g;
  EXPECT_EQ(g.HeadersOffset(), 64u);
  EXPECT_EQ(g.DataOffset(), 64u + 128u * 80u);
  EXPECT_EQ(g.FileSize(), 64u + 128u * (80u + 524288u) + 8192u * 128u);
}

TEST(EventNames, NumberingDependsOnTheRelease) {
  // 5.3 inserted memprof phases: id 11 is minor in 5.3 but minor_local_roots in 5.2.
  EXPECT_EQ(PhaseName(OcamlVersion::k5_3, 11), "minor");
  EXPECT_EQ(PhaseName(OcamlVersion::k5_2, 11), "minor_local_roots");
  EXPECT_EQ(PhaseName(OcamlVersion::k5_3, 13), "minor_memprof_roots");
  EXPECT_EQ(PhaseName(OcamlVersion::k5_3, 35), "stw_leader");
  EXPECT_EQ(PhaseName(OcamlVersion::k5_2, 43), "compaction_release");
  EXPECT_FALSE(PhaseName(OcamlVersion::k5_1, 40).has_value());
  EXPECT_FALSE(PhaseName(OcamlVersion::k5_3, 48).has_value());
  EXPECT_EQ(PhaseName(OcamlVersion::k5_4, 48), "empty_minor");
  EXPECT_EQ(CounterName(OcamlVersion::k5_3, 4), "minor_promoted");
  EXPECT_FALSE(CounterName(OcamlVersion::k5_0, 11).has_value());
  EXPECT_EQ(CounterName(OcamlVersion::k5_1, 16), "major_heap_large_blocks");
  EXPECT_EQ(LifecycleName(7), "domain_terminate");
  EXPECT_FALSE(LifecycleName(8).has_value());
  EXPECT_FALSE(PhaseName(OcamlVersion::k5_3, 8191).has_value());
}

TEST(EventNames, EachReleaseHasItsNumberOfPhases) {
  const std::pair<OcamlVersion, unsigned> kCounts[] = {
      {OcamlVersion::k5_0, 40}, {OcamlVersion::k5_1, 40}, {OcamlVersion::k5_2, 44},
      {OcamlVersion::k5_3, 48}, {OcamlVersion::k5_4, 49}, {OcamlVersion::k5_5, 49}};
  for (const auto& [version, count] : kCounts) {
    EXPECT_TRUE(PhaseName(version, count - 1).has_value()) << OcamlVersionName(version);
    EXPECT_FALSE(PhaseName(version, count).has_value()) << OcamlVersionName(version);
  }
  EXPECT_EQ(PhaseName(OcamlVersion::k5_3, 9), "major_memprof_roots");
  EXPECT_EQ(PhaseName(OcamlVersion::k5_2, 9), "major_mark");
  EXPECT_EQ(PhaseName(OcamlVersion::k5_3, 37), "major_memprof_clean");
}

TEST(EventNames, EachReleaseHasItsNumberOfCounters) {
  const std::pair<OcamlVersion, unsigned> kCounts[] = {
      {OcamlVersion::k5_0, 11}, {OcamlVersion::k5_1, 17}, {OcamlVersion::k5_2, 17},
      {OcamlVersion::k5_3, 26}, {OcamlVersion::k5_4, 26}, {OcamlVersion::k5_5, 28}};
  for (const auto& [version, count] : kCounts) {
    EXPECT_TRUE(CounterName(version, count - 1).has_value()) << OcamlVersionName(version);
    EXPECT_FALSE(CounterName(version, count).has_value()) << OcamlVersionName(version);
  }
  EXPECT_EQ(CounterName(OcamlVersion::k5_4, 25), "major_slice_budget");
  EXPECT_EQ(CounterName(OcamlVersion::k5_5, 26), "minor_allocated_words");
  EXPECT_EQ(CounterName(OcamlVersion::k5_5, 27), "minor_promoted_words");
}

TEST(EventNames, ParsesVersions) {
  EXPECT_EQ(ParseOcamlVersion("5.3"), OcamlVersion::k5_3);
  EXPECT_EQ(ParseOcamlVersion("5.0.0"), OcamlVersion::k5_0);
  EXPECT_EQ(ParseOcamlVersion("5.5"), OcamlVersion::k5_5);
  EXPECT_FALSE(ParseOcamlVersion("4.14").has_value());
  EXPECT_FALSE(ParseOcamlVersion("5.33").has_value());
  EXPECT_FALSE(ParseOcamlVersion("").has_value());
  EXPECT_EQ(OcamlVersionName(OcamlVersion::k5_4), "5.4");
}

TEST(AllocBuckets, MatchOcamlsHistogram) {
  EXPECT_EQ(AllocBucket(0), 0u);
  EXPECT_EQ(AllocBucket(15), 10u);
  EXPECT_EQ(AllocBucket(1000000), 19u);
}

}  // namespace
}  // namespace mpo::ring
