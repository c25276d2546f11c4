// The consumer's own test: what it wrote with memprof-oracle's writer is what its reader
// gives back.
#include "tiny_trace.h"

#include <gtest/gtest.h>

namespace consumer {
namespace {

TEST(TinyTrace, ReadsBackWhatWasWritten) {
  auto trace = WriteTinyTrace(7);
  ASSERT_TRUE(trace.ok()) << trace.status().ToString();
  auto counts = CountEvents(*trace);
  ASSERT_TRUE(counts.ok()) << counts.status().ToString();
  EXPECT_EQ(counts->allocs, 7u);
  EXPECT_EQ(counts->promotes, 3u);
  EXPECT_EQ(counts->collects, 7u);
  // i % 3 + 1 for i = 0..6: 1 2 3 1 2 3 1.
  EXPECT_EQ(counts->samples, 13u);
  // Even i at Lists.make (1 + 3 + 2 + 1), odd i at Trees.make (2 + 1 + 3).
  const std::map<std::string, std::uint64_t> expected = {
      {"Lists.make@lists.ml:4:8-21", 7},
      {"Trees.make@trees.ml:17:4-40", 6},
  };
  EXPECT_EQ(counts->samples_by_site, expected);
}

TEST(TinyTrace, EmptyTraceHasOnlyItsInfo) {
  auto trace = WriteTinyTrace(0);
  ASSERT_TRUE(trace.ok()) << trace.status().ToString();
  auto counts = CountEvents(*trace);
  ASSERT_TRUE(counts.ok()) << counts.status().ToString();
  EXPECT_EQ(counts->allocs, 0u);
  EXPECT_TRUE(counts->samples_by_site.empty());
}

TEST(TinyTrace, DamagedTraceIsATypedError) {
  auto trace = WriteTinyTrace(3);
  ASSERT_TRUE(trace.ok()) << trace.status().ToString();
  (*trace)[0] ^= 0xff;  // the magic number
  auto counts = CountEvents(*trace);
  ASSERT_FALSE(counts.ok());
  EXPECT_EQ(counts.status().code(), mpo::ErrorCode::kCorrupt) << counts.status().ToString();
}

TEST(TinyTrace, NegativeCountIsRefused) {
  EXPECT_EQ(WriteTinyTrace(-1).status().code(), mpo::ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace consumer
