// A replay gives back every event of the trace it recorded, packed or kept whole.
#include "bench/memtrace/recorded_trace.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace::bench {
namespace {

struct Seen {
  Event ev;
  std::vector<OcamlInt> bt;
};

// Every event as a reader returns it, backtraces copied.
std::vector<Seen> ReadAll(std::span<const std::uint8_t> bytes) {
  std::vector<Seen> out;
  auto r = TraceReader::Open(MemorySource(bytes));
  EXPECT_TRUE(r.ok());
  if (!r.ok()) return out;
  while (const Event* ev = (*r)->NextEvent()) {
    out.push_back({*ev, {ev->backtrace.begin(), ev->backtrace.end()}});
    out.back().ev.backtrace = {};
  }
  EXPECT_TRUE((*r)->status().ok()) << (*r)->status().ToString();
  return out;
}

void ExpectReplayMatches(std::span<const std::uint8_t> bytes) {
  const std::vector<Seen> want = ReadAll(bytes);
  const RecordedTrace d = Record(bytes);
  ASSERT_NE(d.reader, nullptr);
  ASSERT_EQ(d.events.size(), want.size());
  std::vector<std::vector<OcamlInt>> bts = d.Buffers();
  std::size_t i = 0;
  d.Replay(bts, [&](const Event& ev, std::uint8_t slot, std::uint32_t common) {
    ASSERT_LT(i, want.size());
    const Event& w = want[i].ev;
    EXPECT_EQ(ev.kind, w.kind) << i;
    EXPECT_EQ(ev.time, w.time) << i;
    EXPECT_EQ(ev.obj_id, w.obj_id) << i;
    EXPECT_EQ(ev.domain, w.domain) << i;
    EXPECT_EQ(d.domain_ids[slot], w.domain) << i;
    if (w.kind == EventKind::kAlloc) {
      EXPECT_EQ(ev.length, w.length) << i;
      EXPECT_EQ(ev.nsamples, w.nsamples) << i;
      EXPECT_EQ(ev.source, w.source) << i;
      EXPECT_EQ(std::vector<OcamlInt>(ev.backtrace.begin(), ev.backtrace.end()), want[i].bt) << i;
      EXPECT_EQ(ev.common_prefix, static_cast<OcamlInt>(common)) << i;
      EXPECT_LE(common, ev.backtrace.size()) << i;
    }
    ++i;
  });
  EXPECT_EQ(i, want.size());
}

Info TestInfo() {
  Info info;
  info.sample_rate = 0.01;
  info.executable_name = "exec";
  info.pid = 7;
  info.start_time = 1000;
  return info;
}

// Two domains (their alloc ids jump between chunks), time steps and values over 32 bits,
// counts over 16 bits, and a backtrace whose common prefix is over 16 bits.
TEST(RecordedTraceTest, ReplaysPackedAndWideEvents) {
  VectorSink sink;
  WriterOptions opts;
  opts.format_version = 3;
  opts.obj_ids_per_chunk = 5;
  auto w = TraceWriter::Create(sink, TestInfo(), opts);
  ASSERT_TRUE(w.ok());
  const std::vector<Location> frame{{"a.ml", 1, 2, 3, "A.f"}};
  const LocationLookup lookup = [&](OcamlInt) { return &frame; };
  std::int64_t t = 1000;
  std::vector<OcamlInt> deep(70000, 9);
  for (int i = 0; i < 40; ++i) {
    const auto dom = static_cast<std::uint16_t>(i % 3 == 0 ? 1 : 0);
    t += (i == 7) ? (std::int64_t{1} << 33) : 3;
    const OcamlInt length = (i == 11) ? (OcamlInt{1} << 40) : 1 + i % 5;
    const OcamlInt nsamples = (i == 13) ? 70000 : 1;
    std::vector<OcamlInt> bt = {1, 2, 3 + i % 4};
    if (i == 20 || i == 21) {
      bt = deep;
      bt.push_back(100 + i);
    }
    auto id = (*w)->PutAlloc(dom, t, length, nsamples, AllocationSource::kMinor, bt, lookup);
    ASSERT_TRUE(id.ok()) << id.status().ToString();
    if (i % 4 == 1) {
      ASSERT_TRUE((*w)->PutPromote(dom, ++t, *id).ok());
    }
    if (i % 4 == 2) {
      ASSERT_TRUE((*w)->PutCollect(dom, ++t, *id).ok());
    }
  }
  ASSERT_TRUE((*w)->Flush().ok());
  const RecordedTrace d = Record(sink.data);
  EXPECT_GT(d.wide.size(), 4u);  // the cases above, not every event
  EXPECT_LT(d.wide.size(), d.events.size() / 2);
  ExpectReplayMatches(sink.data);
}

// Many short backtraces sharing prefixes, every event packed.
TEST(RecordedTraceTest, ReplaysPackedEvents) {
  VectorSink sink;
  auto w = TraceWriter::Create(sink, TestInfo());
  ASSERT_TRUE(w.ok());
  const std::vector<Location> frame{{"b.ml", 1, 2, 3, "B.g"}};
  const LocationLookup lookup = [&](OcamlInt) { return &frame; };
  for (int i = 0; i < 1000; ++i) {
    std::vector<OcamlInt> bt(static_cast<std::size_t>(1 + i % 17));
    for (std::size_t k = 0; k < bt.size(); ++k) bt[k] = static_cast<OcamlInt>((k * 7 + i) % 23);
    ASSERT_TRUE(
        (*w)->PutAlloc(0, 2000 + i, 1 + i % 9, 1, AllocationSource::kMinor, bt, lookup).ok());
  }
  ASSERT_TRUE((*w)->Flush().ok());
  ExpectReplayMatches(sink.data);
  EXPECT_EQ(Record(sink.data).wide.size(), 0u);
}

}  // namespace
}  // namespace mpo::memtrace::bench
