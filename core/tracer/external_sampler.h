// memtrace's sampler for external allocations (Geometric_sampler plus the byte counter of
// Memprof_tracer.ext_alloc): a geometric draw per sample from a 30-bit uniform through
// memprof.c's polynomial log approximation, scaled by 1/log1p(-λ).
//
//   ExternalSampler s(/*sampling_rate=*/1e-4, /*seed=*/1);
//   std::uint64_t n = s.SamplesFor(bytes);  // 0: not sampled; else the alloc's nsamples
//
// Difference from memtrace, on purpose: the 30-bit uniforms come from a seeded SplitMix64
// (memtrace uses OCaml's Random.State seeded with four fixed words), so that traces are
// reproducible from `seed` without reimplementing OCaml's Random. The log approximation,
// the scaling and the byte bookkeeping are memtrace's.
// Threading: one thread at a time.
#pragma once

#include <cstdint>

namespace mpo::tracer {

// memprof.c's log_approx as memtrace ports it: about log((2n+1) / 2^31) for a 30-bit n.
double LogApprox(std::uint32_t n);

class ExternalSampler {
 public:
  ExternalSampler(double sampling_rate, std::uint64_t seed);

  // Geometric_sampler.draw: 1 + floor(LogApprox(u) / log1p(-λ)); always 1 when λ >= 1.
  std::uint64_t Draw();
  // The samples of an external allocation of `bytes` (memtrace's ext_alloc): the byte
  // countdown is decremented and, each time it reaches zero or below, refilled with one
  // draw (in words, times 8 bytes) and one sample counted.
  std::uint64_t SamplesFor(std::uint64_t bytes);
  std::int64_t bytes_before_sample() const { return bytes_before_sample_; }

 private:
  std::uint32_t NextBits30();
  std::int64_t DrawBytes() { return static_cast<std::int64_t>(Draw()) * 8; }

  std::uint64_t state_;
  double one_log1m_lambda_;
  std::int64_t bytes_before_sample_;
};

}  // namespace mpo::tracer
