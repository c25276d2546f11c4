// One domain's memprof random-number state: geometric and binomial draws, bit for bit
// as OCaml 5's runtime/memprof.c produces them (xoshiro_init, rand_batch, rand_geom,
// rand_init, rand_binom).
//
//   Sampler s(domain_id);                    // xoshiro_init(seed = domain id)
//   s.Start(*SamplingRate::FromLambda(1e-4)); // rand_init: new batch, surplus drawn
//   std::uint64_t gap = s.Geometric();       // words until the next sampled word
//   std::uint64_t hits = s.Binomial(wosize + 1);  // samples in a block of that many words
//
// Draws come from a buffer of 64 refilled in one vectorised batch (geometric_batch.h).
// The lanes persist across Start calls, as the domain's state does in OCaml; Start
// discards the rest of the batch. Thread-compatible: a Sampler belongs to one domain and
// needs outside synchronisation to be shared.
#pragma once

#include <array>
#include <cstdint>

#include "core/base/status.h"
#include "core/sampler/geometric_batch.h"
#include "core/sampler/sampling_rate.h"
#include "core/sampler/xoshiro_lanes.h"

namespace mpo::sampler {

class Sampler {
 public:
  // Seeds the 64 lanes from `seed` (OCaml: the domain id). The sampler never samples
  // until Start is called.
  explicit Sampler(std::uint64_t seed);

  // rand_init: adopts `rate`, discards the current batch and, unless the rate never
  // samples, sets the binomial surplus to one geometric draw minus one.
  void Start(const SamplingRate& rate);

  // rand_geom: a geometric draw in [1, kMaxLong] (kMaxLong when the rate never samples).
  std::uint64_t Geometric() {
    if (pos_ == kLanes) Refill();
    return buffer_[pos_++];
  }

  // rand_binom: how many of `len` consecutive words are sampled, carrying the surplus
  // (the words to skip before the next sample) from one call to the next. Returns 0
  // and draws nothing when the rate never samples. Costs O(len * λ) draws, except for
  // λ = 1, which is answered in O(log len) with the same resulting state.
  // Precondition: len < kMaxLong (block sizes are far smaller); see CheckedBinomial.
  std::uint64_t Binomial(std::uint64_t len);

  // Binomial with the precondition checked: kInvalidArgument when len >= kMaxLong.
  Result<std::uint64_t> CheckedBinomial(std::uint64_t len);

  // Discards `n` draws exactly as n calls of Geometric would, in O(log n) time.
  void SkipDraws(std::uint64_t n);

  const SamplingRate& rate() const { return rate_; }
  // OCaml's next_rand_geom: words still to skip before the next sampled word.
  std::uint64_t surplus() const { return next_rand_geom_; }
  const XoshiroLanes& lanes() const { return lanes_; }

 private:
  void Refill();

  XoshiroLanes lanes_;
  alignas(64) std::array<std::uint64_t, kLanes> buffer_{};
  int pos_ = kLanes;
  SamplingRate rate_;
  float one_log1m_lambda_f_;
  std::uint64_t next_rand_geom_ = 0;
};

}  // namespace mpo::sampler
