// Following a ring that another process is writing: the loop behind `events tail` and
// `events record`. It polls the cursor until one of the stop conditions holds and then
// says which one, so a caller can always tell the user why it stopped.
//
//   FollowOptions o{.pace = {.interval_ms = 100, .max_seconds = 0}};
//   o.producer_running = [&] { return ProcessAlive(pid); };
//   auto r = FollowRing(cursor, path, counting, o);  // r->reason, r->events, r->lost_words
//
// Stop conditions, checked after each drain (a drain polls until a poll delivers
// nothing, so the events written before the condition held are all delivered):
//   producer exited   producer_running() was false before the drain began
//   file gone         the path no longer names the file that was opened (only
//                     without producer_running: a process removes its ring as it
//                     exits, and the exit is what ends following then)
//   ring stopped      a ring_stop lifecycle event was read: the program stopped its
//                     runtime events (or exited), nothing more will come (only without
//                     producer_running: a watched process is followed until it exits)
//   max-seconds       max_seconds > 0 and that long has passed
//   interrupted       SIGINT arrived (tail_interrupt.h; FollowRing holds an
//                     InterruptGuard while it runs)
// Without producer_running (a file whose producer is not a process we know) only the
// last four apply. A file missing when following starts counts as gone at once.
//
// Threading: one follower per process at a time (the SIGINT flag is process-wide).
// Time is measured on the monotonic clock from the call.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/ring/cursor.h"

namespace mpo::tools {

enum class FollowStop {
  kProducerExited,
  kFileGone,
  kRingStopped,
  kMaxSeconds,
  kInterrupted,
  kStopped
};

// How often a ring is drained and for how long at most: `events tail`'s options as given
// (its --interval-ms and --max-seconds).
struct FollowPace {
  double interval_ms = 100;  // pause between drains
  double max_seconds = 0;    // 0: no limit
};

struct FollowOptions {
  FollowPace pace;
  // Empty: no producer process is watched.
  std::function<bool()> producer_running;
  // Called after each poll (print what the callbacks gathered); returning false stops
  // following at once (kStopped), e.g. when stdout failed.
  std::function<bool()> after_poll;
};

struct FollowResult {
  FollowStop reason = FollowStop::kStopped;
  std::uint64_t polls = 0;
  std::uint64_t events = 0;      // as ReadPoll counts them
  std::uint64_t lost_words = 0;  // words the producer overwrote before they were read
};

// Counts what passes through and forwards everything to `inner`.
class CountingCallbacks : public ring::EventCallbacks {
 public:
  explicit CountingCallbacks(ring::EventCallbacks& inner) : inner_(inner) {}
  std::uint64_t lost_words() const { return lost_words_; }
  // A ring_stop lifecycle event went through.
  bool ring_stopped() const { return ring_stopped_; }

  bool RuntimeBegin(std::uint32_t ring, std::uint64_t ts, unsigned phase) override;
  bool RuntimeEnd(std::uint32_t ring, std::uint64_t ts, unsigned phase) override;
  bool RuntimeCounter(std::uint32_t ring, std::uint64_t ts, unsigned counter,
                      std::uint64_t value) override;
  bool Alloc(std::uint32_t ring, std::uint64_t ts, std::span<const std::uint64_t> b) override;
  bool LifecycleEvent(std::uint32_t ring, std::uint64_t ts, unsigned kind,
                      std::int64_t data) override;
  bool LostEvents(std::uint32_t ring, std::uint64_t words) override;
  void PaddingSkipped(std::uint32_t ring, std::uint64_t words) override;
  bool UserUnit(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name) override;
  bool UserInt(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
               std::uint64_t value) override;
  bool UserSpan(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                bool begin) override;
  bool UserCustom(std::uint32_t ring, std::uint64_t ts, unsigned id, std::string_view name,
                  std::span<const std::uint64_t> payload) override;

 private:
  ring::EventCallbacks& inner_;
  std::uint64_t lost_words_ = 0;
  bool ring_stopped_ = false;
};

// Follows `cursor` (opened on `path`) until a stop condition holds. A cursor error (a
// ring truncated or corrupted under it) is returned as is.
Result<FollowResult> FollowRing(ring::Cursor& cursor, const std::string& path,
                                CountingCallbacks& callbacks, const FollowOptions& options);

// "the process exited", "the file is gone", ... (no subject: callers add it).
std::string_view FollowStopText(FollowStop reason);

}  // namespace mpo::tools
