#include "core/corpus/fuzz/declared.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/base/verdicts.h"
#include "core/corpus/fuzz/builtin_declared.h"

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

// A '#' starts the comment only after whitespace: one inside the pattern is the
// signature's array index.
TEST(Declared, HashInsideThePatternIsNotAComment) {
  const auto rules = ParseDeclared(
      "oracle=accept impl=accept differs=/buckets/#  # bit 63 is lost\n"
      "a=/x/#\n"
      "b=1\t# tab before the comment\n");
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].pattern, "oracle=accept impl=accept differs=/buckets/#");
  EXPECT_EQ(rules[0].why, "bit 63 is lost");
  EXPECT_EQ(rules[1].pattern, "a=/x/#");
  EXPECT_TRUE(rules[1].why.empty());
  EXPECT_EQ(rules[2].pattern, "b=1");
  EXPECT_EQ(rules[2].why, "tab before the comment");
  EXPECT_NE(MatchDeclared(rules, "oracle=accept impl=accept differs=/buckets/#"), nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=accept impl=accept differs=/buckets/x"), nullptr);
}

TEST(Declared, ModesTagRulesAndFilterThem) {
  const auto rules = ParseDeclared(
      "as=memtrace-0.2.3,memtrace-head oracle=reject(*) impl=timeout  # both readers\n"
      "as=ocaml-5.3\toracle=accept impl=signal-11\n"
      "oracle=accept impl=exit-3 # every mode\n");
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].pattern, "oracle=reject(*) impl=timeout");
  EXPECT_EQ(rules[0].modes, (std::vector<std::string>{"memtrace-0.2.3", "memtrace-head"}));
  EXPECT_EQ(rules[0].why, "both readers");
  EXPECT_EQ(rules[1].pattern, "oracle=accept impl=signal-11");
  EXPECT_TRUE(rules[2].modes.empty());
  const auto head = RulesFor(rules, "memtrace-head");
  ASSERT_EQ(head.size(), 2u);
  EXPECT_NE(MatchDeclared(head, "oracle=reject(x) impl=timeout"), nullptr);
  EXPECT_EQ(MatchDeclared(head, "oracle=accept impl=signal-11"), nullptr);
  EXPECT_NE(MatchDeclared(RulesFor(rules, "ocaml-5.3"), "oracle=accept impl=signal-11"), nullptr);
  EXPECT_EQ(RulesFor(rules, "strict").size(), 1u);
}

// The program carries the file itself, not a copy, and each of its rules names the
// references where the bug was seen.
TEST(Declared, BuiltinRulesAreTheFileTaggedByMode) {
  std::ifstream f("core/corpus/fuzz/known_peer_bugs.txt");
  ASSERT_TRUE(f) << "run from the workspace root (bazel test)";
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_EQ(std::string(KnownPeerBugsText()), text.str());
  // Each rule names references: rows of the table of verdict modes other than strict.
  for (const DeclaredRule& r : ParseDeclared(KnownPeerBugsText())) {
    EXPECT_FALSE(r.modes.empty()) << "line " << r.line << " applies to every mode";
    for (const std::string& m : r.modes) {
      const auto mode = ParseVerdicts(m);
      EXPECT_TRUE(mode && *mode != Verdicts::kStrict) << "line " << r.line << ": " << m;
    }
  }
  EXPECT_TRUE(BuiltinDeclared("strict").empty());
  const std::string loops = "oracle=reject(packet header: packet_size) impl=timeout";
  EXPECT_NE(MatchDeclared(BuiltinDeclared("memtrace-0.2.3"), loops), nullptr);
  EXPECT_NE(MatchDeclared(BuiltinDeclared("memtrace-head"), loops), nullptr);
  EXPECT_EQ(MatchDeclared(BuiltinDeclared("ocaml-5.3"), loops), nullptr);
  const std::string domains = "oracle=reject(packet header: domain) impl=accept";
  EXPECT_NE(MatchDeclared(BuiltinDeclared("memtrace-head"), domains), nullptr);
  EXPECT_EQ(MatchDeclared(BuiltinDeclared("memtrace-0.2.3"), domains), nullptr);
  // OCaml's crash on a changed user-event type is not a memtrace reader's.
  EXPECT_NE(MatchDeclared(BuiltinDeclared("ocaml-5.3"), "oracle=accept impl=signal-11"), nullptr);
  EXPECT_EQ(MatchDeclared(BuiltinDeclared("memtrace-0.2.3"), "oracle=accept impl=signal-11"),
            nullptr);
  EXPECT_EQ(
      MatchDeclared(BuiltinDeclared("memtrace-head"), "oracle=accept impl=accept differs=/id"),
      nullptr);
}

// The file CI passes against the real references: it parses, and each rule is narrow.
TEST(Declared, KnownPeerBugsFile) {
  std::ifstream f("core/corpus/fuzz/known_peer_bugs.txt");
  ASSERT_TRUE(f) << "run from the workspace root (bazel test)";
  std::stringstream text;
  text << f.rdbuf();
  const auto rules = ParseDeclared(text.str());
  ASSERT_GE(rules.size(), 2u);
  for (const DeclaredRule& r : rules) EXPECT_FALSE(r.why.empty()) << "line " << r.line;
  EXPECT_NE(MatchDeclared(rules, "oracle=reject(packet header: packet_size) impl=timeout"),
            nullptr);
  EXPECT_NE(MatchDeclared(rules, "oracle=accept impl=signal-11"), nullptr);
  EXPECT_NE(MatchDeclared(rules, "oracle=reject(ring 1: event) impl=timeout"), nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(metadata header: version) impl=signal-11"),
            nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(packet header: magic) impl=timeout"), nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(packet header: magic) impl=accept"), nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=accept impl=accept differs=stream"), nullptr);
  EXPECT_NE(MatchDeclared(rules, "oracle=accept impl=accept differs=/buckets/#"), nullptr);
  // The OCaml-int conversions also in records delivered before both refuse the file; other
  // differences there stay undeclared.
  EXPECT_NE(MatchDeclared(rules,
                          "oracle=reject(metadata header: data_offset) impl=reject differs=/value"),
            nullptr);
  EXPECT_EQ(
      MatchDeclared(rules, "oracle=reject(metadata header: data_offset) impl=reject differs=/kind"),
      nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(metadata header: data_offset) impl=accept"),
            nullptr);
  // Head and tail read past the file's end: declared under the size's field alone.
  EXPECT_NE(MatchDeclared(rules,
                          "oracle=reject(metadata header: ring_header_size_bytes) "
                          "impl=accept"),
            nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(metadata header: headers_offset) impl=accept"),
            nullptr);
  // OCaml 5.3 accepting a ring the oracle refuses is declared for short allocs only.
  EXPECT_NE(MatchDeclared(rules, "oracle=reject(ring 0: alloc event) impl=accept"), nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(ring 0: custom event) impl=accept"), nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(ring 0: event) impl=accept"), nullptr);
  // The lap class passes the output cap as often as it times out, or reaches a tail just
  // past the oracle's bound and accepts; nothing else does.
  EXPECT_NE(MatchDeclared(rules, "oracle=reject(ring 0: lap) impl=output-cap"), nullptr);
  EXPECT_NE(MatchDeclared(rules, "oracle=reject(ring 0: lap) impl=accept"), nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(ring 0: event) impl=output-cap"), nullptr);
  EXPECT_EQ(MatchDeclared(rules, "oracle=reject(ring 0: alloc event) impl=output-cap"), nullptr);
}

}  // namespace
}  // namespace mpo::corpus::fuzz
