#include "tools/events/tail_follow.h"

#include <sys/stat.h>

#include <chrono>

#include "core/ring/layout.h"
#include "tools/events/tail_interrupt.h"

namespace mpo::tools {
namespace {

// Polls of one live drain before the stop conditions are looked at again.
constexpr int kLivePollsPerRound = 64;

struct FileKey {
  dev_t dev = 0;
  ino_t ino = 0;
  bool exists = false;
};

FileKey KeyOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {st.st_dev, st.st_ino, true};
}

}  // namespace

bool CountingCallbacks::RuntimeBegin(std::uint32_t ring, std::uint64_t ts, unsigned phase) {
  return inner_.RuntimeBegin(ring, ts, phase);
}
bool CountingCallbacks::RuntimeEnd(std::uint32_t ring, std::uint64_t ts, unsigned phase) {
  return inner_.RuntimeEnd(ring, ts, phase);
}
bool CountingCallbacks::RuntimeCounter(std::uint32_t ring, std::uint64_t ts, unsigned counter,
                                       std::uint64_t value) {
  return inner_.RuntimeCounter(ring, ts, counter, value);
}
bool CountingCallbacks::Alloc(std::uint32_t ring, std::uint64_t ts,
                              std::span<const std::uint64_t> b) {
  return inner_.Alloc(ring, ts, b);
}
bool CountingCallbacks::LifecycleEvent(std::uint32_t ring, std::uint64_t ts, unsigned kind,
                                       std::int64_t data) {
  const bool go_on = inner_.LifecycleEvent(ring, ts, kind, data);
  if (go_on && kind == static_cast<unsigned>(ring::Lifecycle::kRingStop)) ring_stopped_ = true;
  return go_on;
}
bool CountingCallbacks::LostEvents(std::uint32_t ring, std::uint64_t words) {
  // Counted only once the inner callbacks accept it: a refused event comes back.
  const bool go_on = inner_.LostEvents(ring, words);
  if (go_on) lost_words_ += words;
  return go_on;
}
void CountingCallbacks::PaddingSkipped(std::uint32_t ring, std::uint64_t words) {
  inner_.PaddingSkipped(ring, words);
}
bool CountingCallbacks::UserUnit(std::uint32_t ring, std::uint64_t ts, unsigned id,
                                 std::string_view name) {
  return inner_.UserUnit(ring, ts, id, name);
}
bool CountingCallbacks::UserInt(std::uint32_t ring, std::uint64_t ts, unsigned id,
                                std::string_view name, std::uint64_t value) {
  return inner_.UserInt(ring, ts, id, name, value);
}
bool CountingCallbacks::UserSpan(std::uint32_t ring, std::uint64_t ts, unsigned id,
                                 std::string_view name, bool begin) {
  return inner_.UserSpan(ring, ts, id, name, begin);
}
bool CountingCallbacks::UserCustom(std::uint32_t ring, std::uint64_t ts, unsigned id,
                                   std::string_view name, std::span<const std::uint64_t> payload) {
  return inner_.UserCustom(ring, ts, id, name, payload);
}

Result<FollowResult> FollowRing(ring::Cursor& cursor, const std::string& path,
                                CountingCallbacks& callbacks, const FollowOptions& options) {
  InterruptGuard guard;
  // A watched process is followed until it exits, even past its ring's end marker.
  const auto ended = [&](const CountingCallbacks& c) {
    return !options.producer_running && c.ring_stopped();
  };
  const FileKey opened = KeyOf(path);
  const auto start = std::chrono::steady_clock::now();
  FollowResult result;
  while (true) {
    // Decided before draining, so that the last drain sees everything the producer
    // wrote before it exited (or before the file went, or the time ran out).
    const bool producer_gone = options.producer_running && !options.producer_running();
    // A watched process removes its ring as it exits: its exit, not the removal, ends
    // following then.
    const FileKey now = options.producer_running ? opened : KeyOf(path);
    const bool file_gone = !now.exists || now.dev != opened.dev || now.ino != opened.ino;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool timed_out = options.pace.max_seconds > 0 && elapsed >= options.pace.max_seconds;
    const bool interrupted = Interrupted();
    // A last drain (producer or file gone) runs to the end; a live one re-checks the
    // conditions now and then, so a producer that never pauses cannot hold it forever.
    const bool last = producer_gone || file_gone;
    for (int round = 0;; ++round) {
      auto n = cursor.ReadPoll(callbacks);
      if (!n.ok()) return n.status();
      ++result.polls;
      result.events += *n;
      result.lost_words = callbacks.lost_words();
      if (options.after_poll && !options.after_poll()) {
        result.reason = FollowStop::kStopped;
        return result;
      }
      // After the end marker, what is left is read to the end.
      if (*n == 0 || (!last && !ended(callbacks) && round >= kLivePollsPerRound)) break;
    }
    if (producer_gone) {
      result.reason = FollowStop::kProducerExited;
    } else if (ended(callbacks)) {
      result.reason = FollowStop::kRingStopped;
    } else if (file_gone) {
      result.reason = FollowStop::kFileGone;
    } else if (interrupted) {
      result.reason = FollowStop::kInterrupted;
    } else if (timed_out) {
      result.reason = FollowStop::kMaxSeconds;
    } else {
      InterruptibleSleep(options.pace.interval_ms);
      continue;
    }
    return result;
  }
}

std::string_view FollowStopText(FollowStop reason) {
  switch (reason) {
    case FollowStop::kProducerExited: return "the process exited";
    case FollowStop::kFileGone: return "the file is gone (removed or replaced)";
    case FollowStop::kRingStopped: return "the ring ended (ring_stop read)";
    case FollowStop::kMaxSeconds: return "--max-seconds reached";
    case FollowStop::kInterrupted: return "interrupted (SIGINT)";
    case FollowStop::kStopped: return "output failed";
  }
  return "stopped";
}

}  // namespace mpo::tools
