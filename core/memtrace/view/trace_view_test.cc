#include "core/memtrace/view/trace_view.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/memtrace/internal/undefined_code.h"
#include "core/memtrace/packet_header.h"
#include "core/memtrace/trace_writer.h"
#include "core/memtrace/view/test_trace.h"

namespace mpo::memtrace::view {
namespace {

using testing::kEmpty;
using testing::kF;
using testing::kG;
using testing::kMain;

// Each record as a short string: "L<code hex>/<frames>", "E<kind>@<time>", "S<offset>".
std::vector<std::string> Records(TraceView& v) {
  std::vector<std::string> out;
  while (const Record* r = v.Next()) {
    char buf[64];
    switch (r->kind) {
      case RecordKind::kLocation:
        std::snprintf(buf, sizeof buf, "L%llx/%zu", static_cast<unsigned long long>(r->code),
                      r->frames.size());
        break;
      case RecordKind::kEvent:
        std::snprintf(buf, sizeof buf, "E%d@%lld", static_cast<int>(r->event->kind),
                      static_cast<long long>(r->event->time));
        break;
      case RecordKind::kSkippedPacket:
        std::snprintf(buf, sizeof buf, "S%llu", static_cast<unsigned long long>(r->offset));
        break;
    }
    out.emplace_back(buf);
  }
  return out;
}

// The view reads `bytes` in place: they must outlive it.
std::unique_ptr<TraceView> Open(const std::vector<std::uint8_t>& bytes, bool backtraces = true,
                                Verdicts verdicts = Verdicts::kStrict) {
  ReaderOptions o;
  o.parse_backtraces = backtraces;
  o.rules = RulesOf(verdicts).memtrace;
  auto v = TraceView::Open(MemorySource(bytes), o);
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? std::move(*v) : nullptr;
}

// Each code once, just before the first event using it, on whichever domain; codes
// carried by a common prefix or already seen on the other domain are not repeated.
TEST(TraceView, LocationsBeforeFirstUseOnce) {
  for (int version : {2, 3}) {
    SCOPED_TRACE(version);
    const auto bytes = testing::ViewTestTrace(version);
    ASSERT_FALSE(bytes.empty());
    auto v = Open(bytes);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(Records(*v), (std::vector<std::string>{
                               "L7a0000000100/1", "L7a0000000200/2", "E0@1001", "L7a0000000300/1",
                               "E0@1002", "E1@1003", "E0@1004", "L7a0000000400/0", "E0@1005"}));
    EXPECT_TRUE(v->status().ok()) << v->status().ToString();
    EXPECT_EQ(v->version(), version);
  }
}

TEST(TraceView, FramesAndOffsetsAreTheReaders) {
  const auto bytes = testing::ViewTestTrace(3);
  auto v = Open(bytes);
  ASSERT_NE(v, nullptr);
  std::uint64_t last_event_offset = 0;
  while (const Record* r = v->Next()) {
    if (r->kind == RecordKind::kEvent) {
      EXPECT_EQ(r->offset, v->reader().event_offset());
      EXPECT_GT(r->offset, last_event_offset);
      last_event_offset = r->offset;
    }
    if (r->kind != RecordKind::kLocation || r->code != kF) continue;
    ASSERT_EQ(r->frames.size(), 2u);
    EXPECT_EQ(v->strings().Get(r->frames[0].defname), "A.inner");
    EXPECT_EQ(v->strings().Get(r->frames[1].filename), "a.ml");
    EXPECT_EQ(r->frames[1].line, 10);
  }
}

TEST(TraceView, NoBacktracesNoLocations) {
  const auto bytes = testing::ViewTestTrace(3);  // the source borrows it: keep it alive
  auto v = Open(bytes, /*backtraces=*/false);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(Records(*v),
            (std::vector<std::string>{"E0@1001", "E0@1002", "E1@1003", "E0@1004", "E0@1005"}));
}

// The one policy: kCorrupt "backtrace: location code" at the first event using the code;
// that event is not delivered; the records before it are.
TEST(TraceView, UndefinedCodeIsTypedErrorAtItsEvent) {
  for (int version : {2, 3}) {
    SCOPED_TRACE(version);
    const auto bad = memtrace::testing::WithUndefinedCode(testing::ViewTestTrace(version), kG);
    ASSERT_FALSE(bad.empty());
    const std::uint64_t first_use = memtrace::testing::FirstUseOffset(bad, kG);
    ASSERT_GT(first_use, 0u);
    auto v = Open(bad);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(Records(*v),
              (std::vector<std::string>{"L7a0000000100/1", "L7a0000000200/2", "E0@1001"}));
    const Status& s = v->status();
    EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
    EXPECT_EQ(s.field(), "backtrace: location code");
    EXPECT_EQ(s.byte_offset(), std::optional<std::uint64_t>(first_use));
    EXPECT_NE(s.message().find("7a0000000300"), std::string::npos) << s.message();
    // The error sticks.
    EXPECT_EQ(v->Next(), nullptr);
    EXPECT_EQ(v->NextEvent(), nullptr);
    // --keep-going: the failing event is dropped, the rest is read; each code is
    // reported once.
    EXPECT_TRUE(v->SkipAfterError());
    EXPECT_EQ(Records(*v),
              (std::vector<std::string>{"E1@1003", "E0@1004", "L7a0000000400/0", "E0@1005"}));
    EXPECT_TRUE(v->status().ok());
    EXPECT_FALSE(v->SkipAfterError());
  }
}

// A packet from another pid is skipped with the reader's warning, as a record where it
// was skipped (between the events around it); a truncated final packet likewise, last.
TEST(TraceView, SkippedPacketsWhereTheyHappen) {
  VectorSink sink;
  Info info;
  info.pid = 7;
  info.start_time = 100;
  auto w = TraceWriter::Create(sink, info);
  ASSERT_TRUE(w.ok());
  const std::vector<Location> frames = {{"a.ml", 1, 2, 3, "f"}};
  const LocationLookup lookup = [&](OcamlInt) { return &frames; };
  const std::vector<OcamlInt> bt = {kMain};
  ASSERT_TRUE((*w)->PutAlloc(0, 101, 1, 1, AllocationSource::kMinor, bt, lookup).ok());
  ASSERT_TRUE((*w)->Flush().ok());
  ASSERT_TRUE((*w)->PutPromote(0, 102, 0).ok());
  ASSERT_TRUE((*w)->Flush().ok());
  ASSERT_TRUE((*w)->PutAlloc(0, 103, 1, 1, AllocationSource::kMinor, bt, lookup).ok());
  ASSERT_TRUE((*w)->Flush().ok());
  ASSERT_TRUE((*w)->PutCollect(0, 104, 0).ok());
  ASSERT_TRUE((*w)->Flush().ok());
  std::vector<std::uint8_t> bytes = sink.data;
  // info, locations, alloc, promote, alloc, collect
  const std::vector<std::uint64_t> packets = testing::PacketOffsets(bytes);
  ASSERT_EQ(packets.size(), 6u);
  bytes[packets[3] + header_offset::kPid] ^= 1;  // the promote's packet: another pid
  bytes.resize(bytes.size() - 1);                // the collect's packet: truncated
  {  // strict refuses the truncated packet, after the same records
    auto strict = Open(bytes);
    ASSERT_NE(strict, nullptr);
    EXPECT_EQ(Records(*strict),
              (std::vector<std::string>{"L7a0000000100/1", "E0@101",
                                        "S" + std::to_string(packets[3]), "E0@103"}));
    EXPECT_EQ(strict->status().code(), ErrorCode::kTruncated);
  }
  // memtrace HEAD's verdict skips it (conformance/VERDICTS.md).
  auto v = Open(bytes, true, Verdicts::kMemtraceHead);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(Records(*v),
            (std::vector<std::string>{"L7a0000000100/1", "E0@101", "S" + std::to_string(packets[3]),
                                      "E0@103", "S" + std::to_string(packets[5])}));
  EXPECT_TRUE(v->status().ok()) << v->status().ToString();
  ASSERT_EQ(v->reader().warnings().size(), 2u);
}

TEST(TraceView, ReaderErrorEndsTheRecords) {
  auto bytes = testing::ViewTestTrace(3);
  const std::vector<std::uint64_t> packets = testing::PacketOffsets(bytes);
  ASSERT_GE(packets.size(), 3u);
  bytes[packets.back() + header_offset::kMagic] ^= 1;
  auto v = Open(bytes);
  ASSERT_NE(v, nullptr);
  (void)Records(*v);
  EXPECT_EQ(v->status().field(), "packet header: magic");
  EXPECT_EQ(v->status().byte_offset(), std::optional<std::uint64_t>(packets.back()));
  auto bad_info = testing::ViewTestTrace(3);
  bad_info[0] ^= 1;
  auto opened = TraceView::Open(MemorySource(bad_info));
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().field(), "packet header: magic");
}

}  // namespace
}  // namespace mpo::memtrace::view
