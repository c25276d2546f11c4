// The sampling rate λ of a memprof profile and the constant the sampler derives from it.
//
// Mirrors the checks and the precomputation of caml_memprof_start (runtime/memprof.c):
// λ must lie in [0, 1] (NaN rejected); the sampler uses 1/log1p(-λ), which is 0 for
// λ = 1 (every word sampled) and -infinity ("never sample") whenever the division does
// not give a finite non-positive number: λ = 0, λ so small that log1p(-λ) underflows, or
// a log1p that misbehaves.
#pragma once

#include "core/base/status.h"

namespace mpo::sampler {

class SamplingRate {
 public:
  // kInvalidArgument ("Gc.Memprof.start") for λ outside [0, 1] or NaN.
  static Result<SamplingRate> FromLambda(double lambda);

  // The user's λ, kept for inspection even when the sampler never samples.
  double lambda() const { return lambda_; }
  // 1/log1p(-λ): 0 for λ = 1, -infinity for "never sample", otherwise negative.
  double one_log1m_lambda() const { return one_log1m_lambda_; }
  // True when no word is ever sampled (OCaml's Min_lambda).
  bool never_samples() const;

 private:
  SamplingRate(double lambda, double one_log1m_lambda)
      : lambda_(lambda), one_log1m_lambda_(one_log1m_lambda) {}
  double lambda_;
  double one_log1m_lambda_;
};

}  // namespace mpo::sampler
