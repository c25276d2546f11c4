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

}  // namespace
}  // namespace mpo::corpus
