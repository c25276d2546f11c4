#include "core/corpus/json_diff.h"

#include <gtest/gtest.h>

namespace mpo::corpus {
namespace {

using nlohmann::json;

TEST(JsonDiff, EqualIgnoringMemberOrderAndNumberSpelling) {
  const json a = json::parse(R"({"a":1,"b":[1,2,{"c":null}],"d":2.5})");
  const json b = json::parse(R"({"d":2.50,"b":[1.0,2,{"c":null}],"a":1})");
  EXPECT_FALSE(FirstDifference(a, b).has_value());
}

TEST(JsonDiff, LargeIntegersCompareExactly) {
  const json a = json::parse("[9007199254740993]");
  const json b = json::parse("[9007199254740992]");
  auto d = FirstDifference(a, b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "/0");
  EXPECT_FALSE(FirstDifference(json::parse("[-3]"), json::parse("[-3]")).has_value());
  EXPECT_TRUE(FirstDifference(json::parse("[-1]"), json::parse("[18446744073709551615]")));
}

TEST(JsonDiff, FirstDifferencePathAndValues) {
  const json a = json::parse(R"({"events":[{"id":0,"len":3},{"id":1,"len":4}]})");
  const json b = json::parse(R"({"events":[{"id":0,"len":3},{"id":1,"len":5}]})");
  auto d = FirstDifference(a, b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "/events/1/len");
  EXPECT_EQ(d->expected, "4");
  EXPECT_EQ(d->got, "5");
}

TEST(JsonDiff, MissingExtraAndShorterArrays) {
  auto d = FirstDifference(json::parse(R"({"a/b":1})"), json::parse("{}"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->path, "/a~1b");
  EXPECT_EQ(d->got, "(absent)");
  d = FirstDifference(json::parse("{}"), json::parse(R"({"x":true})"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->path, "/x");
  EXPECT_EQ(d->expected, "(absent)");
  d = FirstDifference(json::parse("[1,2,3]"), json::parse("[1,2]"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->path, "/2");
  d = FirstDifference(json::parse(R"({"a":"1"})"), json::parse(R"({"a":1})"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->path, "/a");
}

}  // namespace
}  // namespace mpo::corpus
