#include "core/memprof/profile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/memprof/engine.h"
#include "core/sync/std_platform.h"

namespace mpo::memprof {
namespace {

using P = sync::StdPlatform;

TEST(ProfileParamsTest, RejectsOutOfRangeWithOcamlMessage) {
  for (double bad : {-0.1, 1.5, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    auto r = ProfileParams::Make(bad, 4);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(r.status().message(), "Gc.Memprof.start");
  }
  auto neg = ProfileParams::Make(0.5, -1);
  ASSERT_FALSE(neg.ok());
  EXPECT_EQ(neg.status().message(), "Gc.Memprof.start");
  EXPECT_TRUE(ProfileParams::Make(0.0, 0).ok());
  EXPECT_TRUE(ProfileParams::Make(1.0, 0).ok());
}

TEST(ProfileTest, PrecomputesOneOverLog1mLambda) {
  auto params = ProfileParams::Make(0.25, 3);
  ASSERT_TRUE(params.ok());
  Profile<P> profile(*params, Tracker{}, 1);
  EXPECT_DOUBLE_EQ(profile.rate().one_log1m_lambda(), 1.0 / std::log1p(-0.25));
  EXPECT_EQ(profile.callstack_size(), 3u);
  EXPECT_TRUE(profile.sampling());
}

TEST(ProfileTest, DiscardRules) {
  auto params = ProfileParams::Make(0.5, 0);
  ASSERT_TRUE(params.ok());
  auto profile = std::make_shared<Profile<P>>(*params, Tracker{}, 1);
  Status s = Discard<P>(profile);
  EXPECT_EQ(s.message(), "Gc.Memprof.discard: profile not stopped.");
  EXPECT_EQ(s.code(), ErrorCode::kFailedPrecondition);
  ASSERT_TRUE(profile->Transition(ProfileStatusValue::kSampling, ProfileStatusValue::kStopped));
  EXPECT_FALSE(profile->Transition(ProfileStatusValue::kSampling, ProfileStatusValue::kStopped));
  EXPECT_TRUE(Discard<P>(profile).ok());
  EXPECT_EQ(Discard<P>(profile).message(), "Gc.Memprof.discard: profile already discarded.");
}

}  // namespace
}  // namespace mpo::memprof
