#include "bench/sampler/ocaml_style_batch.h"

#include <cstring>

namespace mpo::bench {

OCamlStyleSampler::OCamlStyleSampler(std::uint64_t seed, double one_log1m_lambda)
    : lanes(sampler::XoshiroLanes::Seeded(seed)), k(static_cast<float>(one_log1m_lambda)) {}

namespace {

float LogApproxPlain(std::uint32_t y) {
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

}  // namespace

void OCamlStyleSampler::Batch() {
  std::uint32_t a[sampler::kLanes];
  float b[sampler::kLanes];
  lanes.Step(a);
  for (int i = 0; i < sampler::kLanes; ++i) b[i] = 1 + LogApproxPlain(a[i]) * k;
  for (int i = 0; i < sampler::kLanes; ++i) {
    const double f = b[i];
    buffer[i] = f >= 4611686018427387904.0 ? sampler::kMaxLong : static_cast<std::uint64_t>(f);
  }
  pos = 0;
}

}  // namespace mpo::bench
