#include "core/corpus/manifest.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/corpus/tags.h"

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

TEST(Manifest, TagsAreReadOrDerived) {
  auto m = ParseManifest(Manifest(R"(,"tags":["memtrace","mine"])"));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ((*m)[0].tags, (std::vector<std::string>{"memtrace", "mine"}));
  // An older manifest: derived from the name, the file and "expects_error".
  m = ParseManifest(
      R"({"schema":2,"cases":[{"name":"memtrace/v2_bad_time_wrap","file":"memtrace/v2_bad_time_wrap.ctf",)"
      R"("expected_jsonl":"x.jsonl","expects_error":true},)"
      R"({"name":"ring/declared_user_lost.ocaml-5.3","file":"ring/declared_user_lost.ocaml-5.3.events",)"
      R"("expected_jsonl":"y.jsonl"},)"
      R"({"name":"sampler/geometric_seed0","file":"sampler/geometric_seed0.sampler.json",)"
      R"("expected_jsonl":"z.jsonl","expects_error":false}]})");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ((*m)[0].tags, (std::vector<std::string>{"memtrace", "v2", "rejected", "bad", "time"}));
  EXPECT_EQ((*m)[1].tags, (std::vector<std::string>{"ring", "ocaml-5.3", "declared", "user_events",
                                                    "lost_events"}));
  EXPECT_EQ((*m)[2].tags, (std::vector<std::string>{"sampler", "accepted", "geometric"}));
  EXPECT_EQ(FormatTag((*m)[1].tags), "ring");
  EXPECT_EQ(VersionTag((*m)[1].tags), "ocaml-5.3");
  EXPECT_EQ(VersionTag((*m)[2].tags), "");
}

TEST(Manifest, BadTagsAreTypedErrorsNamingTheMember) {
  for (const auto& [members, field] : {
           std::pair{R"(,"tags":"memtrace")", "MANIFEST.json: cases[0].tags"},
           std::pair{R"(,"tags":["ok",1])", "MANIFEST.json: cases[0].tags[1]"},
           std::pair{R"(,"tags":[""])", "MANIFEST.json: cases[0].tags[0]"},
           std::pair{R"(,"tags":["a,b"])", "MANIFEST.json: cases[0].tags[0]"},
       }) {
    auto m = ParseManifest(Manifest(members));
    ASSERT_FALSE(m.ok()) << members;
    EXPECT_EQ(m.status().code(), ErrorCode::kCorrupt) << members;
    EXPECT_EQ(m.status().field(), field) << m.status().ToString();
  }
}

TEST(Supports, FormatsAndVersions) {
  auto s = ParseSupports({"memtrace-v1", "memtrace-v2", "ring"});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->Covers({"memtrace", "v1", "bad"}));
  EXPECT_FALSE(s->Covers({"memtrace", "v3"}));
  EXPECT_TRUE(s->Covers({"ring", "ocaml-5.0"}));
  EXPECT_FALSE(s->Covers({"sampler"}));
  auto only = ParseSupports({"ring-ocaml-5.3"});
  ASSERT_TRUE(only.ok());
  EXPECT_FALSE(only->Covers({"ring", "ocaml-5.0"}));
  EXPECT_TRUE(ParseSupports({})->Covers({"sampler"}));
  for (const char* bad :
       {"", "ctf", "memtrace-v4", "memtrace-", "ring-5.3", "sampler-v1", "ring-ocaml-5.x"}) {
    auto b = ParseSupports({bad});
    ASSERT_FALSE(b.ok()) << bad;
    EXPECT_EQ(b.status().code(), ErrorCode::kInvalidArgument) << bad;
    EXPECT_EQ(b.status().field(), "--supports");
  }
}

}  // namespace
}  // namespace mpo::corpus
