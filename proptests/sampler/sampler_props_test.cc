// Properties of the memprof sampler, and statistical checks that cannot flake: every
// seed is fixed, so each check has one outcome, chosen with loose bounds.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/sampler/sampler.h"

namespace mpo::sampler {
namespace {

// λ in (0, 1], spread over many orders of magnitude.
rc::Gen<double> GenLambda() {
  return rc::gen::map(rc::gen::inRange(0, 1000000), [](int k) {
    return std::pow(10.0, -6.0 * k / 1000000.0);  // 1e-6 .. 1
  });
}

SamplingRate Rate(double lambda) { return *SamplingRate::FromLambda(lambda); }

RC_GTEST_PROP(SamplerProps, GeometricWithinBounds, (std::uint64_t seed)) {
  const double lambda = *GenLambda();
  Sampler s(seed);
  s.Start(Rate(lambda));
  for (int i = 0; i < 300; ++i) {
    const std::uint64_t g = s.Geometric();
    RC_ASSERT(g >= 1u);
    RC_ASSERT(g <= kMaxLong);
  }
}

RC_GTEST_PROP(SamplerProps, LambdaOneGivesOne, (std::uint64_t seed)) {
  Sampler s(seed);
  s.Start(Rate(1.0));
  RC_ASSERT(s.surplus() == 0u);
  for (int i = 0; i < 200; ++i) RC_ASSERT(s.Geometric() == 1u);
}

RC_GTEST_PROP(SamplerProps, BinomialAtMostLength, (std::uint64_t seed)) {
  const double lambda = *GenLambda();
  const auto lengths =
      *rc::gen::container<std::vector<std::uint32_t>>(rc::gen::inRange<std::uint32_t>(0, 5000));
  Sampler s(seed);
  s.Start(Rate(lambda));
  for (std::uint32_t len : lengths) RC_ASSERT(s.Binomial(len) <= len);
}

// The surplus carries across calls: sampling a run of blocks one by one samples the
// same words as sampling their concatenation, and leaves the same surplus.
RC_GTEST_PROP(SamplerProps, SurplusCarriesAcrossCalls, (std::uint64_t seed)) {
  const double lambda = *GenLambda();
  const auto lengths = *rc::gen::nonEmpty(
      rc::gen::container<std::vector<std::uint32_t>>(rc::gen::inRange<std::uint32_t>(0, 3000)));
  Sampler split(seed), whole(seed);
  split.Start(Rate(lambda));
  whole.Start(Rate(lambda));
  std::uint64_t split_hits = 0, total = 0;
  for (std::uint32_t len : lengths) {
    split_hits += split.Binomial(len);
    total += len;
  }
  RC_ASSERT(whole.Binomial(total) == split_hits);
  RC_ASSERT(whole.surplus() == split.surplus());
}

// Definition check: the surplus after a binomial is the geometric gap that crossed the
// block's end, minus the words that remained in the block.
RC_GTEST_PROP(SamplerProps, BinomialCountsGeometricGaps, (std::uint64_t seed)) {
  const double lambda = *GenLambda();
  const std::uint32_t len = *rc::gen::inRange<std::uint32_t>(0, 20000);
  Sampler a(seed), b(seed);
  a.Start(Rate(lambda));
  b.Start(Rate(lambda));
  std::uint64_t next = b.surplus(), hits = 0;
  while (next < len) {
    next += b.Geometric();
    ++hits;
  }
  RC_ASSERT(a.Binomial(len) == hits);
  RC_ASSERT(a.surplus() == next - len);
}

// ---- Statistics with fixed seeds. ----

// Chi-square goodness of fit of geometric draws against P(g = k) = (1-λ)^(k-1) λ.
double GeometricChiSquare(double lambda, std::uint64_t seed, int n, int* dof) {
  Sampler s(seed);
  s.Start(Rate(lambda));
  // Bins on the quantiles of the law, so each has a sizeable expected count.
  const int bins = 20;
  std::vector<double> edges;  // edges[i]: smallest k in bin i+1
  for (int i = 1; i < bins; ++i) {
    const double q = static_cast<double>(i) / bins;
    edges.push_back(std::ceil(std::log1p(-q) / std::log1p(-lambda)));
  }
  std::vector<double> observed(bins, 0.0);
  for (int i = 0; i < n; ++i) {
    const double g = static_cast<double>(s.Geometric());
    int b = 0;
    while (b < bins - 1 && g > edges[b]) ++b;
    observed[b] += 1;
  }
  auto cdf = [&](double k) { return 1.0 - std::pow(1.0 - lambda, k); };  // P(g <= k)
  double chi2 = 0, prev = 0;
  *dof = 0;
  for (int b = 0; b < bins; ++b) {
    const double upper = b < bins - 1 ? cdf(edges[b]) : 1.0;
    const double expected = (upper - prev) * n;
    prev = upper;
    if (expected < 5) continue;
    chi2 += (observed[b] - expected) * (observed[b] - expected) / expected;
    ++*dof;
  }
  *dof -= 1;
  return chi2;
}

TEST(SamplerStatistics, GeometricFitsTheGeometricLaw) {
  for (double lambda : {0.5, 0.1, 1e-2, 1e-3, 1e-4}) {
    for (std::uint64_t seed : {0u, 1u, 17u}) {
      int dof = 0;
      const double chi2 = GeometricChiSquare(lambda, seed, 200000, &dof);
      // Mean dof, sd sqrt(2 dof): 6 sd above the mean is far in the tail, yet an
      // approximation bias of even a percent in one bin would exceed it at n = 2e5.
      const double bound = dof + 6 * std::sqrt(2.0 * dof);
      EXPECT_LT(chi2, bound) << "lambda=" << lambda << " seed=" << seed << " dof=" << dof;
    }
  }
}

TEST(SamplerStatistics, BinomialMeanAndVariance) {
  for (double lambda : {0.5, 0.05, 1e-3}) {
    for (std::uint64_t len : {1u, 7u, 100u, 1000u}) {
      Sampler s(99);
      s.Start(Rate(lambda));
      const int n = 100000;
      double sum = 0, sum2 = 0;
      for (int i = 0; i < n; ++i) {
        const double x = static_cast<double>(s.Binomial(len));
        sum += x;
        sum2 += x * x;
      }
      const double mean = sum / n, var = sum2 / n - mean * mean;
      const double want_mean = len * lambda, want_var = len * lambda * (1 - lambda);
      EXPECT_NEAR(mean, want_mean, 6 * std::sqrt(want_var / n) + 1e-12)
          << "lambda=" << lambda << " len=" << len;
      EXPECT_NEAR(var, want_var, 0.05 * want_var + 1e-3) << "lambda=" << lambda << " len=" << len;
    }
  }
}

}  // namespace
}  // namespace mpo::sampler
