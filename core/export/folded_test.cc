#include "core/export/folded.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "core/memtrace/internal/undefined_code.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::exporter {
namespace {

using namespace mpo::memtrace;

// main -> (outer with inner inlined) -> alloc site, plus a second site and a block
// without backtrace.
std::vector<std::uint8_t> SmallTrace(OcamlInt site_b_code = 3) {
  VectorSink sink;
  Info info;
  info.pid = 1;
  info.start_time = 1000;
  info.sample_rate = 0.01;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  std::map<OcamlInt, std::vector<Location>> locs = {
      {1, {{"main.ml", 3, 0, 1, "Main.run"}}},
      {2, {{"a.ml", 20, 0, 1, "A.inner"}, {"a.ml", 10, 0, 1, "A.outer"}}},
      {site_b_code, {{"b.ml", 5, 0, 1, "B.make;list"}}},
  };
  auto lookup = [&](OcamlInt c) -> const std::vector<Location>* {
    auto it = locs.find(c);
    return it == locs.end() ? nullptr : &it->second;
  };
  const std::vector<OcamlInt> site_a = {1, 2};
  const std::vector<OcamlInt> site_b = {1, site_b_code};
  EXPECT_TRUE((*w)->PutAlloc(0, 1001, 4, 1, AllocationSource::kMinor, site_a, lookup).ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1002, 10, 3, AllocationSource::kMajor, site_a, lookup).ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1003, 2, 2, AllocationSource::kMinor, site_b, lookup).ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1004, 7, 1, AllocationSource::kMinor, {}, lookup).ok());
  EXPECT_TRUE((*w)->PutPromote(0, 1005, 0).ok());
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

TEST(Folded, SamplesCallerFirstInlinedFramesUnfolded) {
  const auto bytes = SmallTrace();
  auto text = FoldedStacks(MemorySource(bytes), FoldedWeight::kSamples);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(*text,
            "<no backtrace> 1\n"
            "Main.run (main.ml:3);A.outer (a.ml:10);A.inner (a.ml:20) 4\n"
            "Main.run (main.ml:3);B.make_list (b.ml:5) 2\n");
}

TEST(Folded, Words) {
  const auto bytes = SmallTrace();
  auto text = FoldedStacks(MemorySource(bytes), FoldedWeight::kWords);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text,
            "<no backtrace> 7\n"
            "Main.run (main.ml:3);A.outer (a.ml:10);A.inner (a.ml:20) 14\n"
            "Main.run (main.ml:3);B.make_list (b.ml:5) 2\n");
}

TEST(Folded, BadTraceIsTypedError) {
  auto bytes = SmallTrace();
  bytes[0] ^= 1;
  auto text = FoldedStacks(MemorySource(bytes), FoldedWeight::kSamples);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().field(), "packet header: magic");
  EXPECT_EQ(text.status().byte_offset(), std::optional<std::uint64_t>(0));
}

// The decoded view's policy: a code no location event defined is a typed error at the
// event that first uses it, not a made-up frame name.
TEST(Folded, UndefinedLocationCodeIsTypedError) {
  constexpr OcamlInt kSite = 0x5a5a5a5a1234;
  const auto bad = memtrace::testing::WithUndefinedCode(SmallTrace(kSite), kSite);
  ASSERT_FALSE(bad.empty());
  const std::uint64_t first_use = memtrace::testing::FirstUseOffset(bad, kSite);
  ASSERT_GT(first_use, 0u);
  auto text = FoldedStacks(MemorySource(bad), FoldedWeight::kSamples);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(text.status().field(), "backtrace: location code");
  EXPECT_EQ(text.status().byte_offset(), std::optional<std::uint64_t>(first_use));
}

}  // namespace
}  // namespace mpo::exporter
