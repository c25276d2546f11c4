#include "core/ring/view/json_view.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/ring/producer.h"
#include "core/ring/ring_test_util.h"

namespace mpo::ring::view {
namespace {

// A ring file written by our producer (pid 555, one domain): `body` sets the timestamp
// of each event it writes through `ts`.
std::vector<std::byte> WriteRing(const std::string& sub, unsigned log2_words,
                                 const std::function<void(RuntimeEvents&, std::uint64_t&)>& body,
                                 std::string* path_out = nullptr) {
  auto ts = std::make_shared<std::uint64_t>(100);
  ProducerOptions o;
  o.dir = testutil::FreshDir(sub);
  o.ring_log2_words = log2_words;
  o.max_domains = 1;
  o.preserve = true;
  o.pid = 555;
  o.clock = [ts] { return *ts; };
  RuntimeEvents re(o);
  EXPECT_TRUE(re.Start(0).ok());
  const std::string path = re.path();
  body(re, *ts);
  EXPECT_TRUE(re.Stop(0).ok());
  if (path_out != nullptr) *path_out = path;
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(bytes.size());
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

TEST(RingJsonView, EveryRecordKindInTheDocumentedOrder) {
  const auto file = WriteRing("every", 10, [](RuntimeEvents& re, std::uint64_t& ts) {
    ts = 200;
    ASSERT_TRUE(re.Begin(0, 11).ok());
    ts = 210;
    ASSERT_TRUE(re.End(0, 60).ok());  // no release names phase 60
    ts = 300;
    ASSERT_TRUE(re.Counter(0, 4, (std::uint64_t{1} << 63) + 5).ok());
    std::array<std::uint64_t, kAllocBuckets> buckets{};
    for (std::size_t i = 0; i < buckets.size(); ++i) buckets[i] = i * i;
    buckets[19] = ~std::uint64_t{0};
    ts = 400;
    ASSERT_TRUE(re.Alloc(0, buckets).ok());
    ts = 410;
    ASSERT_TRUE(re.LifecycleEvent(0, Lifecycle::kDomainSpawn, -3).ok());
    auto odd = re.RegisterUserEvent(
        "\xff"
        "bad");
    auto num = re.RegisterUserEvent("n");
    auto span = re.RegisterUserEvent("tab\there");
    auto custom = re.RegisterUserEvent("c");
    ASSERT_TRUE(odd.ok() && num.ok() && span.ok() && custom.ok());
    ts = 500;
    ASSERT_TRUE(re.UserUnit(0, *odd).ok());
    ts = 510;
    ASSERT_TRUE(re.UserInt(0, *num, -42).ok());
    ts = 511;
    ASSERT_TRUE(re.UserInt(0, *num, std::int64_t{1} << 61).ok());
    ts = 520;
    ASSERT_TRUE(re.UserSpan(0, *span, true).ok());
    ts = 530;
    ASSERT_TRUE(re.UserSpan(0, *span, false).ok());
    const std::array<std::byte, 4> bytes = {std::byte{0}, std::byte{0xff}, std::byte{0x41},
                                            std::byte{'"'}};
    ts = 600;
    ASSERT_TRUE(re.UserCustom(0, *custom, bytes).ok());
    ts = 700;  // ring_stop
  });
  StringTextSink out;
  ASSERT_TRUE(WriteJsonView(file, OcamlVersion::k5_3, out).ok());
  const std::string buckets =
      "[0,1,4,9,16,25,36,49,64,81,100,121,144,169,196,225,256,289,324,"
      "18446744073709551615]";
  const std::string want =
      R"({"schema":2,"format":"ring","ocaml_version":"5.3"})"
      "\n"
      R"({"kind":"lifecycle","ring":0,"ts":100,"id":0,"name":"ring_start","data":555})"
      "\n"
      R"({"kind":"begin","ring":0,"ts":200,"id":11,"name":"minor"})"
      "\n"
      R"({"kind":"end","ring":0,"ts":210,"id":60,"name":"unknown"})"
      "\n"
      R"({"kind":"counter","ring":0,"ts":300,"id":4,"name":"minor_promoted","value":9223372036854775813})"
      "\n"
      R"({"kind":"alloc","ring":0,"ts":400,"buckets":)" +
      buckets + "}\n" +
      R"({"kind":"lifecycle","ring":0,"ts":410,"id":6,"name":"domain_spawn","data":-3})"
      "\n"
      R"({"kind":"user_unit","ring":0,"ts":500,"id":0,"name":{"hex":"ff626164"}})"
      "\n"
      R"({"kind":"user_int","ring":0,"ts":510,"id":1,"name":"n","value":-42})"
      "\n"
      R"({"kind":"user_int","ring":0,"ts":511,"id":1,"name":"n","value":2305843009213693952})"
      "\n"
      R"({"kind":"user_span_begin","ring":0,"ts":520,"id":2,"name":"tab\there"})"
      "\n"
      R"({"kind":"user_span_end","ring":0,"ts":530,"id":2,"name":"tab\there"})"
      "\n"
      R"({"kind":"user_custom","ring":0,"ts":600,"id":3,"name":"c","payload_hex":"00ff4122"})"
      "\n"
      R"({"kind":"lifecycle","ring":0,"ts":700,"id":1,"name":"ring_stop","data":0})"
      "\n"
      R"({"kind":"end_of_stream","error":null,"records":13})"
      "\n";
  EXPECT_EQ(out.text, want);
}

TEST(RingJsonView, HeaderNamesTheReleaseAndIdsFollowIt) {
  const auto file = WriteRing("release", 8, [](RuntimeEvents& re, std::uint64_t& ts) {
    ts = 150;
    ASSERT_TRUE(re.Begin(0, 11).ok());
  });
  StringTextSink out;
  ASSERT_TRUE(WriteJsonView(file, OcamlVersion::k5_0, out).ok());
  const auto lines = Lines(out.text);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], R"({"schema":2,"format":"ring","ocaml_version":"5.0"})");
  EXPECT_EQ(lines[2], R"({"kind":"begin","ring":0,"ts":150,"id":11,"name":"minor_local_roots"})");
}

TEST(RingJsonView, WrappedRingStartsWithItsLostWords) {
  const auto file = WriteRing("wrapped", 4, [](RuntimeEvents& re, std::uint64_t& ts) {
    for (unsigned i = 0; i < 40; ++i) {
      ts = 1000 + i;
      ASSERT_TRUE(re.Begin(0, 11).ok());
    }
  });
  StringTextSink out;
  ASSERT_TRUE(WriteJsonView(file, OcamlVersion::k5_3, out).ok());
  const auto lines = Lines(out.text);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[1].rfind(R"({"kind":"lost_events","ring":0,"words":)", 0), 0u) << lines[1];
  EXPECT_NE(lines[1], R"({"kind":"lost_events","ring":0,"words":0})");
  EXPECT_EQ(lines.back(), R"({"kind":"end_of_stream","error":null,"records":)" +
                              std::to_string(lines.size() - 2) + "}");
  // What survived is the newest events, the last begin among them.
  EXPECT_NE(out.text.find(R"("ts":1039,"id":11)"), std::string::npos);
}

