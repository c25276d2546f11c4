#include "core/memtrace/analysis/trace_check.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/memtrace/internal/undefined_code.h"
#include "core/memtrace/trace_writer.h"
#include "core/memtrace/view/test_trace.h"

namespace mpo::memtrace::analysis {
namespace {

constexpr OcamlInt kSite = 0x5a5a5a5a1234;

// Three allocations at `t`, each with the backtrace [kSite, kSite].
std::vector<std::uint8_t> Trace(std::int64_t start, std::int64_t t) {
  VectorSink sink;
  Info info;
  info.pid = 3;
  info.start_time = start;
  info.sample_rate = 0.25;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  std::vector<Location> site = {{"a.ml", 3, 1, 2, "A.f"}};
  const LocationLookup lookup = [&](OcamlInt) { return &site; };
  const std::vector<OcamlInt> bt = {kSite, kSite};
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE((*w)->PutAlloc(0, t, 4, 2, AllocationSource::kMajor, bt, lookup).ok());
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

TraceCheck Check(const std::vector<std::uint8_t>& bytes, const TraceCheckOptions& options = {}) {
  return CheckTrace(MemorySource(bytes), options);
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(TraceCheck, ACleanTraceIsCountedAndValid) {
  const auto bytes = Trace(100, 150);
  std::uint64_t last_done = 0, total = 0;
  TraceCheckOptions options;
  options.progress = [&](std::uint64_t done, std::uint64_t of) {
    last_done = done;
    total = of;
  };
  options.on_error = [](const Status& s) { ADD_FAILURE() << s.ToString(); };
  const TraceCheck c = Check(bytes, options);
  EXPECT_TRUE(c.header_read);
  EXPECT_TRUE(c.valid());
  EXPECT_EQ(c.info.pid, 3);
  EXPECT_EQ(c.events, 3u);
  EXPECT_EQ(c.last_time, 150);
  EXPECT_EQ(c.locations, 1u);
  EXPECT_GE(c.packets, 2u);  // the info packet and at least one of events
  EXPECT_EQ(c.undefined_codes + c.bad_packets, 0u);
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(total, bytes.size());
  EXPECT_EQ(last_done, bytes.size());

  const std::string json = FormatTraceCheckJson(c, "t.ctf");
  EXPECT_TRUE(json.starts_with("{\"file\":\"t.ctf\",\"trace\":{\"file\":\"t.ctf\",\"version\":"))
      << json;
  EXPECT_TRUE(Has(json, "\"pid\":3,")) << json;
  EXPECT_TRUE(Has(json, "\"valid\":true,\"packets\":" + std::to_string(c.packets) +
                            ",\"events\":3,\"locations\":1,\"undefined_location_codes\":0,"
                            "\"bad_packets\":0,\"warnings\":[],\"error\":null,\"errors\":[]}\n"))
      << json;
  EXPECT_TRUE(json.ends_with("}\n"));
}

TEST(TraceCheck, AHeaderThatDoesNotReadLeavesTraceNull) {
  const std::vector<std::uint8_t> bytes(64, 0xab);
  int calls = 0;
  TraceCheckOptions options;
  options.on_error = [&](const Status&) { ++calls; };
  const TraceCheck c = Check(bytes, options);
  EXPECT_FALSE(c.header_read);
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(calls, 0);  // the caller reports an unreadable header itself
  const std::string json = FormatTraceCheckJson(c, "x\"y");
  EXPECT_TRUE(
      json.starts_with("{\"file\":\"x\\\"y\",\"trace\":null,\"valid\":false,"
                       "\"packets\":0,\"events\":0,\"locations\":0,"))
      << json;
  EXPECT_TRUE(Has(json, ",\"warnings\":[],\"error\":{")) << json;
  EXPECT_TRUE(Has(json, ",\"errors\":[{")) << json;
}

TEST(TraceCheck, AnUndefinedCodeEndsTheCheckUnlessKeepGoing) {
  const auto bad = testing::WithUndefinedCode(Trace(0, 5), kSite);
  ASSERT_FALSE(bad.empty());
  const std::uint64_t first_use = testing::FirstUseOffset(bad, kSite);

  std::vector<Status> seen;
  TraceCheckOptions options;
  options.on_error = [&](const Status& s) { seen.push_back(s); };
  const TraceCheck first = Check(bad, options);
  EXPECT_TRUE(first.header_read);
  EXPECT_FALSE(first.valid());
  ASSERT_EQ(first.errors.size(), 1u);
  EXPECT_EQ(first.undefined_codes, 1u);
  EXPECT_EQ(first.bad_packets, 0u);
  EXPECT_EQ(first.events, 0u);
  EXPECT_EQ(first.errors[0].field(), "backtrace: location code");
  EXPECT_EQ(first.errors[0].byte_offset(), std::optional<std::uint64_t>(first_use));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].ToString(), first.errors[0].ToString());

  seen.clear();
  options.keep_going = true;
  const TraceCheck all = Check(bad, options);
  // The event with the undefined code is dropped; the check goes on to the others.
  EXPECT_EQ(all.errors.size(), 1u);
  EXPECT_EQ(all.undefined_codes, 1u);
  EXPECT_EQ(all.events, 2u);
  EXPECT_EQ(seen.size(), 1u);
  const std::string json = FormatTraceCheckJson(all, "bad.ctf");
  EXPECT_TRUE(Has(json, "\"valid\":false,")) << json;
  EXPECT_TRUE(
      Has(json, "\"events\":2,\"locations\":1,\"undefined_location_codes\":1,\"bad_packets\":0,"))
      << json;
}

TEST(TraceCheck, ABadPacketIsTheReadersError) {
  auto bytes = Trace(0, 5);
  const std::vector<std::uint64_t> packets = view::testing::PacketOffsets(bytes);
  ASSERT_GE(packets.size(), 2u);
  bytes[packets[1]] ^= 0xff;  // the first event packet's magic
  const TraceCheck c = Check(bytes);
  EXPECT_TRUE(c.header_read);
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(c.bad_packets, 1u);
  EXPECT_EQ(c.undefined_codes, 0u);
  EXPECT_EQ(c.errors[0].byte_offset(), std::optional<std::uint64_t>(packets[1]));
}

}  // namespace
}  // namespace mpo::memtrace::analysis
