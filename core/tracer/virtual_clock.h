// A deterministic clock for simulated runs: time moves only when the workload says how
// long something took, so two runs with the same seed produce the same bytes.
// Threading: one thread at a time.
#pragma once

#include <cstdint>

namespace mpo::tracer {

class VirtualClock {
 public:
  // `epoch_us`: microseconds since the Unix epoch at virtual time 0.
  explicit VirtualClock(std::int64_t epoch_us) : epoch_us_(epoch_us) {}
  void Advance(std::uint64_t ns) { ns_ += ns; }
  // Monotonic nanoseconds since the start (runtime events timestamps).
  std::uint64_t Nanoseconds() const { return ns_; }
  // Microseconds since the Unix epoch (memtrace timestamps).
  std::int64_t EpochMicroseconds() const {
    return epoch_us_ + static_cast<std::int64_t>(ns_ / 1000);
  }

 private:
  std::int64_t epoch_us_;
  std::uint64_t ns_ = 0;
};

}  // namespace mpo::tracer