TEST(RingJsonView, MalformedPayloadEndsTheStreamWithTheError) {
  const auto good = WriteRing("malformed", 8, [](RuntimeEvents& re, std::uint64_t& ts) {
    auto id = re.RegisterUserEvent("c");
    ASSERT_TRUE(id.ok());
    ts = 200;
    ASSERT_TRUE(re.Begin(0, 11).ok());
    const std::string text = "MALFORM";  // one word: 7 bytes and a pad count of 0
    ts = 300;
    ASSERT_TRUE(re.UserCustom(0, *id, std::as_bytes(std::span(text))).ok());
    ts = 400;
    ASSERT_TRUE(re.End(0, 11).ok());
  });
  std::vector<std::byte> bad = good;
  const std::string marker("MALFORM\0", 8);
  const std::string_view view(reinterpret_cast<const char*>(bad.data()), bad.size());
  const auto at = view.find(marker);
  ASSERT_NE(at, std::string_view::npos);
  bad[at + 7] = std::byte{64};  // pads more bytes than the payload has
  StringTextSink out;
  const Status s = WriteJsonView(bad, OcamlVersion::k5_3, out);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  const auto lines = Lines(out.text);
  ASSERT_EQ(lines.size(), 4u) << out.text;
  EXPECT_EQ(lines[2], R"({"kind":"begin","ring":0,"ts":200,"id":11,"name":"minor"})");
  EXPECT_EQ(
      lines[3],
      R"({"kind":"end_of_stream","error":{"code":"corrupt","check":"custom event: pad-count byte",)"
      R"("offset":null},"records":2})");
  // The same file unharmed decodes to the end.
  StringTextSink fine;
  ASSERT_TRUE(WriteJsonView(good, OcamlVersion::k5_3, fine).ok());
  EXPECT_NE(fine.text.find(R"("payload_hex":"4d414c464f524d")"), std::string::npos);
  EXPECT_NE(fine.text.find(R"("records":5})"), std::string::npos);
}

