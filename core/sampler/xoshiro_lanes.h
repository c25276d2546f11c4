// 64 independent xoshiro128+ generators ("lanes"), stored column-wise as memprof.c does
// (state word w of lane i is words[w][i]) so that one step of all lanes vectorises.
//
// Seeding mirrors xoshiro_init: a SplitMix64 generator started at the seed (OCaml uses
// the domain id) yields, per lane in order, two 64-bit outputs; the first supplies state
// words 0 (low half) and 1 (high half), the second words 2 and 3.
#pragma once

#include <array>
#include <cstdint>

namespace mpo::sampler {

inline constexpr int kLanes = 64;

struct XoshiroLanes {
  alignas(64) std::array<std::array<std::uint32_t, kLanes>, 4> words;

  static XoshiroLanes Seeded(std::uint64_t seed);

  // Advances every lane one step and writes each lane's output (xoshiro128+: s0 + s3).
  // Header-inline: it is the first half of the sampler's hot path.
  void Step(std::uint32_t* out) {
    for (int i = 0; i < kLanes; ++i) {
      const std::uint32_t s0 = words[0][i], s1 = words[1][i];
      std::uint32_t s2 = words[2][i], s3 = words[3][i];
      out[i] = s0 + s3;
      const std::uint32_t t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      words[1][i] = s1 ^ s2;
      words[0][i] = s0 ^ s3;
      s2 ^= t;
      words[2][i] = s2;
      words[3][i] = (s3 << 11) | (s3 >> 21);
    }
  }

  // Advances every lane by `steps` steps in O(log steps) time, exactly as `steps` calls
  // of Step would (xoshiro's state transition is linear over GF(2)).
  void Advance(std::uint64_t steps);

  friend bool operator==(const XoshiroLanes&, const XoshiroLanes&) = default;
};

}  // namespace mpo::sampler
