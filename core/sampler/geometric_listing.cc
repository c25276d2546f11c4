#include "core/sampler/geometric_listing.h"

namespace mpo::sampler {

GeometricListing::GeometricListing(std::uint64_t seed, const SamplingRate& rate, GeometricView view)
    : sampler_(seed) {
  sampler_.Start(rate);
  // Start stored its draw minus one as the surplus; the draw itself is not kept.
  if (view == GeometricView::kFromSeed && !rate.never_samples()) {
    start_draw_ = sampler_.surplus() + 1;
  }
}

std::uint64_t GeometricListing::Next() {
  if (start_draw_) {
    const std::uint64_t v = *start_draw_;
    start_draw_.reset();
    return v;
  }
  return sampler_.Geometric();
}

}  // namespace mpo::sampler
