#include "core/base/view_json.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace mpo::view_json {
namespace {

TEST(ViewJson, ErrorObject) {
  std::string out;
  AppendError(out,
              Status(ErrorCode::kCorrupt, "bad").WithField("packet header: magic").AtOffset(12));
  EXPECT_EQ(out, R"({"code":"corrupt","check":"packet header: magic","offset":12})");
  out.clear();
  AppendError(out, Status(ErrorCode::kCorrupt, "bad").WithField("vint").AtOffset(40, 3));
  EXPECT_EQ(out, R"({"code":"corrupt","check":"vint","offset":40,"bit":3})");
  out.clear();
  AppendError(out, Status(ErrorCode::kTruncated, "short"));
  EXPECT_EQ(out, R"({"code":"truncated","check":"","offset":null})");
}

TEST(ViewJson, EndLine) {
  std::string out;
  AppendEndLine(out, Status::Ok(), 7);
  EXPECT_EQ(out, "{\"kind\":\"end_of_stream\",\"error\":null,\"records\":7}\n");
  out.clear();
  AppendEndLine(out, Status(ErrorCode::kCorrupt, "x").WithField("f").AtOffset(3), 0);
  EXPECT_EQ(
      out,
      "{\"kind\":\"end_of_stream\",\"error\":{\"code\":\"corrupt\",\"check\":\"f\",\"offset\":3},"
      "\"records\":0}\n");
}

TEST(ViewJson, HeaderOpensWithSchemaAndFormat) {
  std::string out;
  JsonWriter w(out);
  BeginHeader(w, "ring");
  w.Key("ocaml_version");
  w.String("5.3");
  w.EndObject();
  EXPECT_EQ(out, R"({"schema":2,"format":"ring","ocaml_version":"5.3"})");
}

// The OCaml adapters print their headers through conformance/peers/schema_json.ml: its
// schema number is this one.
TEST(ViewJson, OcamlAdaptersPrintTheSameSchema) {
  std::ifstream in("conformance/peers/schema_json.ml");
  ASSERT_TRUE(in.good()) << "conformance/peers/schema_json.ml not in the test's runfiles";
  std::stringstream text;
  text << in.rdbuf();
  const std::string ml = text.str();
  const std::string expected = "{\\\"schema\\\":" + std::to_string(kViewSchema) + ",";
  const std::size_t at = ml.find("{\\\"schema\\\":");
  ASSERT_NE(at, std::string::npos) << "schema_json.ml no longer prints \"schema\"";
  EXPECT_EQ(ml.compare(at, expected.size(), expected), 0)
      << "schema_json.ml prints " << ml.substr(at, expected.size()) << ", not " << expected;
  EXPECT_EQ(ml.find("{\\\"schema\\\":", at + 1), std::string::npos)
      << "schema_json.ml prints the schema twice";
}

}  // namespace
}  // namespace mpo::view_json
