#include "core/corpus/jsonl_diff.h"

#include <gtest/gtest.h>

#include <string>

namespace mpo::corpus {
namespace {

// A valid stream: header, two records, end line.
constexpr const char* kOk =
    R"({"schema":2,"format":"sampler","mode":"geometric","seed":1,"lambda":0.5})"
    "\n"
    R"({"kind":"draw","value":2})"
    "\n"
    R"({"kind":"draw","value":9007199254740993})"
    "\n"
    R"({"kind":"end_of_stream","error":null,"records":2})"
    "\n";

// A rejected input: header, one record decoded before the error, end line with it.
constexpr const char* kRejected =
    R"({"schema":2,"format":"memtrace","info":{"version":3,"pid":7}})"
    "\n"
    R"({"kind":"promote","time":5,"domain":0,"id":1})"
    "\n"
    R"({"kind":"end_of_stream","error":{"code":"corrupt","check":"event header: code","offset":120},"records":1})"
    "\n";

ExpectedStream Expect(const std::string& text) {
  auto e = ParseExpectedStream(text);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() ? *e : ExpectedStream{};
}

TEST(JsonlDiff, SameStreamPassesWhateverTheSpelling) {
  const ExpectedStream e = Expect(kOk);
  EXPECT_EQ(e.size(), 4u);
  EXPECT_FALSE(e.expects_error);
  EXPECT_EQ(CompareStream(e, kOk), "");
  // Member order, spacing, number spelling and a missing final newline do not matter.
  const std::string respelled =
      R"({"lambda":0.50,"seed":1.0,"format":"sampler","mode":"geometric","schema":2})"
      "\n"
      R"({ "value": 2, "kind": "draw" })"
      "\n"
      R"({"kind":"draw","value":9007199254740993})"
      "\n"
      R"({"records":2,"error":null,"kind":"end_of_stream"})";
  EXPECT_EQ(CompareStream(e, respelled), "");
}

TEST(JsonlDiff, IntegersBeyond2To53CompareExactly) {
  std::string got = kOk;
  got.replace(got.find("9007199254740993"), 16, "9007199254740992");
  EXPECT_EQ(CompareStream(Expect(kOk), got),
            "line 3: at /value: expected 9007199254740993, got 9007199254740992");
}

TEST(JsonlDiff, MissingEndLineIsAnIncompleteStream) {
  std::string got = kOk;
  got.erase(got.find(R"({"kind":"end_of_stream")"));
  EXPECT_EQ(
      CompareStream(Expect(kOk), got),
      "incomplete stream: line 3, the last, is not the end line {\"kind\":\"end_of_stream\",...}");
  EXPECT_EQ(CompareStream(Expect(kOk), ""),
            "incomplete stream: no output (no end line {\"kind\":\"end_of_stream\",...})");
  // Also for a rejected input: a decoder that stopped without its end line crashed.
  got = kRejected;
  got.erase(got.find(R"({"kind":"end_of_stream")"));
  EXPECT_EQ(CompareStream(Expect(kRejected), got).rfind("incomplete stream: line 2", 0), 0u);
}

TEST(JsonlDiff, RingPhaseEndIsNotTheEndLine) {
  const std::string ring = R"({"schema":2,"format":"ring","ocaml_version":"5.3"})"
                           "\n"
                           R"({"kind":"begin","ring":0,"ts":1,"id":0,"name":"compact"})"
                           "\n"
                           R"({"kind":"end","ring":0,"ts":2,"id":0,"name":"compact"})"
                           "\n"
                           R"({"kind":"end_of_stream","error":null,"records":2})"
                           "\n";
  EXPECT_EQ(CompareStream(Expect(ring), ring), "");
  EXPECT_EQ(
      CompareStream(Expect(ring),
                    ring.substr(0, ring.rfind("{\"kind\":\"end_of_stream\",\"error"))),
      "incomplete stream: line 3, the last, is not the end line {\"kind\":\"end_of_stream\",...}");
  EXPECT_FALSE(
      ParseExpectedStream(ring.substr(0, ring.rfind("{\"kind\":\"end_of_stream\",\"error"))).ok());
}

TEST(JsonlDiff, ExtraRecordFailsAtItsLine) {
  std::string got = kOk;
  got.insert(got.find(R"({"kind":"end_of_stream")"), "{\"kind\":\"draw\",\"value\":4}\n");
  EXPECT_EQ(CompareStream(Expect(kOk), got),
            "line 4: at /kind: expected \"end_of_stream\", got \"draw\" (expected 4 lines, got 5); "
            "line 4 printed: {\"kind\":\"draw\",\"value\":4}");
}

TEST(JsonlDiff, MissingRecordFailsAtItsLine) {
  std::string got = kOk;
  const auto at = got.find(R"({"kind":"draw","value":2})");
  got.erase(at, got.find('\n', at) + 1 - at);
  EXPECT_EQ(CompareStream(Expect(kOk), got),
            "line 2: at /value: expected 2, got 9007199254740993 (expected 4 lines, got 3); line 2 "
            "printed: {\"kind\":\"draw\",\"value\":9007199254740993}");
  // Only the last record missing: the end line comes where a record was expected.
  got = kOk;
  const auto second = got.find(R"({"kind":"draw","value":9007)");
  got.erase(second, got.find('\n', second) + 1 - second);
  EXPECT_EQ(CompareStream(Expect(kOk), got).rfind("line 3: at /", 0), 0u);
}

TEST(JsonlDiff, LinesAfterTheEndLineFail) {
  const std::string got =
      std::string(kOk) + R"({"kind":"end_of_stream","error":null,"records":2})" + "\n";
  EXPECT_EQ(CompareStream(Expect(kOk), got),
            "line 5: expected no more lines (the end line was line 4) (expected 4 lines, got 5); "
            "line 5 printed: {\"kind\":\"end_of_stream\",\"error\":null,\"records\":2}");
}

TEST(JsonlDiff, WrongRecordCountInTheEndLineFails) {
  std::string got = kOk;
  got.replace(got.find("\"records\":2"), 11, "\"records\":3");
  EXPECT_EQ(CompareStream(Expect(kOk), got), "line 4: at /records: expected 2, got 3");
}

TEST(JsonlDiff, RejectedInputComparesOnlyHeaderAndError) {
  const ExpectedStream e = Expect(kRejected);
  EXPECT_TRUE(e.expects_error);
  // A streaming decoder that got further: more records, another count; it passes.
  const std::string further =
      R"({"schema":2,"format":"memtrace","info":{"version":3,"pid":7}})"
      "\n"
      R"({"kind":"promote","time":5,"domain":0,"id":1})"
      "\n"
      R"({"kind":"collect","time":6,"domain":0,"id":1})"
      "\n"
      "this line is not even compared\n"
      R"({"kind":"end_of_stream","error":{"code":"corrupt","check":"event header: code","offset":120},"records":3})"
      "\n";
  EXPECT_EQ(CompareStream(e, further), "");
  // One that stopped earlier: header and end line only.
  const std::string earlier =
      R"({"schema":2,"format":"memtrace","info":{"version":3,"pid":7}})"
      "\n"
      R"({"kind":"end_of_stream","error":{"code":"corrupt","check":"event header: code","offset":120},"records":0})"
      "\n";
  EXPECT_EQ(CompareStream(e, earlier), "");
  // But the header and every member of the error are compared.
  std::string got = earlier;
  got.replace(got.find("\"pid\":7"), 7, "\"pid\":8");
  EXPECT_EQ(CompareStream(e, got), "line 1: at /info/pid: expected 7, got 8");
  got = earlier;
  got.replace(got.find("120"), 3, "121");
  EXPECT_EQ(CompareStream(e, got), "line 2: at /error/offset: expected 120, got 121");
  got = earlier;
  got.replace(got.find("\"error\":{"), 9, "\"error\":null,\"x\":{");
  EXPECT_EQ(CompareStream(e, got).rfind("line 2: at /error: expected {", 0), 0u)
      << CompareStream(e, got);
  // An end line alone has no header to compare.
  EXPECT_EQ(CompareStream(e, got.substr(got.find('\n') + 1)).rfind("line 1: at /", 0), 0u);
}

TEST(JsonlDiff, AcceptedInputMustNotEndWithAnError) {
  std::string got = kOk;
  got.replace(got.find("\"error\":null"), 12,
              R"("error":{"code":"corrupt","check":"x","offset":null})");
  EXPECT_EQ(CompareStream(Expect(kOk), got).rfind("line 4: at /error: expected null, got {", 0),
            0u);
}

TEST(JsonlDiff, LinesThatAreNotJsonFailWithTheirNumber) {
  std::string got = kOk;
  got.replace(got.find(R"({"kind":"draw","value":2})"), 25, "{\"kind\":\"draw\",");
  EXPECT_EQ(CompareStream(Expect(kOk), got).rfind("output line 2 is not JSON: ", 0), 0u)
      << CompareStream(Expect(kOk), got);
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(CompareStream(Expect(kOk), deep),
            "output line 1 is not JSON: nested deeper than 512 levels");
}

TEST(JsonlDiff, OutputsWithFarMoreValuesAreRefusedUnbuilt) {
  std::string huge = "[";
  for (int i = 0; i < (1 << 20) + 5; ++i) huge += "0,";
  huge += "0]";
  EXPECT_EQ(CompareStream(Expect(kOk), std::string(kOk) + huge),
            "output holds more than 1048576 JSON values (4 times the expected stream's, at least "
            "2^20); not compared");
}

TEST(JsonlDiff, ExpectedFilesMustBeCompleteStreams) {
  EXPECT_EQ(ParseExpectedStream("").status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(ParseExpectedStream("{\"schema\":2}\n").status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(ParseExpectedStream("{\"kind\":\"end\"}\n").status().code(), ErrorCode::kCorrupt);
  auto bad = ParseExpectedStream("{}\nnot json\n{\"kind\":\"end_of_stream\",\"error\":null}\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("line 2: ", 0), 0u) << bad.status().ToString();
  auto deep = ParseExpectedStream(std::string(100000, '[') + std::string(100000, ']'));
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("nested deeper than 512 levels"), std::string::npos);
}

// Lines are parsed when needed: an output line with the expected bytes is equal without
// parsing, and every other spelling still compares by value, in every mode.
TEST(JsonlDiff, ByteIdenticalLinesAndRespelledLinesBothMatch) {
  const std::string expected = R"({"schema":2,"format":"sampler"})"
                               "\n"
                               R"({"kind":"draw","value":2})"
                               "\n"
                               R"({"kind":"end_of_stream","error":null,"records":1})"
                               "\n";
  const ExpectedStream e = Expect(expected);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e.text(1), R"({"kind":"draw","value":2})");
  EXPECT_EQ(e.line(1)["value"], 2);
  for (CompareMode mode : {CompareMode::kExact, CompareMode::kStrict, CompareMode::kVerdict}) {
    EXPECT_EQ(CompareStream(e, expected, mode), "");
    const std::string respelled = R"({"format":"sampler","schema":2})"
                                  "\n"
                                  R"({"value":2.0,"kind":"draw"})"
                                  "\n"
                                  R"({"records":1,"error":null,"kind":"end_of_stream"})";
    EXPECT_EQ(CompareStream(e, respelled, mode), "");
    const std::string wrong = R"({"schema":2,"format":"sampler"})"
                              "\n"
                              R"({"kind":"draw","value":3})"
                              "\n"
                              R"({"kind":"end_of_stream","error":null,"records":1})"
                              "\n";
    EXPECT_NE(CompareStream(e, wrong, mode).find("/value: expected 2, got 3"), std::string::npos)
        << CompareStream(e, wrong, mode);
  }
}

// A reference's verdict: records and accept/reject must match, its words for an error
// need not, and skipped packets are nobody's business but the oracle's.
TEST(JsonlDiff, VerdictModeComparesRecordsAndRejectionNotWording) {
  const ExpectedStream e = Expect(kRejected);
  const std::string other_error =
      R"({"schema":2,"format":"memtrace","info":{"version":3,"pid":7}})"
      "\n"
      R"({"kind":"promote","time":5,"domain":0,"id":1})"
      "\n"
      R"({"kind":"end_of_stream","error":{"code":"rejected","check":"Failure","offset":null},"records":1})"
      "\n";
  EXPECT_EQ(CompareStream(e, other_error, CompareMode::kVerdict), "");
  EXPECT_NE(CompareStream(e, other_error), "") << "exact mode still compares the error object";
  // The record before the error is part of the verdict.
  std::string no_record = other_error;
  no_record.erase(
      no_record.find("{\"kind\":\"promote\""),
      no_record.find("{\"kind\":\"end_of_stream\"") - no_record.find("{\"kind\":\"promote\""));
  EXPECT_EQ(
      CompareStream(e, no_record, CompareMode::kVerdict).rfind("line 2: expected the record ", 0),
      0u)
      << CompareStream(e, no_record, CompareMode::kVerdict);
  // Accepting what the reference rejects, and the reverse.
  std::string accepted = other_error;
  accepted.replace(accepted.find("{\"code\""),
                   accepted.find(",\"records\"") - accepted.find("{\"code\""), "null");
  EXPECT_EQ(CompareStream(e, accepted, CompareMode::kVerdict)
                .rfind("line 3: at /error: expected a rejection ", 0),
            0u)
      << CompareStream(e, accepted, CompareMode::kVerdict);
  EXPECT_EQ(
      CompareStream(Expect(accepted), kRejected, CompareMode::kVerdict)
          .rfind("line 3: at /error: expected null (the input is accepted), got a rejection ", 0),
      0u);
  // An extra record fails where it stands.
  std::string extra = other_error;
  extra.insert(extra.find("{\"kind\":\"end_of_stream\""),
               "{\"kind\":\"collect\",\"time\":6,\"domain\":0,\"id\":1}\n");
  EXPECT_EQ(
      CompareStream(e, extra, CompareMode::kVerdict).rfind("line 3: expected the end line", 0), 0u)
      << CompareStream(e, extra, CompareMode::kVerdict);
}

TEST(JsonlDiff, VerdictModeLeavesOutSkippedPackets) {
  const std::string with_skip =
      R"({"schema":2,"format":"memtrace","info":null})"
      "\n"
      R"({"kind":"skipped_packet","offset":100,"reason":"truncated final packet"})"
      "\n"
      R"({"kind":"promote","time":5,"domain":0,"id":1})"
      "\n"
      R"({"kind":"end_of_stream","error":null,"records":2})"
      "\n";
  const std::string without = R"({"schema":2,"format":"memtrace","info":null})"
                              "\n"
                              R"({"kind":"promote","time":5,"domain":0,"id":1})"
                              "\n"
                              R"({"kind":"end_of_stream","error":null,"records":1})"
                              "\n";
  EXPECT_EQ(CompareStream(Expect(with_skip), without, CompareMode::kVerdict), "");
  EXPECT_EQ(CompareStream(Expect(without), with_skip, CompareMode::kVerdict), "");
  EXPECT_NE(CompareStream(Expect(with_skip), without), "");
  // The header still counts.
  std::string other_header = without;
  other_header.replace(other_header.find("null"), 4, "{}");
  EXPECT_EQ(CompareStream(Expect(without), other_header, CompareMode::kVerdict)
                .rfind("line 1: at /info", 0),
            0u)
      << CompareStream(Expect(without), other_header, CompareMode::kVerdict);
}

// An independent reader words its own errors: strict mode holds it to the error's class
// only; --exact-errors (kExact) to the whole object.
TEST(JsonlDiff, StrictModeComparesTheErrorCodeOnly) {
  const ExpectedStream e = Expect(kRejected);
  std::string reworded = kRejected;
  reworded.replace(reworded.find("event header: code"), 18, "unknown event 9");
  reworded.replace(reworded.find("120"), 3, "null");
  EXPECT_EQ(CompareStream(e, reworded, CompareMode::kStrict), "");
  EXPECT_EQ(CompareStream(e, reworded, CompareMode::kExact),
            "line 3: at /error/check: expected \"event header: code\", got \"unknown event 9\"");
  std::string other_code = reworded;
  other_code.replace(other_code.find("\"corrupt\""), 9, "\"truncated\"");
  EXPECT_EQ(CompareStream(e, other_code, CompareMode::kStrict),
            "line 3: at /error/code: expected \"corrupt\", got \"truncated\"");
  std::string no_code = reworded;
  no_code.replace(no_code.find("\"code\":\"corrupt\","), 17, "");
  EXPECT_EQ(CompareStream(e, no_code, CompareMode::kStrict),
            "line 3: at /error/code: expected \"corrupt\", got (absent)");
  std::string accepted = reworded;
  accepted.replace(accepted.find("{\"code\""),
                   accepted.find(",\"records\"") - accepted.find("{\"code\""), "null");
  EXPECT_EQ(
      CompareStream(e, accepted, CompareMode::kStrict).rfind("line 3: at /error: expected {", 0),
      0u)
      << CompareStream(e, accepted, CompareMode::kStrict);
  // Records and the header are still compared, as in kExact.
  std::string other_pid = reworded;
  other_pid.replace(other_pid.find("\"pid\":7"), 7, "\"pid\":8");
  EXPECT_EQ(CompareStream(e, other_pid, CompareMode::kStrict),
            "line 1: at /info/pid: expected 7, got 8");
  std::string records = kOk;
  records.replace(records.find("\"value\":2"), 9, "\"value\":3");
  EXPECT_EQ(CompareStream(Expect(kOk), records, CompareMode::kStrict),
            "line 2: at /value: expected 2, got 3");
}

TEST(JsonlDiff, DifferenceInsideTheHeaderNamesTheMember) {
  const std::string with_info =
      R"({"schema":2,"format":"memtrace","info":{"version":3,"pid":7,"context":null}})"
      "\n"
      R"({"kind":"end_of_stream","error":null,"records":0})"
      "\n";
  std::string got = with_info;
  got.replace(got.find("\"context\":null"), 14, "\"context\":\"x\"");
  EXPECT_EQ(CompareStream(Expect(with_info), got, CompareMode::kStrict),
            "line 1: at /info/context: expected null, got \"x\"");
  got = with_info;
  got.replace(got.find(",\"context\":null"), 15, "");
  EXPECT_EQ(CompareStream(Expect(with_info), got, CompareMode::kStrict),
            "line 1: at /info/context: expected null, got (absent)");
}

// A decoder that stops midway (crash, exit 1 on a valid input): its first wrong record
// is the news, then that the stream is incomplete.
TEST(JsonlDiff, IncompleteStreamStillNamesItsFirstDifference) {
  std::string got = kOk;
  got.replace(got.find("\"value\":2"), 9, "\"value\":5");
  got.erase(got.find(R"({"kind":"end_of_stream")"));
  EXPECT_EQ(CompareStream(Expect(kOk), got, CompareMode::kStrict),
            "line 2: at /value: expected 2, got 5; incomplete stream: line 3, the last, is not "
            "the end line {\"kind\":\"end_of_stream\",...}");
  // A last line cut short: the lines before it are compared.
  got = kOk;
  got.replace(got.find("\"value\":2"), 9, "\"value\":5");
  got.erase(got.find(R"({"kind":"end_of_stream")") + 10);
  EXPECT_EQ(CompareStream(Expect(kOk), got, CompareMode::kStrict)
                .rfind("line 2: at /value: expected 2, got 5; output line 4 is not JSON: ", 0),
            0u)
      << CompareStream(Expect(kOk), got, CompareMode::kStrict);
  // Before an expected error only the header lines up.
  got = kRejected;
  got.replace(got.find("\"time\":5"), 8, "\"time\":6");
  got.erase(got.find(R"({"kind":"end_of_stream")"));
  EXPECT_EQ(CompareStream(Expect(kRejected), got, CompareMode::kStrict).rfind("incomplete", 0), 0u);
  got.replace(got.find("\"pid\":7"), 7, "\"pid\":8");
  EXPECT_EQ(CompareStream(Expect(kRejected), got, CompareMode::kStrict)
                .rfind("line 1: at /info/pid: expected 7, got 8; incomplete stream: line 2", 0),
            0u);
}

TEST(JsonlDiff, LongLinesArePreviewedShort) {
  std::string got = kOk;
  got.insert(got.find(R"({"kind":"end_of_stream")"),
             "{\"kind\":\"draw\",\"value\":4,\"pad\":\"" + std::string(1000, 'x') + "\"}\n");
  const std::string d = CompareStream(Expect(kOk), got, CompareMode::kStrict);
  const auto printed = d.find("; line 4 printed: {\"kind\":\"draw\"");
  ASSERT_NE(printed, std::string::npos) << d;
  EXPECT_LT(d.size() - printed, 240u) << d;
  EXPECT_EQ(d.substr(d.size() - 3), "...");
  // A line after the end line is not parsed: shown with its control characters made safe.
  const std::string after =
      std::string(kOk) + "\x1b[2Jgone\n" + R"({"kind":"end_of_stream","error":null,"records":2})";
  EXPECT_EQ(CompareStream(Expect(kOk), after, CompareMode::kStrict),
            "line 5: expected no more lines (the end line was line 4) (expected 4 lines, got 6); "
            "line 5 printed: ?[2Jgone");
}

TEST(JsonlDiff, IgnoredFieldsAreLeftOutOnBothSides) {
  std::vector<IgnoredField> ignored;
  for (const char* p : {"/info/pid", "/error/offset", "/backtrace/#"}) {
    auto f = ParseIgnoredField(p);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    ignored.push_back(*f);
  }
  std::string got = kRejected;
  got.replace(got.find("\"pid\":7"), 7, "\"pid\":8");
  got.replace(got.find("120"), 3, "121");
  EXPECT_EQ(CompareStream(Expect(kRejected), got, CompareMode::kExact, ignored), "");
  EXPECT_NE(CompareStream(Expect(kRejected), got, CompareMode::kExact), "");
  // Absent on one side only is as good as equal; other members still count.
  got = kRejected;
  got.replace(got.find(",\"pid\":7"), 8, "");
  got.replace(got.find("\"version\":3"), 11, "\"version\":2");
  EXPECT_EQ(CompareStream(Expect(kRejected), got, CompareMode::kExact, ignored),
            "line 1: at /info/version: expected 3, got 2");
  // "#" stands for every array index.
  const std::string bt = R"({"schema":2,"format":"memtrace","info":null})"
                         "\n"
                         R"({"kind":"alloc","backtrace":["a","b"],"length":3})"
                         "\n"
                         R"({"kind":"end_of_stream","error":null,"records":1})"
                         "\n";
  std::string other = bt;
  other.replace(other.find("\"a\",\"b\""), 7, "\"c\",\"d\"");
  EXPECT_EQ(CompareStream(Expect(bt), other, CompareMode::kStrict, ignored), "");
  other.replace(other.find("\"length\":3"), 10, "\"length\":4");
  EXPECT_EQ(CompareStream(Expect(bt), other, CompareMode::kStrict, ignored),
            "line 2: at /length: expected 3, got 4");
}

TEST(JsonlDiff, IgnoredFieldsMustBeJsonPointers) {
  for (const char* p : {"", "info/pid", "/a~2", "/a~"}) {
    auto f = ParseIgnoredField(p);
    ASSERT_FALSE(f.ok()) << p;
    EXPECT_EQ(f.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(f.status().message().find("is not a JSON Pointer"), std::string::npos);
  }
  auto f = ParseIgnoredField("/a~1b/~0c/#");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->tokens, (std::vector<std::string>{"a/b", "~c", "#"}));
}

}  // namespace
}  // namespace mpo::corpus
