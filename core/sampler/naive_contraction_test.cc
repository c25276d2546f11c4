// Proof that the hostile-flags test is meaningful: the textbook form of OCaml's
// log_approx, built with -mfma -ffp-contract=fast, lets the compiler fuse products into
// sums, and then the draws no longer match OCaml's. If this test ever fails, the
// compiler stopped contracting and sampler_hostile_flags_test no longer proves anything.
#include <gtest/gtest.h>

#include "core/sampler/geometric_batch.h"
#include "core/sampler/internal/textbook_log_approx.h"
#include "core/sampler/sampling_rate.h"
#include "core/sampler/vectors.h"
#include "core/sampler/xoshiro_lanes.h"

namespace mpo::sampler {
namespace {

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
      mismatches += internal::TextbookGeometric(u[i % kLanes], k) != v.draws[i];
    }
  }
  EXPECT_GT(mismatches, 0);
  std::printf("naive FMA-contracted draws differing from OCaml's: %d\n", mismatches);
}

}  // namespace
}  // namespace mpo::sampler
