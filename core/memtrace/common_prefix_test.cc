#include "core/memtrace/common_prefix.h"

#include <gtest/gtest.h>

#include <vector>

namespace mpo::memtrace {
namespace {

TEST(CommonPrefix, FindsTheFirstDifferenceInAndPastAStep) {
  std::vector<OcamlInt> a(40), b(40);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = b[i] = static_cast<OcamlInt>(i * 7);
  EXPECT_EQ(CommonPrefix(a, b), 40u);
  for (const std::size_t d : {0u, 3u, 8u, 17u, 39u}) {
    std::vector<OcamlInt> c = b;
    c[d] += 1;
    EXPECT_EQ(CommonPrefix(a, c), d);
    EXPECT_EQ(CommonPrefix(a, c, d), d);
  }
}

TEST(CommonPrefix, StopsAtTheShorter) {
  const std::vector<OcamlInt> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const std::vector<OcamlInt> b = {1, 2, 3};
  EXPECT_EQ(CommonPrefix(a, b), 3u);
  EXPECT_EQ(CommonPrefix(b, a), 3u);
  EXPECT_EQ(CommonPrefix(a, {}), 0u);
}

// A trusted count past either span (an overlong reader prefix) is clamped, never read past.
TEST(CommonPrefix, ClampsAStartPastTheShorter) {
  const std::vector<OcamlInt> a = {1, 2, 3, 4, 5};
  const std::vector<OcamlInt> b = {1, 2, 3};
  EXPECT_EQ(CommonPrefix(a, b, 3), 3u);
  EXPECT_EQ(CommonPrefix(a, b, 1000), 3u);
  EXPECT_EQ(CommonPrefix(a, {}, 7), 0u);
}

// The start is trusted: entries before it are not compared.
TEST(CommonPrefix, TrustsTheStart) {
  const std::vector<OcamlInt> a = {1, 2, 3, 4};
  const std::vector<OcamlInt> b = {9, 9, 3, 5};
  EXPECT_EQ(CommonPrefix(a, b), 0u);
  EXPECT_EQ(CommonPrefix(a, b, 2), 3u);
}

TEST(KnownCommonPrefix, NegativeAndZeroTrustNothing) {
  EXPECT_EQ(KnownCommonPrefix(-5), 0u);
  EXPECT_EQ(KnownCommonPrefix(0), 0u);
  EXPECT_EQ(KnownCommonPrefix(12), 12u);
}

}  // namespace
}  // namespace mpo::memtrace
