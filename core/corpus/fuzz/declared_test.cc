#include "core/corpus/fuzz/declared.h"

#include <gtest/gtest.h>

namespace mpo::corpus::fuzz {
namespace {

TEST(Declared, ParsesRulesCommentsAndBlankLines) {
  const auto rules = ParseDeclared(
      "# memtrace 0.2.3's known bugs\n"
      "\n"
      "oracle=reject(packet header: packet_size*) impl=timeout   # loops forever\n"
      "  oracle=* impl=signal-11\r\n");
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0].pattern, "oracle=reject(packet header: packet_size*) impl=timeout");
  EXPECT_EQ(rules[0].why, "loops forever");
  EXPECT_EQ(rules[0].line, 3u);
  EXPECT_EQ(rules[1].pattern, "oracle=* impl=signal-11");
  EXPECT_TRUE(rules[1].why.empty());
}

TEST(Declared, MatchesSignaturesByGlob) {
  const auto rules = ParseDeclared("oracle=reject(packet header: packet_size*) impl=timeout\n");
  EXPECT_NE(MatchDeclared(rules, "oracle=reject(packet header: packet_size) impl=timeout"),
            nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(packet header: magic) impl=timeout"), nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(packet header: packet_size) impl=accept"), nullptr);
  EXPECT_EQ(MatchDeclared({}, "anything"), nullptr);
}

TEST(Declared, CommentOnlyLinesAreNotRules) {
  const auto rules = ParseDeclared("  # only a comment\n\t#\n\n x=1 #\n");
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].pattern, "x=1");
  EXPECT_EQ(rules[0].line, 4u);
}

}  // namespace
}  // namespace mpo::corpus::fuzz
