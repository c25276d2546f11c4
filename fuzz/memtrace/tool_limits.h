// Budgets for the tool-layer fuzzers: small enough that one input costs milliseconds,
// large enough that the seeds (real traces) decode in full.
#pragma once

#include "core/memtrace/limits.h"

namespace mpo::fuzz {

inline memtrace::Limits FuzzLimits() {
  memtrace::Limits l;
  l.max_frames = 1 << 20;
  l.max_held_frames = 1 << 18;
  l.max_location_bytes = 1 << 22;
  l.max_output_bytes = 1 << 24;
  return l;
}

}  // namespace mpo::fuzz
