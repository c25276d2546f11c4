#include "core/base/splitmix64.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace mpo {
namespace {

// Outputs of Vigna's reference splitmix64.c for seed 1234567 (its published example).
TEST(SplitMix64Test, MatchesReferenceSequence) {
  constexpr std::array<std::uint64_t, 5> kWant = {6457827717110365317ull, 3203168211198807973ull,
                                                  9817491932198370423ull, 4593380528125082431ull,
                                                  16408922859458223821ull};
  std::uint64_t state = 1234567;
  for (std::uint64_t want : kWant) EXPECT_EQ(SplitMix64Next(&state), want);
  EXPECT_EQ(state, 1234567 + 5 * kGoldenGamma);
}

TEST(SplitMix64Test, SeedZeroAndMixAgree) {
  std::uint64_t state = 0;
  EXPECT_EQ(SplitMix64Next(&state), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(SplitMix64Next(&state), 0x6E789E6AA1B965F4ull);
  // Next is exactly "add the gamma, then mix": callers that hash with Mix rely on it.
  EXPECT_EQ(SplitMix64Mix(3 * kGoldenGamma), 0x06C45D188009454Full);
  static_assert(SplitMix64Mix(0) == 0, "the mix fixes zero");
}

}  // namespace
}  // namespace mpo
