#include "core/memtrace/analysis/trace_stats.h"

#include <gtest/gtest.h>

#include <limits>

#include "core/memtrace/internal/undefined_code.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

TEST(TraceStats, SaturatingSub) {
  EXPECT_EQ(SaturatingSub(5, 3), 2);
  EXPECT_EQ(SaturatingSub(kMax, -1), kMax);
  EXPECT_EQ(SaturatingSub(kMin, 1), kMin);
  EXPECT_EQ(SaturatingSub(-1, kMin), kMax);
  EXPECT_EQ(SaturatingSub(kMin, kMax), kMin);
}

std::vector<std::uint8_t> Trace(std::int64_t start, const std::vector<std::int64_t>& times,
                                OcamlInt site_code = 9) {
  VectorSink sink;
  Info info;
  info.pid = 3;
  info.sample_rate = 0.5;
  info.executable_name = "prog";
  info.start_time = start;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  std::vector<Location> site = {{"a.ml", 3, 1, 2, "A.f"}};
  const LocationLookup lookup = [&](OcamlInt) { return &site; };
  const std::vector<OcamlInt> bt = {site_code};
  OcamlInt id = -1;
  for (std::int64_t t : times) {
    if (id < 0) {
      id = *(*w)->PutAlloc(0, t, 4, 2, AllocationSource::kMajor, bt, lookup);
    } else {
      EXPECT_TRUE((*w)->PutCollect(0, t, id).ok());
      id = -1;
    }
  }
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

TEST(TraceStats, Totals) {
  const auto bytes = Trace(1000, {1010, 1030, 1040});
  auto st = ComputeTraceStats(*MemorySource(bytes), 10);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->blocks, 2u);
  EXPECT_EQ(st->collects, 1u);
  EXPECT_EQ(st->by_source[1], 2u);
  EXPECT_EQ(st->samples, 4u);
  EXPECT_EQ(st->words, 8u);
  EXPECT_EQ(st->duration_us, 40u);
  EXPECT_EQ(st->lifetimes, 1u);
  EXPECT_EQ(st->lifetime_max, 20);
  EXPECT_EQ(st->live_at_end, 1u);
  ASSERT_EQ(st->top.size(), 1u);
  EXPECT_EQ(st->analysis.sites[st->top[0]].names.at(0), "A.f@a.ml:3:1-2");
  const std::string text = FormatTraceStats(*st, "t.ctf");
  EXPECT_NE(text.find("trace: t.ctf (v"), std::string::npos) << text;
  EXPECT_NE(text.find("duration: 0.000040 s\n"), std::string::npos) << text;
  // Rate 0.5, 64-bit words: 4 samples estimate 4 / 0.5 * 8 = 64 bytes.
  EXPECT_NE(text.find("          64 B          4 samples            8 words  A.f@a.ml:3:1-2\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("estimated bytes allocated: 64 B\n"), std::string::npos) << text;
  EXPECT_NE(text.find("still live at end: 1 (est. 32 B)\n"), std::string::npos) << text;
}

TEST(TraceStats, Json) {
  const auto bytes = Trace(1000, {1010, 1030, 1040});
  StatsOptions o;
  auto st = ComputeTraceStats(*MemorySource(bytes), o);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  const std::string json = FormatTraceStatsJson(*st, "t.ctf");
  EXPECT_TRUE(json.starts_with("{\"trace\":{\"file\":\"t.ctf\",\"version\":3,\"exe")) << json;
  EXPECT_NE(json.find("\"allocated\":{\"blocks\":2,\"samples\":4,\"words\":8,\"est_bytes\":64}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"sites\":[{\"site\":\"A.f@a.ml:3:1-2\",\"callers\":[],\"blocks\":2,"
                      "\"samples\":4,\"words\":8,\"est_bytes\":64,\"live_blocks\":1,"
                      "\"live_samples\":2,\"live_words\":4,\"live_est_bytes\":32}]"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"lifetimes_us\":{\"count\":1,\"mean\":20,"), std::string::npos) << json;
  EXPECT_EQ(json.back(), '\n');
}

// A window from 25 us: only the second allocation (at 40) counts, and it stays live.
TEST(TraceStats, WindowAndByWords) {
  const auto bytes = Trace(1000, {1010, 1030, 1040});
  StatsOptions o;
  o.analysis.from_us = 25;
  o.by = SiteRank::kWords;
  auto st = ComputeTraceStats(*MemorySource(bytes), o);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->blocks, 1u);
  EXPECT_EQ(st->collects, 0u);
  EXPECT_EQ(st->live_at_end, 1u);
  const std::string text = FormatTraceStats(*st, "t.ctf");
  EXPECT_NE(text.find("window: [0.000025 s, end]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("top allocation sites by words (of 1):\n"), std::string::npos) << text;
  EXPECT_NE(FormatTraceStatsJson(*st, "t.ctf").find("\"by\":\"words\""), std::string::npos);
}

// Samples rank as estimated bytes do; only the heading and "by" say which was asked.
TEST(TraceStats, BySamples) {
  const auto bytes = Trace(1000, {1010, 1030, 1040});
  StatsOptions o;
  o.by = SiteRank::kSamples;
  auto st = ComputeTraceStats(*MemorySource(bytes), o);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->top.size(), 1u);
  const std::string text = FormatTraceStats(*st, "t.ctf");
  EXPECT_NE(text.find("top allocation sites by samples (of 1):\n"), std::string::npos) << text;
  const std::string json = FormatTraceStatsJson(*st, "t.ctf");
  EXPECT_NE(json.find("\"by\":\"samples\",\"sites_by\":\"allocated\""), std::string::npos) << json;
}

// Times at both ends of the int64 range: the duration is exact (2^64 - 2), the lifetime
// saturates; no signed overflow (UBSan is fatal under --config=asan-ubsan).
TEST(TraceStats, ExtremeTimes) {
  const auto bytes = Trace(kMin + 1, {kMin + 1, kMax});
  auto st = ComputeTraceStats(*MemorySource(bytes), 10);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->duration_us, ~std::uint64_t{0} - 1);
  EXPECT_EQ(st->lifetime_max, kMax);
  EXPECT_EQ(st->lifetime_median, kMax);
}

TEST(TraceStats, TopZeroAndHuge) {
  const auto bytes = Trace(0, {1, 2, 3});
  auto none = ComputeTraceStats(*MemorySource(bytes), 0);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->top.empty());
  auto all = ComputeTraceStats(*MemorySource(bytes), ~std::size_t{0});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->top.size(), 1u);
}

