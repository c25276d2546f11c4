// SplitMix64 (Vigna's public-domain generator) and its golden-ratio constant: the one
// copy every seeded choice and every multiplicative hash in the project uses.
//
//   std::uint64_t state = seed;
//   std::uint64_t r = SplitMix64Next(&state);  // advances state by the gamma, then mixes
//
// OCaml's xoshiro_init seeds memprof's lanes with exactly this generator, so its outputs
// are pinned (splitmix64_test.cc); changing them changes every sampler draw.
#pragma once

#include <cstdint>

namespace mpo {

// 2^64 / golden ratio, odd: SplitMix64's increment, and the multiplier of the project's
// multiplicative hashes (k * gamma spreads consecutive keys over the high bits).
inline constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

// SplitMix64's output function: a bijective avalanche mix of one word.
constexpr std::uint64_t SplitMix64Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// One generator step: adds the gamma to *state and returns the mix of the new state.
constexpr std::uint64_t SplitMix64Next(std::uint64_t* state) {
  *state += kGoldenGamma;
  return SplitMix64Mix(*state);
}

}  // namespace mpo
