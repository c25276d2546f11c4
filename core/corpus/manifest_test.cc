#include "core/corpus/manifest.h"

#include <gtest/gtest.h>

#include <string>

namespace mpo::corpus {
namespace {

std::string Manifest(const std::string& extra_members) {
  return R"({"schema":2,"cases":[{"name":"memtrace/a","file":"memtrace/a.ctf",)"
         R"("expected_jsonl":"memtrace/a.ctf.expected.jsonl")" +
         extra_members + "}]}";
}

TEST(Manifest, ModeMembersAreOptional) {
  auto m = ParseManifest(Manifest(""));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->size(), 1u);
  EXPECT_TRUE((*m)[0].expected_as.empty());
  EXPECT_TRUE((*m)[0].declared.empty());
}

TEST(Manifest, ReadsModeStreamsAndDeclaredDifferences) {
  auto m = ParseManifest(Manifest(
      R"(,"expected_as":{"memtrace-0.2.3":"memtrace/a.ctf.expected.memtrace-0.2.3.jsonl"},)"
      R"("declared":{"memtrace-head":{"reference":"loops forever","why":"a hang is never copied"}})"));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const ManifestCase& c = (*m)[0];
  ASSERT_EQ(c.expected_as.count(Verdicts::kMemtrace023), 1u);
  EXPECT_EQ(c.expected_as.at(Verdicts::kMemtrace023),
            "memtrace/a.ctf.expected.memtrace-0.2.3.jsonl");
  ASSERT_EQ(c.declared.count(Verdicts::kMemtraceHead), 1u);
  EXPECT_EQ(c.declared.at(Verdicts::kMemtraceHead).reference, "loops forever");
  EXPECT_EQ(c.declared.at(Verdicts::kMemtraceHead).why, "a hang is never copied");
}

TEST(Manifest, BadModeMembersAreTypedErrorsNamingTheMember) {
  struct Bad {
    const char* members;
    const char* field;
  };
  for (const Bad& b : {
           Bad{R"(,"expected_as":[])", "MANIFEST.json: cases[0].expected_as"},
           Bad{R"(,"expected_as":{"strict":"x.jsonl"})",
               "MANIFEST.json: cases[0].expected_as.strict"},
           Bad{R"(,"expected_as":{"ocaml-9.9":"x.jsonl"})",
               "MANIFEST.json: cases[0].expected_as.ocaml-9.9"},
           Bad{R"(,"expected_as":{"ocaml-5.3":"../x.jsonl"})",
               "MANIFEST.json: cases[0].expected_as.ocaml-5.3"},
           Bad{R"(,"declared":{"ocaml-5.3":"why"})", "MANIFEST.json: cases[0].declared.ocaml-5.3"},
           Bad{R"(,"declared":{"ocaml-5.3":{"reference":"segfaults"}})",
               "MANIFEST.json: cases[0].declared.ocaml-5.3.why"},
       }) {
    auto m = ParseManifest(Manifest(b.members));
    ASSERT_FALSE(m.ok()) << b.members;
    EXPECT_EQ(m.status().code(), ErrorCode::kCorrupt) << b.members;
    EXPECT_EQ(m.status().field(), b.field) << m.status().ToString();
  }
}

}  // namespace
}  // namespace mpo::corpus
