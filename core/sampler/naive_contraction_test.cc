// Proof that the hostile-flags test is meaningful: the textbook form of OCaml's
// log_approx, built with -mfma -ffp-contract=fast, lets the compiler fuse products into
// sums, and then the draws no longer match OCaml's. If this test ever fails, the
// compiler stopped contracting and sampler_hostile_flags_test no longer proves anything.
#include <gtest/gtest.h>

#include <cstring>

#include "core/sampler/geometric_batch.h"
#include "core/sampler/sampling_rate.h"
#include "core/sampler/vectors.h"
#include "core/sampler/xoshiro_lanes.h"

namespace mpo::sampler {
namespace {

float NaiveLogApprox(std::uint32_t y) {
  float f = y + 0.5f;
  std::int32_t i;
  std::memcpy(&i, &f, sizeof i);
  const float e = static_cast<float>(i >> 23);
  i = (i & 0x7FFFFF) | 0x3F800000;
  float x;
  std::memcpy(&x, &i, sizeof x);
  return -111.70172433407f + x * (2.104659476859f + x * (-0.720478916626f + x * 0.107132064797f)) +
         0.6931471805f * e;
}

std::uint64_t NaiveGeometric(std::uint32_t u, float k) {
  const double f = 1 + NaiveLogApprox(u) * k;
  return f >= 4611686018427387904.0 ? kMaxLong : static_cast<std::uint64_t>(f);
}

TEST(NaiveContractionTest, FusedArithmeticDiverges) {
  if (!__builtin_cpu_supports("fma")) GTEST_SKIP() << "SKIPPED: CPU has no FMA";
  const auto vectors = LoadGeometricVectors(kGeometricCsv);
  ASSERT_FALSE(vectors.empty());
  int mismatches = 0;
  for (const auto& v : vectors) {
    XoshiroLanes lanes = XoshiroLanes::Seeded(v.seed);
    const float k = static_cast<float>(SamplingRate::FromLambda(v.lambda)->one_log1m_lambda());
    std::uint32_t u[kLanes];
    for (std::size_t i = 0; i < v.draws.size(); ++i) {
      if (i % kLanes == 0) lanes.Step(u);
      mismatches += NaiveGeometric(u[i % kLanes], k) != v.draws[i];
    }
  }
  EXPECT_GT(mismatches, 0);
  std::printf("naive FMA-contracted draws differing from OCaml's: %d\n", mismatches);
}

}  // namespace
}  // namespace mpo::sampler
