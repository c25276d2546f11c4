#include "core/sampler/sampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/sampler/geometric_batch.h"
#include "core/sampler/geometric_listing.h"
#include "core/sampler/vectors.h"

namespace mpo::sampler {
namespace {

SamplingRate Rate(double lambda) { return *SamplingRate::FromLambda(lambda); }

TEST(SamplingRateTest, RejectsOutOfRangeAndNaN) {
  for (double bad : {-0.1, 1.0000001, std::nan(""), std::numeric_limits<double>::infinity()}) {
    auto r = SamplingRate::FromLambda(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(r.status().message(), "Gc.Memprof.start");
  }
}

TEST(SamplingRateTest, EdgeCases) {
  EXPECT_EQ(Rate(1.0).one_log1m_lambda(), 0.0);
  EXPECT_FALSE(Rate(1.0).never_samples());
  EXPECT_TRUE(Rate(0.0).never_samples());
  // The division overflows to -infinity only for subnormal λ ...
  EXPECT_TRUE(Rate(1e-320).never_samples());
  // ... while 1e-300 gives a finite double that narrows to -infinity as a float: the
  // profile samples in principle, but every draw is Max_long (see NeverSamplingRate).
  EXPECT_FALSE(Rate(1e-300).never_samples());
  EXPECT_FALSE(Rate(1e-5).never_samples());
  EXPECT_DOUBLE_EQ(Rate(0.5).one_log1m_lambda(), 1.0 / std::log1p(-0.5));
  EXPECT_EQ(Rate(0.25).lambda(), 0.25);
}

TEST(LogApproxTest, AlwaysNegativeAndClose) {
  for (std::uint64_t y = 0; y <= 0xFFFFFFFFull; y += 0x10001) {
    const float l = LogApprox(static_cast<std::uint32_t>(y));
    ASSERT_LT(l, 0.0f) << y;
    const double exact = std::log((static_cast<double>(y) + 0.5) / 4294967296.0);
    ASSERT_NEAR(l, exact, 2e-3) << y;
  }
  EXPECT_LT(LogApprox(0xFFFFFFFFu), 0.0f);
}

// Found by sampler_fuzzer under UBSan: a NaN draw (0 * -inf, reachable with a tiny λ) was
// converted to an integer, which is undefined; it is the longest draw, as for -inf.
TEST(GeometricTest, NanAndInfiniteDrawsAreMaxLong) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (std::uint32_t u : {0u, 0x12345678u, 0xFFFFFFFFu}) {
    EXPECT_EQ(GeometricFromUniform(u, nan), kMaxLong) << u;
    EXPECT_EQ(GeometricFromUniform(u, -inf), kMaxLong) << u;
  }
}

// The geometric vectors were drawn from a fresh batch: Start's surplus draw is the
// first of them, and the draws that follow continue the sequence.
TEST(SamplerVectorsTest, GeometricMatchesOCamlBitForBit) {
  const auto vectors = LoadGeometricVectors(kGeometricCsv);
  ASSERT_EQ(vectors.size(), 12u) << "cannot read " << kGeometricCsv;
  for (const auto& v : vectors) {
    SCOPED_TRACE("seed=" + std::to_string(v.seed) + " lambda=" + v.lambda_text);
    ASSERT_EQ(v.draws.size(), 1024u);
    Sampler s(v.seed);
    s.Start(Rate(v.lambda));
    EXPECT_EQ(s.surplus() + 1, v.draws[0]);
    for (std::size_t i = 1; i < v.draws.size(); ++i) {
      ASSERT_EQ(s.Geometric(), v.draws[i]) << "index " << i;
    }
  }
}

// The listing `sample geometric` prints: kFromSeed is the vector file index for index,
// kAsProfile the same sequence without index 0.
TEST(SamplerVectorsTest, GeometricListingViewsMatchTheVectors) {
  const auto vectors = LoadGeometricVectors(kGeometricCsv);
  ASSERT_FALSE(vectors.empty()) << "cannot read " << kGeometricCsv;
  for (const auto& v : vectors) {
    SCOPED_TRACE("seed=" + std::to_string(v.seed) + " lambda=" + v.lambda_text);
    GeometricListing from_seed(v.seed, Rate(v.lambda), GeometricView::kFromSeed);
    GeometricListing as_profile(v.seed, Rate(v.lambda), GeometricView::kAsProfile);
    for (std::size_t i = 0; i < v.draws.size(); ++i) {
      ASSERT_EQ(from_seed.Next(), v.draws[i]) << "index " << i;
      if (i > 0) {
        ASSERT_EQ(as_profile.Next(), v.draws[i]) << "index " << i;
      }
    }
  }
}

TEST(SamplerTest, GeometricListingOfANeverSamplingRateIsAllMax) {
  for (GeometricView view : {GeometricView::kFromSeed, GeometricView::kAsProfile}) {
    GeometricListing listing(3, Rate(0.0), view);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(listing.Next(), kMaxLong);
  }
}

TEST(SamplerVectorsTest, ScalarFormMatchesVectors) {
  const auto vectors = LoadGeometricVectors(kGeometricCsv);
  ASSERT_FALSE(vectors.empty());
  for (const auto& v : vectors) {
    XoshiroLanes lanes = XoshiroLanes::Seeded(v.seed);
    const float k = static_cast<float>(Rate(v.lambda).one_log1m_lambda());
    std::uint32_t u[kLanes];
    for (std::size_t i = 0; i < v.draws.size(); ++i) {
      if (i % kLanes == 0) lanes.Step(u);
      ASSERT_EQ(GeometricFromUniform(u[i % kLanes], k), v.draws[i])
          << "seed=" << v.seed << " lambda=" << v.lambda_text << " index " << i;
    }
  }
}

TEST(SamplerVectorsTest, BinomialMatchesOCamlBitForBit) {
  const auto vectors = LoadBinomialVectors(kBinomialCsv);
  ASSERT_EQ(vectors.size(), 6u) << "cannot read " << kBinomialCsv;
  for (const auto& v : vectors) {
    Sampler s(v.seed);
    s.Start(Rate(v.lambda));
    for (std::size_t i = 0; i < v.lengths.size(); ++i) {
      ASSERT_EQ(s.Binomial(v.lengths[i]), v.samples[i])
          << "seed=" << v.seed << " lambda=" << v.lambda_text << " index " << i;
    }
  }
}

TEST(SamplerTest, NeverSamplingRate) {
  Sampler s(3);
  s.Start(Rate(0.0));
  EXPECT_EQ(s.Binomial(1000000), 0u);
  EXPECT_EQ(s.Geometric(), kMaxLong);
  s.Start(Rate(1e-300));
  EXPECT_EQ(s.surplus(), kMaxLong - 1);
  EXPECT_EQ(s.Geometric(), kMaxLong);
  EXPECT_EQ(s.Binomial(std::uint64_t{1} << 54), 0u);
}

TEST(SamplerTest, LambdaOneSamplesEveryWordWithExactState) {
  Sampler fast(9), slow(9);
  fast.Start(Rate(1.0));
  slow.Start(Rate(1.0));
  EXPECT_EQ(fast.surplus(), 0u);
  for (std::uint64_t len : {1u, 2u, 63u, 64u, 65u, 1000u, 4097u, 3u}) {
    EXPECT_EQ(fast.Binomial(len), len);
    for (std::uint64_t i = 0; i < len; ++i) ASSERT_EQ(slow.Geometric(), 1u);
  }
  EXPECT_EQ(fast.lanes(), slow.lanes());
  // A huge block is answered at once.
  EXPECT_EQ(fast.Binomial(std::uint64_t{1} << 54), std::uint64_t{1} << 54);
}

TEST(SamplerTest, SkipDrawsEqualsDrawing) {
  for (std::uint64_t n : {0u, 1u, 5u, 63u, 64u, 65u, 127u, 128u, 1000u, 100000u}) {
    Sampler a(42), b(42);
    a.Start(Rate(0.01));
    b.Start(Rate(0.01));
    a.SkipDraws(n);
    for (std::uint64_t i = 0; i < n; ++i) (void)b.Geometric();
    for (int i = 0; i < 200; ++i) ASSERT_EQ(a.Geometric(), b.Geometric()) << "n=" << n;
  }
}

TEST(XoshiroLanesTest, AdvanceEqualsStepping) {
  // Both sides of the short-skip threshold and the matrix path.
  for (std::uint64_t n : {0u, 1u, 2u, 63u, 64u, 65u, 1000u}) {
    XoshiroLanes a = XoshiroLanes::Seeded(7), b = a;
    std::uint32_t out[kLanes];
    for (std::uint64_t i = 0; i < n; ++i) b.Step(out);
    a.Advance(n);
    EXPECT_EQ(a, b) << "n=" << n;
  }
}

TEST(SamplerTest, CheckedBinomialRejectsHugeLength) {
  Sampler s(1);
  s.Start(Rate(0.5));
  auto r = s.CheckedBinomial(kMaxLong);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_TRUE(s.CheckedBinomial(100).ok());
}

TEST(SamplerTest, KernelIsReported) {
  const std::string kernel = GeometricBatchKernel();
  EXPECT_TRUE(kernel == "avx512f" || kernel == "avx2" || kernel == "sse2") << kernel;
}

}  // namespace
}  // namespace mpo::sampler

