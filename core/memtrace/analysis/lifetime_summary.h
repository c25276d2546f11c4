// Count, exact mean and max, and median and p90 of a stream of int64 values (block
// lifetimes, us) in memory that does not grow with the stream's length.
//
// The first kExactValues values are kept as they are, so a summary of up to that many
// values is exact (the median is sorted[n / 2], the p90 sorted[n * 9 / 10]). Past that,
// every value is counted in a fixed log-bucketed histogram (2 * 58 * 128 buckets, about
// 116 KiB): magnitudes below 256 have a bucket each; above, each power of two
// [2^e, 2^(e+1)) is split into 128 buckets of width 2^(e-7). A quantile is then the
// middle of the bucket holding the exact order statistic (clamped to [min, max]), so
// |reported - exact| <= |exact| / 256 (0.4%), and 0 error below 256. Count, mean
// (from an exact 128-bit sum) and max stay exact. Deterministic: the result depends
// only on the multiset of values, not on their order (beyond kExactValues it no longer
// depends on which values came first either).
#pragma once

#include <cstdint>
#include <vector>

namespace mpo::memtrace::analysis {

struct LifetimeFigures {
  std::uint64_t count = 0;
  double mean = 0;
  std::int64_t median = 0, p90 = 0, max = 0;
  bool exact = true;  // false: median and p90 are within kQuantileRelativeError
};

// The histogram's bound on |reported - exact| / |exact| for median and p90.
inline constexpr double kQuantileRelativeError = 1.0 / 256;

class LifetimeSummary {
 public:
  static constexpr std::size_t kExactValues = std::size_t{1} << 16;

  void Add(std::int64_t value);
  // The figures of the values added so far (all zero, exact, when none was).
  LifetimeFigures Figures() const;

 private:
  void SpillToHistogram();
  void Count(std::int64_t value);
  std::int64_t Quantile(std::uint64_t rank) const;

  std::uint64_t count_ = 0;
  __int128 sum_ = 0;  // |sum| < 2^63 * 2^64: no overflow
  std::int64_t min_ = 0, max_ = 0;
  std::vector<std::int64_t> exact_;    // while count_ <= kExactValues
  std::vector<std::uint64_t> counts_;  // the histogram, once spilled (then exact_ is empty)
};

}  // namespace mpo::memtrace::analysis
