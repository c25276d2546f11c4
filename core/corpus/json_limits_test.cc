#include "core/corpus/json_limits.h"

#include <gtest/gtest.h>

#include <string>

namespace mpo::corpus {
namespace {

TEST(NestingDepth, CountsArraysAndObjectsButNotStrings) {
  EXPECT_EQ(NestingDepth("1", 10), 0u);
  EXPECT_EQ(NestingDepth(R"({"a":[1,{"b":[]}]})", 10), 4u);
  EXPECT_EQ(NestingDepth(R"(["[[[[", "\"[[[", "\\", [2]])", 10), 2u);
  EXPECT_EQ(NestingDepth("[][][]", 10), 1u);
}

TEST(NestingDepth, StopsPastTheLimit) {
  const std::string deep(1000000, '[');
  EXPECT_EQ(NestingDepth(deep, 512), 513u);
}

TEST(ParseJsonBounded, RefusesDeepDocumentsAndReportsParseErrors) {
  auto deep = ParseJsonBounded(std::string(100000, '[') + std::string(100000, ']'));
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(deep.status().message(), "nested deeper than 512 levels");
  auto bad = ParseJsonBounded("[1, 2");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kCorrupt);
  EXPECT_TRUE(bad.status().byte_offset().has_value());
  EXPECT_FALSE(ParseJsonBounded("[1] [2]").ok());
  EXPECT_FALSE(ParseJsonBounded("").ok());
  auto ok = ParseJsonBounded(std::string(512, '[') + std::string(512, ']'));
  EXPECT_TRUE(ok.ok());
}

// Validation without building: the same verdicts and errors as the parse, and a count.
TEST(CountJsonValues, ChecksAsTheParseDoesAndCounts) {
  for (const std::string text : {"[1, 2", "[1] [2]", "", "{\"a\":}", "nul", "[1,]"}) {
    auto counted = CountJsonValues(text);
    auto parsed = ParseJsonBounded(text);
    ASSERT_FALSE(counted.ok()) << text;
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(counted.status().ToString(), parsed.status().ToString()) << text;
  }
  EXPECT_EQ(CountJsonValues(std::string(513, '[') + std::string(513, ']')).status().message(),
            "nested deeper than 512 levels");
  const std::string doc = R"({"kind":"alloc","backtrace":[1,2,3],"info":{"a":null,"b":"x"}})";
  auto counted = CountJsonValues(doc);
  ASSERT_TRUE(counted.ok()) << counted.status().ToString();
  auto parsed = ParseJsonBounded(doc);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*counted, CountValues(*parsed));
  EXPECT_EQ(*counted, 9u);
}

}  // namespace
}  // namespace mpo::corpus
