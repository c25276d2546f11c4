// The fuzzer's only source of randomness: a SplitMix64 stream seeded from (run seed,
// mutant index), so that a mutant is a pure function of the two and any one of them can
// be rebuilt without replaying the others. No global state: each mutant owns its stream.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/base/splitmix64.h"

namespace mpo::corpus::fuzz {

class FuzzRng {
 public:
  // Mixing the index before adding it keeps the streams of neighbouring indices apart.
  FuzzRng(std::uint64_t seed, std::uint64_t index)
      : state_(SplitMix64Mix(seed) ^ SplitMix64Mix(index * kGoldenGamma + 1)) {}

  std::uint64_t Next() { return SplitMix64Next(&state_); }
  // Uniform in [0, n); 0 when n is 0 (callers check emptiness first, this keeps it safe).
  std::uint64_t Below(std::uint64_t n) { return n == 0 ? 0 : Next() % n; }
  std::size_t Index(std::size_t n) { return static_cast<std::size_t>(Below(n)); }
  // Uniform in [lo, hi]; lo when hi < lo.
  std::uint64_t Between(std::uint64_t lo, std::uint64_t hi) {
    return hi < lo ? lo : lo + Below(hi - lo + 1);
  }
  // True with probability num/den.
  bool Chance(std::uint64_t num, std::uint64_t den) { return Below(den) < num; }

 private:
  std::uint64_t state_;
};

}  // namespace mpo::corpus::fuzz
