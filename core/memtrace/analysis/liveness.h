// Liveness, as memtrace_viewer defines it: which blocks are live at a time T, and the
// peak of the live heap.
//
// A block is live at T (microseconds from the trace start) when it was allocated at or
// before T and not collected at or before T; a block never collected is live from its
// allocation to the end. Minor, major and external allocations all count; a promotion
// changes nothing (the block stays live, now in the major heap). Sizes are estimated
// bytes (EstimatedBytes: samples / sample_rate * word_size / 8). A collection of a block
// the trace never allocated is ignored.
//
// The live heap is the step function of time "estimated bytes of the blocks live at T":
// its value at T comes after every event at T. The peak is its maximum, and the first
// time it is reached; events are taken in file order (a v3 trace may file domains'
// events slightly out of time; the peak is then the largest live heap between two
// events of different times, in file order). No peak when the live heap is never above
// zero (no sampled allocation).
//
// "Live at the end" is live at the last event's time: never collected.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace mpo::memtrace::analysis {

// The time liveness is judged at: the end of the trace, the peak, or a time in
// microseconds from the trace start.
struct LiveAt {
  enum class Kind : std::uint8_t { kEnd, kPeak, kTime };
  Kind kind = Kind::kEnd;
  std::int64_t t_us = 0;  // kTime only
};

// "end", "peak" or a number of seconds in [0, 1e9] (finite, no trailing text), as
// `--live-at` takes it; kInvalidArgument (field "--live-at") otherwise.
Result<LiveAt> ParseLiveAt(std::string_view text);
// "end", "peak" or the seconds ("0.5 s").
std::string LiveAtText(const LiveAt& at);
// The JSON name of its kind: "end", "peak", "time".
const char* LiveAtKindName(LiveAt::Kind kind);

// Blocks, samples and words together (a running or a point-in-time sum).
struct LiveSum {
  std::uint64_t blocks = 0;
  unsigned __int128 samples = 0;  // hostile sample counts cannot overflow it
  std::uint64_t words = 0;        // modulo 2^64 (only hostile traces wrap)
};

// Counts, over one pass in file order, the blocks live at the asked time (per site and
// in all) and the peak. The caller keeps the live blocks; this keeps sums.
class LivenessTracker {
 public:
  // A block as the tracker sees it: the event index and time of its allocation, its site
  // (kNoSite: not counted per site), samples and words.
  struct Block {
    std::uint64_t seq = 0;
    std::int64_t rel_time = 0;
    std::uint32_t site = 0;
    std::uint64_t samples = 0;
    std::uint64_t words = 0;
  };
  static constexpr std::uint32_t kNoSite = ~std::uint32_t{0};

  explicit LivenessTracker(LiveAt at) : at_(at) {}

  void Allocated(const Block& b);
  // `b` collected at `rel` (event index `seq`).
  void Collected(const Block& b, std::int64_t rel);
  // The events up to `seq` all happened at `rel` or before it, and the next one (if any)
  // has another time: the live heap now is a value of the step function.
  void StepEnd(std::uint64_t seq, std::int64_t rel);
  // The running sum: the live heap after the last event.
  const LiveSum& running() const { return running_; }

  // The peak's time and sum (nullopt: never above zero).
  struct Peak {
    std::int64_t t_us = 0;
    LiveSum live;
  };
  const std::optional<Peak>& peak() const { return peak_; }

  // After the pass: whether a block still live at the end was live at the asked time
  // (`end_us`: the last event's time), and the sums of the blocks collected after it.
  bool LiveAtAsked(const Block& b) const;
  // The asked time, resolved: the end's or the peak's time (0 without a peak).
  std::int64_t AskedTime(std::int64_t end_us) const;
  const LiveSum& collected_after_total() const { return after_total_; }
  // Per site: blocks live at the asked time that were collected after it.
  LiveSum CollectedAfter(std::uint32_t site) const;

 private:
  bool WasLiveAt(const Block& b, std::int64_t collect_rel) const;
  void AddAfter(const Block& b);

  LiveAt at_;
  LiveSum running_;
  std::optional<Peak> peak_;
  std::uint64_t peak_seq_ = 0;
  // Blocks collected after the asked time that were live at it. For the peak, whose time
  // is known only at the end, these count from the current peak on and are dropped when
  // a later peak replaces it (every one of them was collected before the new peak): a
  // site's sum belongs to the current peak only when its epoch is the current one.
  LiveSum after_total_;
  std::vector<LiveSum> after_;
  std::vector<std::uint64_t> after_epoch_;
  std::uint64_t epoch_ = 0;
};

}  // namespace mpo::memtrace::analysis
