// Drives the sampler API with arbitrary λ, seeds and lengths. Asserts the documented
// contract (draws in [1, Max_long], binomial <= length, invalid λ rejected with a typed
// error, λ = 1 exact) and that nothing is slow: the expected number of geometric draws of
// a binomial is length * λ, so lengths are bounded by a work budget unless λ = 1 (answered
// in O(log length)) or λ is so small that draws are huge.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/sampler/sampler.h"

namespace {

struct Input {
  const std::uint8_t* data;
  std::size_t size;
  template <class T>
  T Take() {
    T v{};
    const std::size_t n = size < sizeof v ? size : sizeof v;
    std::memcpy(&v, data, n);
    data += n;
    size -= n;
    return v;
  }
};

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mpo::sampler;
  Input in{data, size};
  const double lambda = in.Take<double>();
  const std::uint64_t seed = in.Take<std::uint64_t>();

  auto rate = SamplingRate::FromLambda(lambda);
  if (!(lambda >= 0.0 && lambda <= 1.0)) {
    Check(!rate.ok() && rate.status().code() == mpo::ErrorCode::kInvalidArgument);
    return 0;
  }
  Check(rate.ok());
  Sampler s(seed);
  s.Start(*rate);
  const bool lambda_one = lambda == 1.0;
  // Budget of expected geometric draws per input, to keep each run fast.
  double budget = 1 << 12;
  while (in.size > 0) {
    const std::uint8_t op = in.Take<std::uint8_t>();
    if (op % 4 == 0) {
      const std::uint64_t g = s.Geometric();
      Check(g >= 1 && g <= kMaxLong);
      if (lambda_one) Check(g == 1);
      continue;
    }
    if (op % 4 == 1) {
      s.SkipDraws(in.Take<std::uint16_t>());
      continue;
    }
    std::uint64_t len = in.Take<std::uint64_t>();
    const double cost = static_cast<double>(len) * lambda;
    if (!lambda_one && cost > budget) len = static_cast<std::uint64_t>(budget / (lambda + 1e-300));
    if (!lambda_one) budget -= static_cast<double>(len) * lambda;
    auto hits = s.CheckedBinomial(len);
    if (len >= kMaxLong) {
      Check(!hits.ok() && hits.status().code() == mpo::ErrorCode::kInvalidArgument);
      continue;
    }
    Check(hits.ok() && *hits <= len);
    if (lambda_one) Check(*hits == len);  // surplus is 0 at λ = 1 and stays 0
    if (rate->never_samples()) Check(*hits == 0);
    if (budget <= 0) break;
  }
  return 0;
}
