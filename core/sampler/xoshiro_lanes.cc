#include "core/sampler/xoshiro_lanes.h"

#include "core/base/splitmix64.h"

namespace mpo::sampler {

XoshiroLanes XoshiroLanes::Seeded(std::uint64_t seed) {
  XoshiroLanes lanes{};
  std::uint64_t state = seed;
  for (int i = 0; i < kLanes; ++i) {
    std::uint64_t t = SplitMix64Next(&state);
    lanes.words[0][i] = static_cast<std::uint32_t>(t);
    lanes.words[1][i] = static_cast<std::uint32_t>(t >> 32);
    t = SplitMix64Next(&state);
    lanes.words[2][i] = static_cast<std::uint32_t>(t);
    lanes.words[3][i] = static_cast<std::uint32_t>(t >> 32);
  }
  return lanes;
}

namespace {

// The 128-bit state of one lane as two 64-bit halves: bit 32*w + b is bit b of word w.
struct State128 {
  std::uint64_t lo = 0, hi = 0;
  bool Bit(int k) const { return ((k < 64 ? lo >> k : hi >> (k - 64)) & 1u) != 0; }
  void Xor(const State128& o) {
    lo ^= o.lo;
    hi ^= o.hi;
  }
};

State128 OneStep(State128 s) {
  std::uint32_t w0 = static_cast<std::uint32_t>(s.lo), w1 = static_cast<std::uint32_t>(s.lo >> 32);
  std::uint32_t w2 = static_cast<std::uint32_t>(s.hi), w3 = static_cast<std::uint32_t>(s.hi >> 32);
  const std::uint32_t t = w1 << 9;
  w2 ^= w0;
  w3 ^= w1;
  w1 ^= w2;
  w0 ^= w3;
  w2 ^= t;
  w3 = (w3 << 11) | (w3 >> 21);
  return State128{w0 | (std::uint64_t{w1} << 32), w2 | (std::uint64_t{w3} << 32)};
}

// A linear map on 128-bit states, stored as the images of the 128 basis vectors.
struct Matrix128 {
  std::array<State128, 128> column;

  State128 Apply(const State128& v) const {
    State128 r;
    for (int k = 0; k < 128; ++k)
      if (v.Bit(k)) r.Xor(column[k]);
    return r;
  }
  Matrix128 Then(const Matrix128& next) const {  // next ∘ this
    Matrix128 r;
    for (int k = 0; k < 128; ++k) r.column[k] = next.Apply(column[k]);
    return r;
  }
};

Matrix128 StepMatrix() {
  Matrix128 m;
  for (int k = 0; k < 128; ++k) {
    State128 e;
    if (k < 64)
      e.lo = std::uint64_t{1} << k;
    else
      e.hi = std::uint64_t{1} << (k - 64);
    m.column[k] = OneStep(e);
  }
  return m;
}

}  // namespace

// M^(2^k) for k = 0..63, computed once: Advance then costs one matrix application per
// set bit of `steps` and lane.
static const std::array<Matrix128, 64>& StepMatrixPowers() {
  static const auto* powers = [] {
    static std::array<Matrix128, 64> p;
    p[0] = StepMatrix();
    for (int k = 1; k < 64; ++k) p[k] = p[k - 1].Then(p[k - 1]);
    return &p;
  }();
  return *powers;
}

void XoshiroLanes::Advance(std::uint64_t steps) {
  // A matrix application costs about as much as a few dozen steps: short skips step.
  constexpr std::uint64_t kStepBelow = 64;
  if (steps < kStepBelow) {
    std::array<std::uint32_t, kLanes> discarded;
    for (std::uint64_t i = 0; i < steps; ++i) Step(discarded.data());
    return;
  }
  const auto& powers = StepMatrixPowers();
  for (int i = 0; i < kLanes; ++i) {
    State128 s{words[0][i] | (std::uint64_t{words[1][i]} << 32),
               words[2][i] | (std::uint64_t{words[3][i]} << 32)};
    for (int k = 0; k < 64; ++k)
      if ((steps >> k) & 1u) s = powers[k].Apply(s);
    words[0][i] = static_cast<std::uint32_t>(s.lo);
    words[1][i] = static_cast<std::uint32_t>(s.lo >> 32);
    words[2][i] = static_cast<std::uint32_t>(s.hi);
    words[3][i] = static_cast<std::uint32_t>(s.hi >> 32);
  }
}

}  // namespace mpo::sampler
