#include "core/memtrace/view/json_view.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/memtrace/internal/undefined_code.h"
#include "core/memtrace/trace_writer.h"
#include "core/memtrace/view/test_trace.h"

namespace mpo::memtrace::view {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string Json(const std::vector<std::uint8_t>& bytes, const JsonViewOptions& o = {},
                 Status* status = nullptr) {
  StringTextSink out;
  Status s = WriteJsonView(*MemorySource(bytes), out, o);
  if (status != nullptr) *status = s;
  return out.text;
}

TEST(JsonView, ExactStreamV3) {
  Status s;
  const std::string text = Json(testing::ViewTestTrace(3), {}, &s);
  EXPECT_TRUE(s.ok()) << s.ToString();
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const std::vector<std::string> lines = Lines(text);
  ASSERT_EQ(lines.size(), 11u) << text;
  EXPECT_EQ(lines[0],
            "{\"schema\":2,\"format\":\"memtrace\",\"info\":{\"version\":3,\"sample_rate\":0.01,"
            "\"word_size\":64,\"executable_name\":\"prog\",\"host_name\":\"host\","
            "\"ocaml_runtime_params\":\"\",\"pid\":42,\"initial_domain\":0,\"start_time\":1000,"
            "\"context\":\"ctx\"}}");
  EXPECT_EQ(lines[1],
            "{\"kind\":\"location\",\"code\":\"7a0000000100\",\"frames\":[{\"filename\":"
            "\"main.ml\",\"line\":1,\"start_char\":0,\"end_char\":10,\"defname\":\"Main\"}]}");
  EXPECT_EQ(lines[2],
            "{\"kind\":\"location\",\"code\":\"7a0000000200\",\"frames\":[{\"filename\":\"a.ml\","
            "\"line\":20,\"start_char\":2,\"end_char\":8,\"defname\":\"A.inner\"},{\"filename\":"
            "\"a.ml\",\"line\":10,\"start_char\":0,\"end_char\":30,\"defname\":\"A.outer\"}]}");
  EXPECT_EQ(lines[3],
            "{\"kind\":\"alloc\",\"time\":1001,\"domain\":0,\"id\":0,\"length\":4,\"nsamples\":1,"
            "\"source\":\"minor\",\"common_prefix\":0,\"backtrace\":[\"7a0000000100\","
            "\"7a0000000200\"]}");
  // The Latin-1 filename is marked and kept byte for byte.
  EXPECT_EQ(lines[4],
            "{\"kind\":\"location\",\"code\":\"7a0000000300\",\"frames\":[{\"filename\":"
            "{\"hex\":\"67e92e6d6c\"},\"line\":3,\"start_char\":4,\"end_char\":5,\"defname\":"
            "\"G.g\"}]}");
  EXPECT_NE(lines[5].find("{\"kind\":\"alloc\",\"time\":1002,\"domain\":1,"), std::string::npos)
      << lines[5];
  EXPECT_NE(lines[5].find(",\"length\":5,\"nsamples\":1,\"source\":\"major\",\"common_prefix\":0,"
                          "\"backtrace\":[\"7a0000000100\",\"7a0000000300\"]}"),
            std::string::npos)
      << lines[5];
  EXPECT_EQ(lines[6], "{\"kind\":\"promote\",\"time\":1003,\"domain\":0,\"id\":0}");
  EXPECT_EQ(lines[7],
            "{\"kind\":\"alloc\",\"time\":1004,\"domain\":0,\"id\":1,\"length\":1,\"nsamples\":1,"
            "\"source\":\"minor\",\"common_prefix\":2,\"backtrace\":[\"7a0000000100\","
            "\"7a0000000200\",\"7a0000000300\"]}");
  EXPECT_EQ(lines[8], "{\"kind\":\"location\",\"code\":\"7a0000000400\",\"frames\":[]}");
  EXPECT_EQ(lines[9],
            "{\"kind\":\"alloc\",\"time\":1005,\"domain\":0,\"id\":2,\"length\":2,\"nsamples\":1,"
            "\"source\":\"minor\",\"common_prefix\":0,\"backtrace\":[\"7a0000000400\"]}");
  EXPECT_EQ(lines[10], "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":9}");
}

TEST(JsonView, V2HasNoDomainsButTheSameRecords) {
  const std::vector<std::string> lines = Lines(Json(testing::ViewTestTrace(2)));
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_NE(lines[0].find("\"info\":{\"version\":2,"), std::string::npos) << lines[0];
  EXPECT_NE(lines[5].find("\"time\":1002,\"domain\":0,"), std::string::npos) << lines[5];
  EXPECT_EQ(lines[10], "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":9}");
}

TEST(JsonView, NoBacktraces) {
  JsonViewOptions o;
  o.backtraces = false;
  const std::string text = Json(testing::ViewTestTrace(3), o);
  const std::vector<std::string> lines = Lines(text);
  ASSERT_EQ(lines.size(), 7u) << text;
  EXPECT_EQ(text.find("location"), std::string::npos) << text;
  EXPECT_EQ(text.find("backtrace"), std::string::npos) << text;
  EXPECT_EQ(lines[1],
            "{\"kind\":\"alloc\",\"time\":1001,\"domain\":0,\"id\":0,\"length\":4,\"nsamples\":1,"
            "\"source\":\"minor\",\"common_prefix\":0}");
  EXPECT_EQ(lines[6], "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":5}");
}

TEST(JsonView, UndefinedCodeEndsWithTheTypedError) {
  const auto bad = memtrace::testing::WithUndefinedCode(testing::ViewTestTrace(3), testing::kG);
  ASSERT_FALSE(bad.empty());
  const std::uint64_t first_use = memtrace::testing::FirstUseOffset(bad, testing::kG);
  Status s;
  const std::vector<std::string> lines = Lines(Json(bad, {}, &s));
  EXPECT_EQ(s.field(), "backtrace: location code");
  EXPECT_EQ(s.byte_offset(), std::optional<std::uint64_t>(first_use));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[4],
            "{\"kind\":\"end_of_stream\",\"error\":{\"code\":\"corrupt\",\"check\":"
            "\"backtrace: location code\",\"offset\":" +
                std::to_string(first_use) + "},\"records\":3}");
}

