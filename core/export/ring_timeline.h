// A runtime events stream made fit for timeline viewers (Chrome JSON, Fuchsia/Perfetto):
// the RingEvent stream of core/ring/view, one item per event, with three repairs that a
// ring's flight-recorder semantics make necessary.
//
// 1. Balanced spans. On each domain's track, every begin item is closed by exactly one
//    end item, properly nested, in stream order; viewers pair ends with begins by
//    position, so one missing begin would shift every later slice. Runtime phases and
//    user spans share the domain's track. An end matches the innermost open begin of the
//    same kind (runtime or user) and id:
//    - no such begin (it was overwritten before the read, or lost): the end becomes an
//      instant noted kEndWithoutBegin;
//    - begins opened inside it and still open: each gets an end first, at the same time,
//      noted kClosedByOuterEnd;
//    - a lost_events marker closes every open span of its domain at the marker's time
//      (kClosedAtLostEvents): their ends may be among the lost words;
//    - at Finish, spans still open are closed at their domain's last timestamp
//      (kClosedAtEndOfRing), so no slice is left without an end.
//    At most kMaxOpenSpans begins are open per domain (real nesting is a few deep); a
//    deeper begin becomes an instant noted kBeginTooDeep, so hostile input stays linear.
// 2. Lost events at a time. A lost_events event has no timestamp of its own: the item
//    gets the previous timestamp of its domain, or, when the domain has none yet, the
//    next one (the marker waits, summed with any further loss, until that event comes;
//    at Finish, a marker still waiting takes the earliest timestamp of the stream).
// 3. A kThread item before a domain's first item, for the viewer's thread metadata.
// User int events are counter items, so that viewers plot them.
//
// Memory: per domain, its open spans (names copied) and one waiting marker; never the
// events. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/ring/view/ring_event.h"

namespace mpo::exporter {

using ring::view::RingEvent;

enum class TimelineKind : std::uint8_t {
  kThread,   // a domain's first item; event holds only its ring
  kBegin,    // event: begin or user_span_begin
  kEnd,      // event: end or user_span_end (its own or made for a repair)
  kCounter,  // event: counter or user_int (its OCaml int is OcamlIntOfPayload(value))
  kInstant,  // every other event, and the ends and begins a repair turned into instants
};

enum class TimelineNote : std::uint8_t {
  kNone,
  kEndWithoutBegin,
  kBeginTooDeep,
  kClosedByOuterEnd,
  kClosedAtLostEvents,
  kClosedAtEndOfRing,
};

// A short English sentence for the note ("" for kNone), put in the exported event's args.
std::string_view TimelineNoteText(TimelineNote note);

struct TimelineItem {
  TimelineKind kind;
  // Valid only during the callback. For a lost_events item, `value` is the words lost.
  const RingEvent& event;
  std::uint64_t ts;  // producer nanoseconds
  TimelineNote note = TimelineNote::kNone;
};

class RingTimeline {
 public:
  static constexpr std::size_t kMaxOpenSpans = 64;
  explicit RingTimeline(std::function<void(const TimelineItem&)> emit);
  void Add(const RingEvent& e);
  // Emits the waiting lost markers and closes the open spans; call once, at the end.
  void Finish();

 private:
  struct Open {
    bool user;
    unsigned id;
    std::string name;
  };
  struct Domain {
    bool has_ts = false;
    std::uint64_t last_ts = 0;
    std::uint64_t waiting_lost_words = 0;
    bool lost_waiting = false;
    std::vector<Open> open;  // innermost last
  };
  Domain& DomainOf(std::uint32_t ring);
  void EmitLost(std::uint32_t ring, std::uint64_t words, std::uint64_t ts);
  void CloseOpen(std::uint32_t ring, Domain& d, std::size_t keep, std::uint64_t ts,
                 TimelineNote note);
  void AddEnd(const RingEvent& e, Domain& d);
  std::function<void(const TimelineItem&)> emit_;
  std::map<std::uint32_t, Domain> domains_;
  bool has_min_ts_ = false;
  std::uint64_t min_ts_ = 0;
};

}  // namespace mpo::exporter