TEST(RingJsonView, UnreadableHeaderGivesHeaderAndErrorTrailer) {
  const auto file = WriteRing("short", 8, [](RuntimeEvents&, std::uint64_t&) {});
  const std::span<const std::byte> head = std::span(file).first(40);
  StringTextSink out;
  const Status s = WriteJsonView(head, OcamlVersion::k5_3, out);
  ASSERT_FALSE(s.ok());
  const auto lines = Lines(out.text);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], R"({"schema":2,"format":"ring","ocaml_version":"5.3"})");
  const std::string code(ErrorCodeName(s.code()));
  EXPECT_EQ(lines[1].rfind(R"({"kind":"end_of_stream","error":{"code":")" + code + "\"", 0), 0u)
      << lines[1];
  EXPECT_NE(lines[1].find(R"("records":0})"), std::string::npos);
}

TEST(RingJsonView, MappedFileAndBytesGiveTheSameStream) {
  std::string path;
  const auto file = WriteRing(
      "mapped", 8,
      [](RuntimeEvents& re, std::uint64_t& ts) {
        ts = 120;
        ASSERT_TRUE(re.Counter(0, 0, 3).ok());
      },
      &path);
  StringTextSink from_bytes;
  ASSERT_TRUE(WriteJsonView(file, OcamlVersion::k5_3, from_bytes).ok());
  auto cursor = Cursor::OpenFile(path);
  StringTextSink from_file;
  ASSERT_TRUE(WriteJsonView(cursor, OcamlVersion::k5_3, from_file).ok());
  EXPECT_EQ(from_bytes.text, from_file.text);
  // A cursor that could not be opened: header and the opening error.
  Result<Cursor> missing = Cursor::OpenFile(path + ".absent");
  StringTextSink none;
  EXPECT_FALSE(WriteJsonView(missing, OcamlVersion::k5_3, none).ok());
  EXPECT_EQ(Lines(none.text).size(), 2u);
}

TEST(RingJsonView, RecordsWrittenOneByOne) {
  RingEvent lost;
  lost.kind = EventKind::kLostEvents;
  lost.ring = 7;
  lost.value = 12;
  std::string out;
  AppendJsonRecord(out, lost);
  EXPECT_EQ(out, "{\"kind\":\"lost_events\",\"ring\":7,\"words\":12}\n");
  RingEvent alloc;
  alloc.kind = EventKind::kAlloc;
  alloc.ts = 9;
  out.clear();
  AppendJsonRecord(out, alloc);
  EXPECT_EQ(out, "{\"kind\":\"alloc\",\"ring\":0,\"ts\":9,\"buckets\":[]}\n");
  RingEvent custom;
  custom.kind = EventKind::kUserCustom;
  custom.name = "x";
  out.clear();
  AppendJsonRecord(out, custom);
  EXPECT_EQ(out,
            "{\"kind\":\"user_custom\",\"ring\":0,\"ts\":0,\"id\":0,\"name\":\"x\","
            "\"payload_hex\":\"\"}\n");
}

}  // namespace
}  // namespace mpo::ring::view
