#include "core/sim/memprof_sim_workload.h"

#include <gtest/gtest.h>

namespace mpo::sim {
namespace {

TEST(MemprofSimWorkload, EveryWordIsASampleAtRateOne) {
  auto c = RunMemprofSimWorkload({.lambda = 1.0, .blocks = 2000});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_TRUE(c->balanced());
  EXPECT_GT(c->minor_words, 0u);
  EXPECT_GT(c->major_words, 0u);
  EXPECT_EQ(c->samples_minor, c->minor_words);
  EXPECT_EQ(c->samples_major, c->major_words);
  EXPECT_GE(c->major_collections, 1u);
}

TEST(MemprofSimWorkload, RateZeroSamplesNothing) {
  auto c = RunMemprofSimWorkload({.lambda = 0.0, .blocks = 3000});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_GT(c->minor_words + c->major_words, 0u);
  EXPECT_EQ(c->alloc_minor + c->alloc_major + c->samples_minor + c->samples_major, 0u);
  EXPECT_TRUE(c->balanced());
}

TEST(MemprofSimWorkload, APureFunctionOfTheSeed) {
  const MemprofSimOptions o{.lambda = 0.01, .blocks = 5000, .seed = 7, .survival = 0.5};
  auto a = RunMemprofSimWorkload(o);
  auto b = RunMemprofSimWorkload(o);
  MemprofSimOptions other = o;
  other.seed = 8;
  auto d = RunMemprofSimWorkload(other);
  ASSERT_TRUE(a.ok() && b.ok() && d.ok());
  EXPECT_EQ(a->minor_words, b->minor_words);
  EXPECT_EQ(a->major_words, b->major_words);
  EXPECT_EQ(a->samples_minor, b->samples_minor);
  EXPECT_EQ(a->samples_major, b->samples_major);
  EXPECT_EQ(a->alloc_major, b->alloc_major);
  EXPECT_NE(a->minor_words + a->major_words, d->minor_words + d->major_words);
}

TEST(MemprofSimWorkload, SurvivorsArePromoted) {
  // Every block kept until the end: minor survivors are promoted at the collections.
  auto c = RunMemprofSimWorkload({.lambda = 0.5, .blocks = 20000, .survival = 1.0});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_GT(c->promote, 0u);
  EXPECT_TRUE(c->balanced());
}

TEST(MemprofSimWorkload, RefusesRatesAndSurvivalsOutsideTheUnitInterval) {
  auto lambda = RunMemprofSimWorkload({.lambda = 1.5});
  ASSERT_FALSE(lambda.ok());
  EXPECT_EQ(lambda.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(lambda.status().ToString().find("lambda"), std::string::npos);
  auto survival = RunMemprofSimWorkload({.survival = -0.1});
  ASSERT_FALSE(survival.ok());
  EXPECT_EQ(survival.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(survival.status().ToString().find("survival"), std::string::npos);
}

TEST(MemprofSimWorkload, ANegativeCallstackSizeIsTheProfilesError) {
  auto c = RunMemprofSimWorkload({.callstack_size = -1, .blocks = 10});
  EXPECT_FALSE(c.ok());
}

}  // namespace
}  // namespace mpo::sim
