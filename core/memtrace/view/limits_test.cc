// The budgets of limits.h on the hostile bombs: each stops with a typed
// kResourceExhausted error naming its option, and large enough budgets decode them.
// Also: `copy` keeps every event's time, even across gaps of 2^63 us.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/internal/bombs.h"
#include "core/memtrace/trace_copy.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"
#include "core/memtrace/view/json_view.h"
#include "core/memtrace/view/text_dump.h"

namespace mpo::memtrace {
namespace {

// Counts what it is given, keeps nothing.
class CountingSink : public TextSink {
 public:
  void Write(std::string_view s) override { bytes += s.size(); }
  std::uint64_t bytes = 0;
};

void ExpectLimit(const Status& s, const std::string& option) {
  EXPECT_EQ(s.code(), ErrorCode::kResourceExhausted) << s.ToString();
  EXPECT_NE(s.ToString().find(option), std::string::npos) << s.ToString();
}

// Decodes every event; the reader's final status.
Status DecodeAll(const std::vector<std::uint8_t>& bytes, const Limits& limits,
                 std::uint64_t* frames = nullptr) {
  ReaderOptions o;
  o.limits = limits;
  auto r = TraceReader::Open(MemorySource(bytes), o);
  if (!r.ok()) return r.status();
  std::uint64_t n = 0;
  while (const Event* e = (*r)->NextEvent()) n += e->backtrace.size();
  if (frames) *frames = n;
  return (*r)->status();
}

TEST(Limits, DeepBacktraceRepeatedStopsAtMaxFrames) {
  const auto bytes = bombs::DeepBacktrace(300'000, 119);
  EXPECT_LT(bytes.size(), 5'000u);
  // 36 M entries: past the 2^25 default.
  ExpectLimit(DecodeAll(bytes, Limits{}), "--max-frames");
  Limits small;
  small.max_frames = 1'000'000;
  CountingSink out;
  ExpectLimit(WriteDumpTrace(*MemorySource(bytes), out, true, {}, small), "--max-frames");
  EXPECT_LT(out.bytes, 1'000'000u * 17);
  Limits large;
  large.max_frames = 40'000'000;
  std::uint64_t frames = 0;
  EXPECT_TRUE(DecodeAll(bytes, large, &frames).ok());
  EXPECT_EQ(frames, 36'000'000u);
}

TEST(Limits, ManyDomainsShareOneBacktraceBudget) {
  const auto bytes = bombs::ManyDomains(8, 1'000'000);
  ExpectLimit(DecodeAll(bytes, Limits{}), "--max-held-frames");
  Limits large;
  large.max_held_frames = 16'000'000;
  EXPECT_TRUE(DecodeAll(bytes, large).ok());
}

TEST(Limits, LongLocationsStopAtMaxLocationBytes) {
  const auto bytes = bombs::LongLocations(20, 60'000);
  // Decoding alone holds each string once.
  EXPECT_TRUE(DecodeAll(bytes, Limits{}).ok());
  auto r = TraceReader::Open(MemorySource(bytes));
  ASSERT_TRUE(r.ok());
  while ((*r)->NextEvent() != nullptr) {
  }
  EXPECT_TRUE((*r)->HasLocation(0x100));
  EXPECT_FALSE((*r)->HasLocation(0x99));
  CountingSink out;
  ExpectLimit(WriteDumpTrace(*MemorySource(bytes), out, true), "--max-location-bytes");
  ExpectLimit(view::WriteJsonView(*MemorySource(bytes), out), "--max-location-bytes");
}

TEST(Limits, DumpTraceStopsAtMaxOutputBytes) {
  const auto bytes = bombs::LongLocations(3, 60'000);
  Limits l;
  l.max_output_bytes = 20'000'000;  // each alloc line repeats 255 x 60 KB
  CountingSink out;
  ExpectLimit(WriteDumpTrace(*MemorySource(bytes), out, true, {}, l), "--max-output-bytes");
  EXPECT_LE(out.bytes, 20'100'000u);
  l.max_output_bytes = 100'000'000;
  CountingSink all;
  EXPECT_TRUE(WriteDumpTrace(*MemorySource(bytes), all, true, {}, l).ok());
  EXPECT_GT(all.bytes, 3u * 255 * 60'000);
}

TEST(Limits, StaircaseDecodes) {
  std::uint64_t frames = 0;
  EXPECT_TRUE(DecodeAll(bombs::Staircase(100), Limits{}, &frames).ok());
  EXPECT_EQ(frames, 100u * 101 / 2);
}

std::vector<std::int64_t> Times(const std::vector<std::uint8_t>& bytes) {
  std::vector<std::int64_t> t;
  auto r = TraceReader::Open(MemorySource(bytes));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return t;
  while (const Event* e = (*r)->NextEvent()) t.push_back(e->time);
  EXPECT_TRUE((*r)->status().ok()) << (*r)->status().ToString();
  return t;
}

// A gap of 2^63 us or more used to turn the writer's flush test negative: no flush, and
// the event's 25-bit time was taken relative to the old packet (a different time).
TEST(Limits, CopyKeepsExtremeTimes) {
  const auto bytes = bombs::ExtremeTimes();
  ASSERT_FALSE(bytes.empty());
  const std::vector<std::int64_t> want = {
      std::numeric_limits<std::int64_t>::min() + 4, 5, std::numeric_limits<std::int64_t>::max() - 7,
      std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max()};
  EXPECT_EQ(Times(bytes), want);
  for (int version : {2, 3}) {
    VectorSink copy;
    ASSERT_TRUE(CopyTrace(*MemorySource(bytes), copy, version).ok());
    EXPECT_EQ(Times(copy.data), want) << "v" << version;
  }
}

TEST(Limits, WriterFlushesOnAGapOfTwoToThe63) {
  for (std::int64_t gap : {std::int64_t{1} << 62, std::numeric_limits<std::int64_t>::max()}) {
    VectorSink sink;
    Info info;
    info.pid = 1;
    info.start_time = -(std::int64_t{1} << 62);
    auto w = TraceWriter::Create(sink, info);
    ASSERT_TRUE(w.ok());
    const LocationLookup none = [](OcamlInt) -> const std::vector<Location>* { return nullptr; };
    const std::int64_t t1 = info.start_time + 1;
    const std::int64_t t2 =
        static_cast<std::int64_t>(static_cast<std::uint64_t>(t1) + static_cast<std::uint64_t>(gap));
    ASSERT_TRUE((*w)->PutAlloc(0, t1, 1, 1, AllocationSource::kMinor, {}, none).ok());
    ASSERT_TRUE((*w)->PutAlloc(0, t2, 1, 1, AllocationSource::kMinor, {}, none).ok());
    ASSERT_TRUE((*w)->Flush().ok());
    EXPECT_EQ(Times(sink.data), (std::vector<std::int64_t>{t1, t2})) << gap;
  }
}

}  // namespace
}  // namespace mpo::memtrace
