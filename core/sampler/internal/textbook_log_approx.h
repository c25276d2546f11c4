// OCaml's log_approx and geometric draw written the textbook way, with nothing forcing
// the rounding of products. Header-only on purpose: it is compiled with each includer's
// flags. The benchmark anchor builds it with OCaml's flags (where it is exact), and
// naive_contraction_test builds it with FMA contraction (where it is not) to prove that the
// hostile-flags test can fail. Never use it for real draws.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/sampler/geometric_batch.h"

namespace mpo::sampler::internal {

inline float TextbookLogApprox(std::uint32_t y) {
  float f = y + 0.5f;
  std::int32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  const float e = static_cast<float>(bits >> 23);
  bits = (bits & 0x7FFFFF) | 0x3F800000;
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return -111.70172433407f + x * (2.104659476859f + x * (-0.720478916626f + x * 0.107132064797f)) +
         0.6931471805f * e;
}

inline std::uint64_t TextbookGeometric(std::uint32_t u, float one_log1m_lambda) {
  const double f = 1 + TextbookLogApprox(u) * one_log1m_lambda;
  return f >= 4611686018427387904.0 ? kMaxLong : static_cast<std::uint64_t>(f);
}

}  // namespace mpo::sampler::internal