namespace mpo::sampler {
namespace {

// Every kernel this CPU can run gives the scalar form's bits, including on draws large
// enough to take the clipping path (tiny λ) and exactly Max_long (λ = 0).
TEST(GeometricBatchTest, EveryKernelMatchesScalarForm) {
  __builtin_cpu_init();
  std::vector<const char*> kernels = {"sse2"};
  if (__builtin_cpu_supports("avx2")) kernels.push_back("avx2");
  if (__builtin_cpu_supports("avx512f")) kernels.push_back("avx512f");
  for (double lambda : {1.0, 0.5, 1e-3, 1e-9, 1e-15, 1e-300, 0.0}) {
    const float k = static_cast<float>(Rate(lambda).one_log1m_lambda());
    for (const char* kernel : kernels) {
      XoshiroLanes vec = XoshiroLanes::Seeded(5), ref = vec;
      std::uint64_t out[kLanes];
      std::uint32_t u[kLanes];
      for (int batch = 0; batch < 50; ++batch) {
        GeometricBatchWith(kernel, vec, k, out);
        ref.Step(u);
        for (int i = 0; i < kLanes; ++i)
          ASSERT_EQ(out[i], GeometricFromUniform(u[i], k))
              << kernel << " lambda=" << lambda << " batch " << batch << " lane " << i;
      }
      EXPECT_EQ(vec, ref);
    }
  }
}

}  // namespace
}  // namespace mpo::sampler
