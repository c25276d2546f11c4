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

TEST(MemprofSimWorkload, WorkAboveTheBudgetIsRefusedNamingBlocks) {
  EXPECT_TRUE(CheckMemprofSimWork({.lambda = 0.0, .blocks = 1000}, 1000).ok());
  // 1000 x (1 + 16 x 0.5) = 9000.
  EXPECT_TRUE(CheckMemprofSimWork({.lambda = 0.5, .blocks = 1000}, 9000).ok());
  const Status s = CheckMemprofSimWork({.lambda = 0.5, .blocks = 1000}, 8999);
  EXPECT_EQ(s.code(), ErrorCode::kResourceExhausted);
  EXPECT_EQ(s.field(), "--blocks");
  EXPECT_NE(s.message().find(" is 9e+03 against a budget of 8999;"), std::string::npos)
      << s.ToString();
  EXPECT_EQ(CheckMemprofSimWork({.blocks = ~std::uint64_t{0}}, kMemprofSimDefaultMaxBlocks).code(),
            ErrorCode::kResourceExhausted);
}

TEST(MemprofSimWorkload, JsonHoldsEveryCount) {
  MemprofSimCounts c;
  c.alloc_minor = 1;
  c.alloc_major = 2;
  c.promote = 3;
  c.dealloc_minor = 1;
  c.dealloc_major = 2;
  c.samples_minor = 5;
  c.samples_major = 6;
  c.samples_freed = 11;
  c.minor_words = 7;
  c.major_words = 8;
  c.minor_collections = 9;
  c.major_collections = 10;
  EXPECT_EQ(MemprofSimJson({.lambda = 0.1, .blocks = 12, .seed = 13}, c),
            "{\"lambda\":0.1,\"blocks\":12,\"seed\":13,"
            "\"words\":{\"minor\":7,\"major\":8},\"samples\":{\"minor\":5,\"major\":6},"
            "\"callbacks\":{\"alloc_minor\":1,\"alloc_major\":2,\"promote\":3,"
            "\"dealloc_minor\":1,\"dealloc_major\":2},"
            "\"collections\":{\"minor\":9,\"major\":10},\"balanced\":true}\n");
  c.samples_freed = 10;
  EXPECT_TRUE(MemprofSimJson({}, c).ends_with(",\"balanced\":false}\n"));
}

}  // namespace
}  // namespace mpo::sim
