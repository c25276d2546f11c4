// The anchor for the sampler benchmark: the same draws computed the way OCaml's C code
// computes them (three separate loops over the 64 lanes: uniforms, logarithms, flooring),
// built with OCaml's own optimisation flags (-O2 -fno-strict-aliasing -fwrapv) and no
// hand vectorisation. Written for this project from the algorithm's description.
#pragma once

#include <cstdint>

#include "core/sampler/geometric_batch.h"
#include "core/sampler/xoshiro_lanes.h"

namespace mpo::bench {

struct OCamlStyleSampler {
  explicit OCamlStyleSampler(std::uint64_t seed, double one_log1m_lambda);
  std::uint64_t Geometric() {
    if (pos == sampler::kLanes) Batch();
    return buffer[pos++];
  }
  void Batch();

  sampler::XoshiroLanes lanes;
  float k;
  std::uint64_t buffer[sampler::kLanes];
  int pos = sampler::kLanes;
};

}  // namespace mpo::bench
