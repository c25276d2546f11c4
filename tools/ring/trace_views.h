// Views of a decoded event stream (core/ring/view's RingEvent): Chrome trace-event JSON
// and per-phase statistics.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/ring/view/ring_event.h"

namespace mpo::tools {

using ring::view::RingEvent;

// {"traceEvents":[...],"displayTimeUnit":"ns"} with one thread per ring (named
// "domain N"): runtime phases and user spans as B/E, counters as C, lifecycle, user
// unit/int/custom, alloc and lost events as thread-scoped instants. Timestamps are
// microseconds (Chrome's unit) since the first event. Chrome and Perfetto open it.
// Instants carry the event in "args" (kind, name, id and its value: counters, ints and
// buckets as OCaml ints, lifecycle data null when 0, custom bytes with OCaml's escaping),
// a format kept as it was before schema 2: it is Chrome's, not the decoded view.
// The whole document in memory: for small inputs and tests. `events chrome` streams
// with the two classes below, which give the same bytes as DumpJson(ChromeTrace(...)).
nlohmann::json ChromeTrace(const std::vector<RingEvent>& events, std::int64_t pid);

// First pass over the events: the time origin and the pid a ring_start recorded.
class ChromeTraceScan {
 public:
  void Add(const RingEvent& e);
  std::uint64_t origin() const { return origin_; }
  // The pid of the first ring_start with one, else `fallback`.
  std::int64_t pid(std::int64_t fallback) const { return pid_ > 0 ? pid_ : fallback; }

 private:
  std::uint64_t origin_ = 0;
  std::int64_t pid_ = 0;
};

// Second pass: writes the document event by event through `write`; memory does not
// depend on the number of events (one entry per ring).
class ChromeTraceWriter {
 public:
  ChromeTraceWriter(std::uint64_t origin, std::int64_t pid,
                    std::function<void(std::string_view)> write);
  void Add(const RingEvent& e);
  // Closes the document; call once, after the last event.
  void Finish();

 private:
  void Emit(const nlohmann::json& j);
  std::uint64_t origin_;
  std::int64_t pid_;
  std::function<void(std::string_view)> write_;
  bool first_ = true;
  std::map<std::uint32_t, std::uint64_t> last_ts_;  // lost events borrow their ring's time
  std::string text_;
};

struct PhaseStats {
  std::uint64_t count = 0;     // completed begin/end pairs
  std::uint64_t total_ns = 0;  // sum of their durations (nested phases included)
  std::uint64_t max_ns = 0;
};

struct RingStats {
  std::map<std::string, std::uint64_t> events_by_kind;
  std::uint64_t lost_words = 0;
  std::uint64_t unmatched_ends = 0;  // an end without its begin (lost, or before start)
};

struct StreamStats {
  std::map<std::string, PhaseStats> phases;  // by phase name, all rings
  std::map<std::uint32_t, RingStats> rings;
};

// Statistics of a stream, event by event: memory depends on the number of rings and
// phase names, not on the number of events. At most kMaxOpenPhases begins per ring are
// kept open (real nesting is a few deep); beyond that the oldest is forgotten and its
// end counts as unmatched, so hostile input cannot make matching quadratic.
class StatsAccumulator {
 public:
  static constexpr std::size_t kMaxOpenPhases = 64;
  void Add(const RingEvent& e);
  const StreamStats& stats() const { return s_; }

 private:
  struct Open {
    unsigned id;
    std::uint64_t ts;
  };
  StreamStats s_;
  std::map<std::uint32_t, std::vector<Open>> open_;  // per ring, innermost last
};

// Serialises as `events chrome` does: names from a hostile file need not be UTF-8
// (invalid bytes become U+FFFD).
std::string DumpJson(const nlohmann::json& j, int indent = -1);

StreamStats ComputeStats(const std::vector<RingEvent>& events);
std::string FormatStats(const StreamStats& s);
nlohmann::json StatsJson(const StreamStats& s);

}  // namespace mpo::tools
