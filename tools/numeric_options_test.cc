#include "tools/numeric_options.h"

#include <gtest/gtest.h>

#include <string>

namespace mpo::tools {
namespace {

// The validator's verdict on one string: "" when accepted, else the message.
std::string Check(const CLI::Validator& v, std::string text) { return v(text); }

TEST(UnsignedIn, AcceptsDecimalIntegersInRange) {
  const auto v = UnsignedIn(1, 100);
  EXPECT_EQ(Check(v, "1"), "");
  EXPECT_EQ(Check(v, "100"), "");
  EXPECT_EQ(Check(v, "007"), "");
}

TEST(UnsignedIn, RefusesWhatCli11WouldWrapOrZero) {
  const auto v = UnsignedIn();
  for (const char* bad : {"-1", "", " 1", "+1", "1e3", "0x10", "18446744073709551616", "nan"}) {
    EXPECT_NE(Check(v, bad), "") << bad;
  }
  EXPECT_EQ(Check(v, "18446744073709551615"), "");
}

TEST(UnsignedIn, RefusesOutOfRange) {
  const auto v = UnsignedIn(1, 64);
  EXPECT_NE(Check(v, "0"), "");
  EXPECT_NE(Check(v, "65"), "");
  EXPECT_NE(Check(v, "65").find("[1, 64]"), std::string::npos);
}

TEST(FiniteIn, AcceptsNumbersInRange) {
  const auto v = FiniteIn(0.0, 1.0);
  for (const char* ok : {"0", "1", "0.5", "1e-5", ".25", "1e-310", "0e-400"}) {
    EXPECT_EQ(Check(v, ok), "") << ok;
  }
}

TEST(FiniteIn, RefusesNanInfEmptyAndTrailingText) {
  const auto v = FiniteIn(0.0, 1e9);
  for (const char* bad : {"", "nan", "NaN", "inf", "-inf", "1x", "-0.5", "1e999", " "}) {
    EXPECT_NE(Check(v, bad), "") << bad;
  }
}

TEST(FiniteIn, RefusesNonzeroNumbersThatRoundToZero) {
  const auto v = FiniteIn(0.0, 1e9);
  for (const char* bad : {"1e-400", "0.1e-330", "1e-99999"}) {
    EXPECT_NE(Check(v, bad).find("rounds to zero"), std::string::npos) << bad;
  }
}

TEST(SecondsIn, RefusesValuesBelowAMicrosecond) {
  const auto s = SecondsIn(0.0, 1e9);
  for (const char* ok : {"0", "1e-6", "0.5", "1e9"}) EXPECT_EQ(Check(s, ok), "") << ok;
  for (const char* bad : {"1e-7", "1e-300", "1e-400"}) EXPECT_NE(Check(s, bad), "") << bad;
  const auto ms = MillisecondsIn(0.0, 60000.0);
  EXPECT_EQ(Check(ms, "0.001"), "");
  EXPECT_NE(Check(ms, "0.0009").find("smallest step"), std::string::npos);
}

}  // namespace
}  // namespace mpo::tools
