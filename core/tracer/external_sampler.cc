#include "core/tracer/external_sampler.h"

#include <bit>
#include <cmath>
#include <limits>

#include "core/base/splitmix64.h"

namespace mpo::tracer {

double LogApprox(std::uint32_t n) {
  // (2n + 1) as a double: its exponent gives the integer part of log2, a cubic in the
  // mantissa the rest; the constant re-centres the result on log(x / 2^31).
  const double x2 = static_cast<double>(static_cast<std::int32_t>((n << 1) + 1));
  const std::uint64_t f = std::bit_cast<std::uint64_t>(x2);
  const double exponent =
      static_cast<double>(static_cast<std::int64_t>(f >> 52) + (127 - 1023 + 1));
  const double x = std::bit_cast<double>((f & 0xfffffffffffffULL) | 0x3ff0000000000000ULL);
  return x * (2.104659476859 + x * (-0.720478916626 + x * 0.107132064797)) +
         (-111.701724334061 + 0.6931471805 * exponent);
}

ExternalSampler::ExternalSampler(double sampling_rate, std::uint64_t seed)
    : state_(seed),
      one_log1m_lambda_(sampling_rate >= 1.0 ? 0.0 : 1.0 / std::log1p(-sampling_rate)),
      bytes_before_sample_(0) {
  // memtrace never samples externally at rate 0: its countdown stays at max_int.
  bytes_before_sample_ =
      sampling_rate > 0.0 ? DrawBytes() : std::numeric_limits<std::int64_t>::max();
}

std::uint32_t ExternalSampler::NextBits30() {
  return static_cast<std::uint32_t>(SplitMix64Next(&state_) >> 34);
}

std::uint64_t ExternalSampler::Draw() {
  const double scaled = LogApprox(NextBits30()) * one_log1m_lambda_;
  // Far beyond any realistic gap; keeps the conversion defined for tiny rates.
  constexpr double kMaxDraw = 4.0e18;
  return 1 + static_cast<std::uint64_t>(scaled < kMaxDraw ? scaled : kMaxDraw);
}

std::uint64_t ExternalSampler::SamplesFor(std::uint64_t bytes) {
  if (bytes_before_sample_ == std::numeric_limits<std::int64_t>::max()) return 0;
  constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 62;
  bytes_before_sample_ -= static_cast<std::int64_t>(bytes < kMaxBytes ? bytes : kMaxBytes);
  std::uint64_t samples = 0;
  while (bytes_before_sample_ <= 0) {
    bytes_before_sample_ += DrawBytes();
    ++samples;
  }
  return samples;
}

}  // namespace mpo::tracer
