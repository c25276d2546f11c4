#include "core/memtrace/analysis/lifetime_summary.h"

#include <algorithm>
#include <bit>

namespace mpo::memtrace::analysis {
namespace {

// Sub-buckets per power of two: 2^kSubBits. Magnitudes below 2 * kSub are exact.
constexpr int kSubBits = 7;
constexpr std::uint64_t kSub = std::uint64_t{1} << kSubBits;
// Per sign: kSub exact buckets for [0, kSub), then kSub per exponent e in [kSubBits, 63].
constexpr std::size_t kPerSign = kSub * (64 - kSubBits + 1);
// Index layout, ascending in value: negative magnitudes from the largest down (indices
// [0, kPerSign)), then non-negative values from 0 up ([kPerSign, 2 * kPerSign)).
constexpr std::size_t kBuckets = 2 * kPerSign;

std::size_t MagnitudeIndex(std::uint64_t m) {
  if (m < kSub) return static_cast<std::size_t>(m);
  const int e = std::bit_width(m) - 1;  // m in [2^e, 2^(e+1)), e >= kSubBits
  const std::uint64_t sub = (m >> (e - kSubBits)) - kSub;
  return static_cast<std::size_t>(kSub + static_cast<std::uint64_t>(e - kSubBits) * kSub + sub);
}

// The middle of the bucket: its low end plus half its width (rounded down).
std::uint64_t MagnitudeMiddle(std::size_t index) {
  if (index < kSub) return index;
  const std::size_t e = (index - kSub) / kSub + kSubBits;
  const std::uint64_t sub = (index - kSub) % kSub;
  const int shift = static_cast<int>(e) - kSubBits;
  const std::uint64_t low = (kSub + sub) << shift;
  return low + ((std::uint64_t{1} << shift) >> 1);
}

std::size_t IndexOf(std::int64_t v) {
  if (v >= 0) return kPerSign + MagnitudeIndex(static_cast<std::uint64_t>(v));
  return kPerSign - 1 - MagnitudeIndex(0 - static_cast<std::uint64_t>(v));
}

// Bucket middles of negative magnitudes can pass 2^63; the caller clamps to [min, max].
__int128 MiddleOf(std::size_t index) {
  if (index >= kPerSign) return static_cast<__int128>(MagnitudeMiddle(index - kPerSign));
  return -static_cast<__int128>(MagnitudeMiddle(kPerSign - 1 - index));
}

// floor(n * 9 / 10) without overflow for any n.
std::uint64_t P90Rank(std::uint64_t n) { return n / 10 * 9 + n % 10 * 9 / 10; }

}  // namespace

void LifetimeSummary::Add(std::int64_t value) {
  min_ = count_ == 0 ? value : std::min(min_, value);
  max_ = count_ == 0 ? value : std::max(max_, value);
  ++count_;
  sum_ += value;
  if (counts_.empty() && exact_.size() < kExactValues) {
    exact_.push_back(value);
    return;
  }
  if (counts_.empty()) SpillToHistogram();
  Count(value);
}

void LifetimeSummary::SpillToHistogram() {
  counts_.assign(kBuckets, 0);
  for (std::int64_t v : exact_) Count(v);
  exact_ = {};  // give the memory back
}

void LifetimeSummary::Count(std::int64_t value) { ++counts_[IndexOf(value)]; }

std::int64_t LifetimeSummary::Quantile(std::uint64_t rank) const {
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen > rank)
      return static_cast<std::int64_t>(std::clamp<__int128>(MiddleOf(i), min_, max_));
  }
  return max_;  // not reached: rank < count_
}

LifetimeFigures LifetimeSummary::Figures() const {
  LifetimeFigures f;
  if (count_ == 0) return f;
  f.count = count_;
  f.mean = static_cast<double>(sum_) / static_cast<double>(count_);
  f.max = max_;
  if (counts_.empty()) {
    std::vector<std::int64_t> sorted = exact_;
    std::sort(sorted.begin(), sorted.end());
    f.median = sorted[sorted.size() / 2];
    f.p90 = sorted[P90Rank(sorted.size())];
    return f;
  }
  f.exact = false;
  f.median = Quantile(count_ / 2);
  f.p90 = Quantile(P90Rank(count_));
  return f;
}

}  // namespace mpo::memtrace::analysis
