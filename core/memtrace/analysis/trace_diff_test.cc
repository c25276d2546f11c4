#include "core/memtrace/analysis/trace_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

#include "core/memtrace/internal/undefined_code.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

std::vector<std::uint8_t> Trace(std::int64_t start, std::int64_t t, const std::string& file,
                                OcamlInt code = 9) {
  VectorSink sink;
  Info info;
  info.pid = 3;
  info.start_time = start;
  info.sample_rate = 0.25;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  std::vector<Location> site = {{file, 3, 1, 2, "A.f"}};
  const LocationLookup lookup = [&](OcamlInt) { return &site; };
  const std::vector<OcamlInt> bt = {code, code, code};
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE((*w)->PutAlloc(0, t, 4, 2, AllocationSource::kMajor, bt, lookup).ok());
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

std::optional<TraceDifference> Diff(const std::vector<std::uint8_t>& a,
                                    const std::vector<std::uint8_t>& b) {
  DiffFailure f;
  auto d = DiffTraces(*MemorySource(a), *MemorySource(b), &f);
  EXPECT_TRUE(f.status.ok()) << f.status.ToString();
  return d;
}

TEST(TraceDiff, Same) { EXPECT_FALSE(Diff(Trace(0, 5, "a.ml"), Trace(0, 5, "a.ml"))); }

// Found by memtrace_diff_fuzzer: a NaN sample rate made a trace differ from itself.
TEST(TraceDiff, NanSampleRateAgreesWithItselfOnly) {
  auto with_rate = [](double rate) {
    std::vector<std::uint8_t> t = Trace(0, 5, "a.ml");
    // The info packet holds the rate as an 8-byte little-endian double: 0.25 becomes `rate`.
    const auto from = std::bit_cast<std::array<std::uint8_t, 8>>(0.25);
    const auto to = std::bit_cast<std::array<std::uint8_t, 8>>(rate);
    auto at = std::search(t.begin(), t.end(), from.begin(), from.end());
    EXPECT_NE(at, t.end());
    if (at != t.end()) std::copy(to.begin(), to.end(), at);
    return t;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(Diff(with_rate(nan), with_rate(nan)));
  auto d = Diff(with_rate(nan), with_rate(0.5));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "sample_rate");
}

TEST(TraceDiff, Frames) {
  auto d = Diff(Trace(0, 5, "a.ml"), Trace(0, 5, "b.ml"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->where, "event 0");
  EXPECT_EQ(d->field, "backtrace[0]");
  EXPECT_EQ(d->a, "A.f@a.ml:3:1-2");
  EXPECT_EQ(d->b, "A.f@b.ml:3:1-2");
}

TEST(TraceDiff, StartTime) {
  auto d = Diff(Trace(0, 5, "a.ml"), Trace(1, 5, "a.ml"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "start_time");
}

// Times since the start of 2^64 - 2 us: exact, no signed overflow.
TEST(TraceDiff, ExtremeTimes) {
  EXPECT_FALSE(Diff(Trace(kMin + 1, kMax, "a.ml"), Trace(kMin + 1, kMax, "a.ml")));
  auto d = Diff(Trace(kMin + 1, kMax, "a.ml"), Trace(kMin + 1, kMax - 1, "a.ml"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "dt");
  EXPECT_EQ(d->a, "18446744073709551614");
  EXPECT_EQ(d->b, "18446744073709551613");
}

TEST(TraceDiff, BadTraceNamesItsSide) {
  auto a = Trace(0, 5, "a.ml");
  auto b = a;
  b[0] ^= 1;
  DiffFailure f;
  EXPECT_FALSE(DiffTraces(*MemorySource(a), *MemorySource(b), &f));
  EXPECT_EQ(f.side, 1);
  EXPECT_EQ(f.status.field(), "packet header: magic");
}

// The decoded view's policy on either side: a code no location event defined is that
// trace's typed error at the event that first uses it (even when both traces agree).
TEST(TraceDiff, UndefinedLocationCodeIsTypedError) {
  constexpr OcamlInt kSite = 0x5a5a5a5a1234;
  const auto good = Trace(0, 5, "a.ml", kSite);
  const auto bad = testing::WithUndefinedCode(good, kSite);
  ASSERT_FALSE(bad.empty());
  const std::uint64_t first_use = testing::FirstUseOffset(bad, kSite);
  ASSERT_GT(first_use, 0u);
  for (int side : {0, 1}) {
    DiffFailure f;
    EXPECT_FALSE(side == 0 ? DiffTraces(*MemorySource(bad), *MemorySource(good), &f)
                           : DiffTraces(*MemorySource(good), *MemorySource(bad), &f));
    EXPECT_EQ(f.side, side);
    EXPECT_EQ(f.status.code(), ErrorCode::kCorrupt);
    EXPECT_EQ(f.status.field(), "backtrace: location code");
    EXPECT_EQ(f.status.byte_offset(), std::optional<std::uint64_t>(first_use));
  }
  DiffFailure both;
  EXPECT_FALSE(DiffTraces(*MemorySource(bad), *MemorySource(bad), &both));
  EXPECT_EQ(both.status.field(), "backtrace: location code");
}

TEST(TraceDiff, JsonOfEqualAndDifferentTraces) {
  EXPECT_EQ(FormatTraceDiffJson("a.ctf", "b\"c", std::nullopt),
            "{\"a\":\"a.ctf\",\"b\":\"b\\\"c\",\"equal\":true,\"difference\":null}\n");
  const auto d = Diff(Trace(0, 5, "a.ml"), Trace(0, 6, "a.ml"));
  ASSERT_TRUE(d);
  EXPECT_EQ(FormatTraceDiffJson("a", "b", d),
            "{\"a\":\"a\",\"b\":\"b\",\"equal\":false,\"difference\":{\"where\":\"" + d->where +
                "\",\"field\":\"" + d->field + "\",\"a\":\"" + d->a + "\",\"b\":\"" + d->b +
                "\"}}\n");
  const TraceDifference odd{"event 0", "f", "x\ny", "\x01"};
  EXPECT_EQ(FormatTraceDiffJson("a", "b", odd),
            "{\"a\":\"a\",\"b\":\"b\",\"equal\":false,\"difference\":{\"where\":\"event 0\","
            "\"field\":\"f\",\"a\":\"x\\ny\",\"b\":\"\\u0001\"}}\n");
}

}  // namespace
}  // namespace mpo::memtrace
