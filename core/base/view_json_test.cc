#include "core/base/view_json.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace mpo::view_json
