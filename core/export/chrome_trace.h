// A runtime events stream (core/ring/view's RingEvent) as Chrome trace-event JSON, the
// format Chrome's about:tracing and Perfetto read; the timeline is core/export/ring_timeline.h.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/export/ring_timeline.h"
#include "core/ring/view/ring_event.h"

namespace mpo::exporter {

using ring::view::RingEvent;

// Chrome trace-event JSON, {"traceEvents":[...]}, as Chrome and Perfetto read it.
// - One process (the pid a ring_start recorded, else the caller's), named by a
//   process_name record "OCaml process PID"; one thread per domain, tid = the ring
//   index, named "domain N" (thread_name) and ordered by it (thread_sort_index).
// - Runtime phases (cat "runtime") and user spans (cat "user") are B/E on the domain's
//   thread, balanced and nested per thread even when the ring wrapped or lost events:
//   the repairs of core/export/ring_timeline.h, each noted in the event's args.note (an
//   E whose B was lost becomes an instant; spans still open at the end are closed at
//   their domain's last timestamp).
// - Counters and user int events (cat "user") are C events named "NAME (domain N)",
//   args {"value": the OCaml int}: Perfetto keys counter tracks by process and name, so
//   each domain gets its own track, and plots it.
// - lifecycle, user unit/custom, alloc and lost_events are thread-scoped instants;
//   a lost_events instant sits at its domain's previous timestamp (or next, when none
//   came before). Instants carry the event in "args" (kind, name, id and its value:
//   buckets as OCaml ints, lifecycle data null when 0, custom bytes
//   with OCaml's escaping; words for lost_events).
// - Timestamps are microseconds (the format's unit) since the first event; no
//   displayTimeUnit or other key that changes units.
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
  bool has_origin_ = false;
  std::int64_t pid_ = 0;
};

// Second pass: writes the document event by event through `write`; memory does not
// depend on the number of events (per domain: its open spans).
class ChromeTraceWriter {
 public:
  ChromeTraceWriter(std::uint64_t origin, std::int64_t pid,
                    std::function<void(std::string_view)> write);
  // The timeline calls back into this object: it stays where it was built.
  ChromeTraceWriter(const ChromeTraceWriter&) = delete;
  ChromeTraceWriter& operator=(const ChromeTraceWriter&) = delete;
  void Add(const RingEvent& e) { timeline_.Add(e); }
  // Closes what is open and the document; call once, after the last event.
  void Finish();

 private:
  void Emit(const nlohmann::json& j);
  void EmitItem(const TimelineItem& item);
  std::uint64_t origin_;
  std::int64_t pid_;
  std::function<void(std::string_view)> write_;
  RingTimeline timeline_;
  bool first_ = true;
  std::string text_;
};

// Serialises as `events chrome` does: names from a hostile file need not be UTF-8
// (invalid bytes become U+FFFD).
std::string DumpJson(const nlohmann::json& j, int indent = -1);

}  // namespace mpo::exporter