TEST(TraceStats, BadTraceIsTypedError) {
  auto bytes = Trace(0, {1, 2});
  bytes[0] ^= 1;
  auto st = ComputeTraceStats(*MemorySource(bytes), 10);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.status().field(), "packet header: magic");
}

// The decoded view's policy: a backtrace entry whose code no location event defined is a
// typed error at the event that first uses it, even for a site the report never names.
TEST(TraceStats, UndefinedLocationCodeIsTypedError) {
  constexpr OcamlInt kSite = 0x5a5a5a5a1234;
  const auto bad = testing::WithUndefinedCode(Trace(0, {1, 2, 3}, kSite), kSite);
  ASSERT_FALSE(bad.empty());
  const std::uint64_t first_use = testing::FirstUseOffset(bad, kSite);
  ASSERT_GT(first_use, 0u);
  for (std::size_t top : {std::size_t{0}, std::size_t{10}}) {
    auto st = ComputeTraceStats(*MemorySource(bad), top);
    ASSERT_FALSE(st.ok()) << "top " << top;
    EXPECT_EQ(st.status().code(), ErrorCode::kCorrupt);
    EXPECT_EQ(st.status().field(), "backtrace: location code");
    EXPECT_EQ(st.status().byte_offset(), std::optional<std::uint64_t>(first_use));
  }
}

}  // namespace
}  // namespace mpo::memtrace
