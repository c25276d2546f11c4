#include "core/base/verdicts.h"

#include <gtest/gtest.h>

namespace mpo {
namespace {

TEST(Verdicts, NamesRoundTrip) {
  for (Verdicts v : AllVerdicts()) {
    auto parsed = ParseVerdicts(VerdictsName(v));
    ASSERT_TRUE(parsed.has_value()) << VerdictsName(v);
    EXPECT_EQ(*parsed, v);
    EXPECT_NE(VerdictsNames().find(VerdictsName(v)), std::string_view::npos);
  }
  EXPECT_FALSE(ParseVerdicts("ocaml-5.2").has_value());
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
}

}  // namespace
}  // namespace mpo
