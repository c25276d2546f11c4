#include "core/memtrace/analysis/lifetime_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace mpo::memtrace::analysis {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

LifetimeFigures Summarize(const std::vector<std::int64_t>& values) {
  LifetimeSummary s;
  for (std::int64_t v : values) s.Add(v);
  return s.Figures();
}

// The exact order statistics, as memtrace stats defined them before the summary.
struct Exact {
  std::int64_t median, p90, max;
  long double mean;
};
Exact ExactOf(std::vector<std::int64_t> v) {
  std::sort(v.begin(), v.end());
  long double sum = 0;
  for (std::int64_t x : v) sum += static_cast<long double>(x);
  return {v[v.size() / 2], v[v.size() * 9 / 10], v.back(),
          sum / static_cast<long double>(v.size())};
}

// |got - want| <= |want| * kQuantileRelativeError, computed without overflow.
void ExpectWithinBound(std::int64_t got, std::int64_t want) {
  const long double err = std::fabs(static_cast<long double>(got) - static_cast<long double>(want));
  EXPECT_LE(err, std::fabs(static_cast<long double>(want)) * kQuantileRelativeError)
      << "got " << got << " want " << want;
}

TEST(LifetimeSummary, EmptyIsZero) {
  const LifetimeFigures f = LifetimeSummary().Figures();
  EXPECT_EQ(f.count, 0u);
  EXPECT_EQ(f.median, 0);
  EXPECT_TRUE(f.exact);
}

// Up to kExactValues values the figures are the sorted vector's, whatever the values.
TEST(LifetimeSummary, ExactWhileSmall) {
  std::mt19937_64 rng(1);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{11}, std::size_t{1000},
                        LifetimeSummary::kExactValues}) {
    std::vector<std::int64_t> v(n);
    for (auto& x : v) x = static_cast<std::int64_t>(rng());
    const LifetimeFigures f = Summarize(v);
    const Exact e = ExactOf(v);
    EXPECT_TRUE(f.exact);
    EXPECT_EQ(f.count, n);
    EXPECT_EQ(f.median, e.median);
    EXPECT_EQ(f.p90, e.p90);
    EXPECT_EQ(f.max, e.max);
  }
}

// Past kExactValues: median and p90 within the stated bound of the exact ones on random
// inputs of several shapes (log-uniform over the whole range, signed, small integers,
// clustered), count, max and mean exact (mean to double rounding).
TEST(LifetimeSummary, ApproximateWithinBound) {
  std::mt19937_64 rng(20261122);
  const std::size_t n = LifetimeSummary::kExactValues * 3 + 17;
  for (int shape = 0; shape < 5; ++shape) {
    for (int round = 0; round < 2; ++round) {
      std::vector<std::int64_t> v(n);
      for (auto& x : v) {
        switch (shape) {
          case 0: x = static_cast<std::int64_t>(rng() >> (rng() % 64)); break;
          case 1: x = static_cast<std::int64_t>(rng()) >> (rng() % 64); break;
          case 2: x = static_cast<std::int64_t>(rng() % 256); break;
          case 3: x = 1'000'000 + static_cast<std::int64_t>(rng() % 5000); break;
          default:
            x = static_cast<std::int64_t>(std::exp2(std::uniform_real_distribution<>(0, 40)(rng)));
            break;
        }
      }
      const LifetimeFigures f = Summarize(v);
      const Exact e = ExactOf(v);
      EXPECT_FALSE(f.exact);
      EXPECT_EQ(f.count, n);
      EXPECT_EQ(f.max, e.max);
      ExpectWithinBound(f.median, e.median);
      ExpectWithinBound(f.p90, e.p90);
      EXPECT_LE(std::fabs(f.mean - static_cast<double>(e.mean)),
                std::fabs(static_cast<double>(e.mean)) * 1e-12 + 1e-9);
      if (shape == 2) {  // below 256 every value has its own bucket
        EXPECT_EQ(f.median, e.median);
        EXPECT_EQ(f.p90, e.p90);
      }
    }
  }
}

// The result depends on the values, not on the order they came in.
TEST(LifetimeSummary, OrderIndependent) {
  std::mt19937_64 rng(5);
  std::vector<std::int64_t> v(LifetimeSummary::kExactValues * 2);
  for (auto& x : v) x = static_cast<std::int64_t>(rng() >> 20);
  const LifetimeFigures a = Summarize(v);
  std::shuffle(v.begin(), v.end(), rng);
  const LifetimeFigures b = Summarize(v);
  EXPECT_EQ(a.median, b.median);
  EXPECT_EQ(a.p90, b.p90);
  EXPECT_EQ(a.mean, b.mean);
}

// The ends of the int64 range: no overflow, quantiles clamped to the values seen.
TEST(LifetimeSummary, ExtremeValues) {
  for (std::int64_t x : {kMin, kMax, std::int64_t{-1}, std::int64_t{0}}) {
    const std::vector<std::int64_t> v(LifetimeSummary::kExactValues + 5, x);
    const LifetimeFigures f = Summarize(v);
    EXPECT_FALSE(f.exact);
    EXPECT_EQ(f.median, x);
    EXPECT_EQ(f.p90, x);
    EXPECT_EQ(f.max, x);
    EXPECT_EQ(f.mean, static_cast<double>(x));
  }
  std::vector<std::int64_t> mixed(LifetimeSummary::kExactValues + 1, kMin);
  mixed.resize(mixed.size() * 2, kMax);
  const LifetimeFigures f = Summarize(mixed);
  const Exact e = ExactOf(mixed);
  ExpectWithinBound(f.median, e.median);
  ExpectWithinBound(f.p90, e.p90);
}

}  // namespace
}  // namespace mpo::memtrace::analysis