TEST(JsonView, UnreadableInfoIsNull) {
  auto bytes = testing::ViewTestTrace(3);
  bytes[0] ^= 1;
  Status s;
  EXPECT_EQ(Json(bytes, {}, &s),
            "{\"schema\":2,\"format\":\"memtrace\",\"info\":null}\n"
            "{\"kind\":\"end_of_stream\",\"error\":{\"code\":\"corrupt\",\"check\":\"packet "
            "header: magic\","
            "\"offset\":0},\"records\":0}\n");
  EXPECT_EQ(s.field(), "packet header: magic");
}

TEST(JsonView, InfoStringsAndSkippedPackets) {
  VectorSink sink;
  Info info;
  info.sample_rate = 1e-5;
  info.executable_name = "prog\xff";
  info.host_name = "h\"\n";
  info.pid = 5;
  info.start_time = 0;
  auto w = TraceWriter::Create(sink, info);
  ASSERT_TRUE(w.ok());
  const LocationLookup none = [](OcamlInt) { return nullptr; };
  ASSERT_TRUE((*w)->PutAlloc(0, 1, 1, 1, AllocationSource::kExternal, {}, none).ok());
  ASSERT_TRUE((*w)->Flush().ok());
  ASSERT_TRUE((*w)->PutPromote(0, 2, 0).ok());
  ASSERT_TRUE((*w)->Flush().ok());
  auto bytes = sink.data;
  bytes.resize(bytes.size() - 1);  // the last packet is truncated: strict refuses it,
  const std::uint64_t packet = testing::PacketOffsets(sink.data).back();
  Status strict;
  (void)Json(bytes, {}, &strict);
  EXPECT_EQ(strict.code(), ErrorCode::kTruncated);
  JsonViewOptions head;  // memtrace HEAD's verdict skips it with a warning
  head.verdicts = Verdicts::kMemtraceHead;
  const std::vector<std::string> lines = Lines(Json(bytes, head));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[0].find("\"sample_rate\":1e-05,\"word_size\":64,\"executable_name\":{\"hex\":"
                          "\"70726f67ff\"},\"host_name\":\"h\\\"\\n\","),
            std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("\"context\":null}}"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1],
            "{\"kind\":\"alloc\",\"time\":1,\"domain\":0,\"id\":0,\"length\":1,\"nsamples\":1,"
            "\"source\":\"external\",\"common_prefix\":0,\"backtrace\":[]}");
  EXPECT_EQ(lines[2], "{\"kind\":\"skipped_packet\",\"offset\":" + std::to_string(packet) +
                          ",\"reason\":\"skipping truncated packet (" +
                          std::to_string(sink.data.size() - packet) + " bytes declared, " +
                          std::to_string(sink.data.size() - packet - 1) + " present)\"}");
  EXPECT_EQ(lines[3], "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":2}");
}

// The location strings written count against max_location_bytes (a code's frames may
// repeat one long string many times).
TEST(JsonView, LocationBytesBudget) {
  JsonViewOptions o;
  o.limits.max_location_bytes = 20;  // main.ml + Main fits; a.ml x2 + A.inner + A.outer not
  Status s;
  const std::vector<std::string> lines = Lines(Json(testing::ViewTestTrace(3), o, &s));
  EXPECT_EQ(s.code(), ErrorCode::kResourceExhausted);
  EXPECT_NE(s.ToString().find("--max-location-bytes"), std::string::npos) << s.ToString();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[2].find("\"records\":1}"), std::string::npos) << lines[2];
}

// The text goes to the sink in a few large writes, not one per record.
TEST(JsonView, LargeWrites) {
  class Counting : public TextSink {
   public:
    void Write(std::string_view s) override {
      ++writes;
      bytes += s.size();
    }
    std::size_t writes = 0, bytes = 0;
  };
  VectorSink sink;
  Info info;
  info.pid = 1;
  auto w = TraceWriter::Create(sink, info);
  ASSERT_TRUE(w.ok());
  const std::vector<Location> frames = {{"a.ml", 1, 2, 3, "f"}};
  const LocationLookup lookup = [&](OcamlInt) { return &frames; };
  for (int i = 0; i < 20000; ++i)
    ASSERT_TRUE((*w)->PutAlloc(0, i, 1, 1, AllocationSource::kMinor,
                               std::vector<OcamlInt>{testing::kMain + 16 * (i % 50)}, lookup)
                    .ok());
  ASSERT_TRUE((*w)->Flush().ok());
  Counting out;
  ASSERT_TRUE(WriteJsonView(*MemorySource(sink.data), out).ok());
  EXPECT_GT(out.bytes, 20000u * 100);
  EXPECT_LT(out.writes, out.bytes / 30000);
}

}  // namespace
}  // namespace mpo::memtrace::view
