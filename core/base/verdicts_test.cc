#include "core/base/verdicts.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace mpo {
namespace {

TEST(Verdicts, NamesRoundTrip) {
  for (Verdicts v : AllVerdicts()) {
    auto parsed = ParseVerdicts(VerdictsName(v));
    ASSERT_TRUE(parsed.has_value()) << VerdictsName(v);
    EXPECT_EQ(*parsed, v);
    EXPECT_NE(VerdictsNames().find(VerdictsName(v)), std::string_view::npos);
  }
  EXPECT_FALSE(ParseVerdicts("ocaml-5.4").has_value());
  EXPECT_FALSE(ParseVerdicts("").has_value());
  EXPECT_EQ(AllVerdicts().front(), Verdicts::kStrict);
}

TEST(Verdicts, EachReferenceJudgesItsOwnFormatOnly) {
  EXPECT_TRUE(VerdictsJudge(Verdicts::kStrict, VerdictFormat::kSampler));
  EXPECT_TRUE(VerdictsJudge(Verdicts::kMemtrace023, VerdictFormat::kMemtrace));
  EXPECT_FALSE(VerdictsJudge(Verdicts::kMemtrace023, VerdictFormat::kRing));
  EXPECT_TRUE(VerdictsJudge(Verdicts::kMemtraceHead, VerdictFormat::kMemtrace));
  EXPECT_TRUE(VerdictsJudge(Verdicts::kOcaml53, VerdictFormat::kRing));
  EXPECT_FALSE(VerdictsJudge(Verdicts::kOcaml53, VerdictFormat::kMemtrace));
  for (Verdicts v : {Verdicts::kOcaml50, Verdicts::kOcaml51, Verdicts::kOcaml52}) {
    EXPECT_TRUE(VerdictsJudge(v, VerdictFormat::kRing)) << VerdictsName(v);
    EXPECT_FALSE(VerdictsJudge(v, VerdictFormat::kMemtrace)) << VerdictsName(v);
  }
}

// Only 5.0.0's binding misreturns a poll's count (Int_val where 5.1 has Val_int).
TEST(Verdicts, OnlyOcaml50MisreturnsThePollCount) {
  for (Verdicts v : AllVerdicts())
    EXPECT_EQ(RulesOf(v).ring.poll_count_as_int_val, v == Verdicts::kOcaml50) << VerdictsName(v);
}

TEST(Verdicts, RowsFollowTheEnumerators) {
  ASSERT_EQ(VerdictModes().size(), AllVerdicts().size());
  for (std::size_t i = 0; i < VerdictModes().size(); ++i) {
    const VerdictMode& m = VerdictModes()[i];
    EXPECT_EQ(m.id, AllVerdicts()[i]);
    EXPECT_EQ(&ModeOf(m.id), &m);
    EXPECT_EQ(&RulesOf(m.id), &m.rules);
    EXPECT_FALSE(m.judges.empty()) << m.name;
    EXPECT_FALSE(m.gives.empty()) << m.name;
    // Only the default has no reference; every reference judges some format.
    EXPECT_EQ(m.reference.empty(), m.id == Verdicts::kStrict) << m.name;
    EXPECT_TRUE(m.memtrace || m.ring || m.sampler) << m.name;
  }
  EXPECT_EQ(VerdictsNames(),
            "strict, memtrace-0.2.3, memtrace-head, ocaml-5.0, ocaml-5.1, ocaml-5.2, ocaml-5.3");
}

// kStrict's rules are the value-initialised ones: the decoders' defaults are strict.
TEST(Verdicts, StrictRulesAreTheDefaults) {
  const VerdictRules& s = RulesOf(Verdicts::kStrict);
  const MemtraceRules m;
  EXPECT_EQ(s.memtrace.min_version, m.min_version);
  EXPECT_EQ(s.memtrace.max_version, m.max_version);
  EXPECT_FALSE(s.memtrace.mixed_versions || s.memtrace.domain_streams_every_version ||
               s.memtrace.info_packet_within_buffer || s.memtrace.skip_truncated_last_packet ||
               s.memtrace.body_within_buffer);
  EXPECT_FALSE(s.ring.lenient_metadata || s.ring.lost_words_as_c_int ||
               s.ring.extra_alloc_buckets_dropped || s.ring.unterminated_name_refused ||
               s.ring.nameless_custom_dropped || s.ring.poll_count_as_int_val);
  EXPECT_TRUE(s.ring.message_within_tail && s.ring.tail_within_lap);
  // A mode that does not judge a format reads it by strict's rules.
  EXPECT_TRUE(RulesOf(Verdicts::kMemtrace023).ring.tail_within_lap);
  EXPECT_FALSE(RulesOf(Verdicts::kOcaml53).memtrace.skip_truncated_last_packet);
}

// conformance/VERDICTS.md's list of modes is the table's, row for row.
TEST(Verdicts, VerdictsMdListsTheTable) {
  std::ifstream in("conformance/VERDICTS.md");
  ASSERT_TRUE(in.good()) << "conformance/VERDICTS.md not in the test's runfiles";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  std::string list = "| mode | judges | what it gives |\n|---|---|---|\n";
  for (const VerdictMode& m : VerdictModes()) {
    list += "| `" + std::string(m.name) + "`";
    if (m.id == Verdicts::kStrict) list += " (**the default**)";
    list += " | " + std::string(m.judges) + " | " + std::string(m.gives) + " |\n";
  }
  // The list ends with its last row: no mode the table lacks.
  list += "\n";
  EXPECT_NE(doc.find(list), std::string::npos)
      << "conformance/VERDICTS.md must hold the list of modes:\n"
      << list;
}

}  // namespace
}  // namespace mpo
