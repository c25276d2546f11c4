#include "core/corpus/fuzz/minimize.h"

#include <algorithm>

#include "core/corpus/fuzz/packet_walk.h"

namespace mpo::corpus::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

class Minimizer {
 public:
  Minimizer(std::span<const std::uint8_t> input, const KeepsDivergence& keeps, std::size_t max)
      : current_(input.begin(), input.end()), keeps_(keeps), max_(max) {}

  bool Exhausted() const { return tests_ >= max_; }

  // Adopts `candidate` if it keeps the divergence.
  bool Try(Bytes candidate) {
    if (Exhausted()) return false;
    ++tests_;
    if (!keeps_(candidate)) return false;
    current_ = std::move(candidate);
    return true;
  }

  // Pass 1: positions where current_ differs from origin, reverted in ever smaller groups.
  void UndoMutation(std::span<const std::uint8_t> origin) {
    std::vector<std::size_t> diff;
    for (std::size_t i = 0; i < std::min(origin.size(), current_.size()); ++i)
      if (current_[i] != origin[i]) diff.push_back(i);
    for (std::size_t group = std::max<std::size_t>(diff.size() / 2, 1);
         !diff.empty() && !Exhausted(); group /= 2) {
      for (std::size_t start = 0; start < diff.size() && !Exhausted();) {
        const std::size_t end = std::min(start + group, diff.size());
        Bytes candidate = current_;
        for (std::size_t k = start; k < end; ++k) candidate[diff[k]] = origin[diff[k]];
        if (Try(std::move(candidate))) {
          diff.erase(diff.begin() + static_cast<std::ptrdiff_t>(start),
                     diff.begin() + static_cast<std::ptrdiff_t>(end));
        } else {
          start = end;
        }
      }
      if (group == 1) break;
    }
  }

  // Pass 2: remove packets, then chunks.
  void Cut() {
    for (bool progress = true; progress && !Exhausted();) {
      progress = false;
      const auto packets = WalkPackets(current_);
      for (auto p = packets.rbegin(); p != packets.rend() && !Exhausted(); ++p) {
        Bytes candidate = current_;
        candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(p->begin),
                        candidate.begin() + static_cast<std::ptrdiff_t>(p->end));
        if (Try(std::move(candidate))) {
          progress = true;
          break;  // the walk is stale: start again
        }
      }
    }
    for (std::size_t chunk = std::max<std::size_t>(current_.size() / 2, 1); !Exhausted();
         chunk /= 2) {
      for (std::size_t start = 0; start < current_.size() && !Exhausted();) {
        const std::size_t end = std::min(start + chunk, current_.size());
        Bytes candidate = current_;
        candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(start),
                        candidate.begin() + static_cast<std::ptrdiff_t>(end));
        if (!Try(std::move(candidate))) start = end;
      }
      if (chunk == 1) break;
    }
  }

  MinimizeResult Result() { return {std::move(current_), tests_}; }

 private:
  Bytes current_;
  const KeepsDivergence& keeps_;
  std::size_t max_, tests_ = 0;
};

}  // namespace

MinimizeResult Minimize(std::span<const std::uint8_t> input, std::span<const std::uint8_t> origin,
                        FuzzFormat format, const KeepsDivergence& keeps, std::size_t max_tests) {
  Minimizer m(input, keeps, max_tests);
  m.UndoMutation(origin);
  if (format == FuzzFormat::kMemtrace) m.Cut();
  return m.Result();
}

}  // namespace mpo::corpus::fuzz
