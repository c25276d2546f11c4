#include "core/sampler/sampler.h"

namespace mpo::sampler {

Sampler::Sampler(std::uint64_t seed)
    : lanes_(XoshiroLanes::Seeded(seed)),
      rate_(*SamplingRate::FromLambda(0.0)),
      one_log1m_lambda_f_(static_cast<float>(rate_.one_log1m_lambda())) {}

void Sampler::Start(const SamplingRate& rate) {
  rate_ = rate;
  // OCaml keeps the constant as a double and narrows it to float in rand_batch.
  one_log1m_lambda_f_ = static_cast<float>(rate.one_log1m_lambda());
  pos_ = kLanes;
  if (!rate_.never_samples()) {
    // The next word may itself be sampled (surplus 0) but draws are >= 1.
    next_rand_geom_ = Geometric() - 1;
  }
}

void Sampler::Refill() {
  GeometricBatch(lanes_, one_log1m_lambda_f_, buffer_.data());
  pos_ = 0;
}

std::uint64_t Sampler::Binomial(std::uint64_t len) {
  if (rate_.never_samples()) return 0;
  if (rate_.one_log1m_lambda() == 0.0) {
    // λ = 1: every draw is 1, so the loop below would count up one word at a time.
    const std::uint64_t hits = next_rand_geom_ < len ? len - next_rand_geom_ : 0;
    SkipDraws(hits);
    next_rand_geom_ += hits;
    next_rand_geom_ -= len;
    return hits;
  }
  std::uint64_t hits = 0;
  while (next_rand_geom_ < len) {
    next_rand_geom_ += Geometric();
    ++hits;
  }
  next_rand_geom_ -= len;
  return hits;
}

Result<std::uint64_t> Sampler::CheckedBinomial(std::uint64_t len) {
  if (len >= kMaxLong) {
    return Status(ErrorCode::kInvalidArgument, "block length must be below Max_long (2^62 - 1)")
        .WithField("length");
  }
  return Binomial(len);
}

void Sampler::SkipDraws(std::uint64_t n) {
  const std::uint64_t in_buffer = static_cast<std::uint64_t>(kLanes - pos_);
  if (n <= in_buffer) {
    pos_ += static_cast<int>(n);
    return;
  }
  n -= in_buffer;
  // Each refill steps every lane once; the last needed batch is generated for real.
  const std::uint64_t batches = (n + kLanes - 1) / kLanes;
  lanes_.Advance(batches - 1);
  Refill();
  pos_ = static_cast<int>(n - (batches - 1) * kLanes);
}

}  // namespace mpo::sampler
