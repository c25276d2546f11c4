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

// A document built in memory (not through the bounded parser) can be arbitrarily deep:
// the diff must report it, not recurse through it.
json Deep(std::size_t depth, const json& leaf) {
  json j = leaf;
  for (std::size_t i = 0; i < depth; ++i) j = json::array({std::move(j)});
  return j;
}

TEST(JsonDiff, DeepDocumentsAreReportedNotWalked) {
  const json a = Deep(100000, 1);
  const json b = Deep(100000, 2);
  auto d = FirstDifference(a, b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->expected, "(nested too deeply to print)");
  d = FirstDifference(json::object(), b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "");
  EXPECT_EQ(d->got, std::string(197, '[') + "...");
}

TEST(JsonDiff, ModeratelyDeepDocumentsCompareFully) {
  auto d = FirstDifference(Deep(300, 1), Deep(300, 2));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->expected, "1");
  EXPECT_EQ(d->got, "2");
  EXPECT_FALSE(FirstDifference(Deep(300, 1), Deep(300, 1)).has_value());
}

}  // namespace
}  // namespace mpo::corpus
