#include "bench/sampler/ocaml_style_batch.h"

#include "core/sampler/internal/textbook_log_approx.h"

namespace mpo::bench {

OCamlStyleSampler::OCamlStyleSampler(std::uint64_t seed, double one_log1m_lambda)
    : lanes(sampler::XoshiroLanes::Seeded(seed)), k(static_cast<float>(one_log1m_lambda)) {}

void OCamlStyleSampler::Batch() {
  std::uint32_t a[sampler::kLanes];
  float b[sampler::kLanes];
  lanes.Step(a);
  for (int i = 0; i < sampler::kLanes; ++i)
    b[i] = 1 + sampler::internal::TextbookLogApprox(a[i]) * k;
  for (int i = 0; i < sampler::kLanes; ++i) {
    const double f = b[i];
    buffer[i] = f >= 4611686018427387904.0 ? sampler::kMaxLong : static_cast<std::uint64_t>(f);
  }
  pos = 0;
}

}  // namespace mpo::bench
