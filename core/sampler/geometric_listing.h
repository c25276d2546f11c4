// Geometric draws of a freshly seeded, freshly started sampler, listed in one of the two
// views the project prints:
//
//   kFromSeed   as the published vectors (testdata/sampler/geometric.csv) list them:
//               index 0 is the draw rand_init consumes to set the surplus (surplus + 1),
//               index 1 onwards what rand_geom returns afterwards.
//   kAsProfile  as a running profile sees them: only the draws after Start, i.e. the
//               kFromSeed listing without its index 0 (corpus decode's sampler cases).
//
// A rate that never samples draws nothing at Start, so both views list kMaxLong forever.
#pragma once

#include <cstdint>
#include <optional>

#include "core/sampler/sampler.h"
#include "core/sampler/sampling_rate.h"

namespace mpo::sampler {

enum class GeometricView { kFromSeed, kAsProfile };

class GeometricListing {
 public:
  GeometricListing(std::uint64_t seed, const SamplingRate& rate, GeometricView view);

  // The next draw of the listing; unbounded, as the generator is.
  std::uint64_t Next();

 private:
  Sampler sampler_;
  std::optional<std::uint64_t> start_draw_;  // kFromSeed: Start's draw, until listed
};

}  // namespace mpo::sampler
