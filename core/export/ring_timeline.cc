#include "core/export/ring_timeline.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace mpo::exporter {

using Kind = ring::view::EventKind;

std::string_view TimelineNoteText(TimelineNote note) {
  switch (note) {
    case TimelineNote::kNone: return "";
    case TimelineNote::kEndWithoutBegin:
      return "end without its begin (overwritten or lost before the read)";
    case TimelineNote::kBeginTooDeep: return "begin nested too deep: shown as an instant";
    case TimelineNote::kClosedByOuterEnd: return "closed by the end of an enclosing span";
    case TimelineNote::kClosedAtLostEvents:
      return "closed where events were lost: its end may be among them";
    case TimelineNote::kClosedAtEndOfRing: return "still open at the end of the ring";
  }
  return "";
}

RingTimeline::RingTimeline(std::function<void(const TimelineItem&)> emit)
    : emit_(std::move(emit)) {}

RingTimeline::Domain& RingTimeline::DomainOf(std::uint32_t ring) {
  const auto [it, added] = domains_.try_emplace(ring);
  if (added) {
    RingEvent thread;
    thread.ring = ring;
    emit_({TimelineKind::kThread, thread, 0});
  }
  return it->second;
}

void RingTimeline::EmitLost(std::uint32_t ring, std::uint64_t words, std::uint64_t ts) {
  RingEvent lost;
  lost.kind = Kind::kLostEvents;
  lost.ring = ring;
  lost.name = ring::view::KindName(Kind::kLostEvents);
  lost.value = words;
  emit_({TimelineKind::kInstant, lost, ts});
}

// Ends the open spans above the first `keep`, innermost first, at `ts`.
void RingTimeline::CloseOpen(std::uint32_t ring, Domain& d, std::size_t keep, std::uint64_t ts,
                             TimelineNote note) {
  while (d.open.size() > keep) {
    const Open& o = d.open.back();
    RingEvent end;
    end.kind = o.user ? Kind::kUserSpanEnd : Kind::kEnd;
    end.ring = ring;
    end.ts = ts;
    end.id = o.id;
    end.name = o.name;
    emit_({TimelineKind::kEnd, end, ts, note});
    d.open.pop_back();
  }
}

void RingTimeline::AddEnd(const RingEvent& e, Domain& d) {
  const bool user = e.kind == Kind::kUserSpanEnd;
  std::size_t i = d.open.size();
  while (i > 0 && (d.open[i - 1].user != user || d.open[i - 1].id != e.id)) --i;
  if (i == 0) {
    emit_({TimelineKind::kInstant, e, e.ts, TimelineNote::kEndWithoutBegin});
    return;
  }
  CloseOpen(e.ring, d, i, e.ts, TimelineNote::kClosedByOuterEnd);
  d.open.pop_back();
  emit_({TimelineKind::kEnd, e, e.ts});
}

void RingTimeline::Add(const RingEvent& e) {
  Domain& d = DomainOf(e.ring);
  if (e.kind == Kind::kLostEvents) {
    if (d.has_ts) {
      CloseOpen(e.ring, d, 0, d.last_ts, TimelineNote::kClosedAtLostEvents);
      EmitLost(e.ring, e.value, d.last_ts);
    } else {
      // Saturating: a hostile stream could sum past 2^64.
      d.waiting_lost_words += std::min(e.value, UINT64_MAX - d.waiting_lost_words);
      d.lost_waiting = true;
    }
    return;
  }
  if (!has_min_ts_ || e.ts < min_ts_) min_ts_ = e.ts;
  has_min_ts_ = true;
  if (d.lost_waiting) {
    EmitLost(e.ring, d.waiting_lost_words, e.ts);
    d.lost_waiting = false;
    d.waiting_lost_words = 0;
  }
  d.has_ts = true;
  d.last_ts = e.ts;
  switch (e.kind) {
    case Kind::kBegin:
    case Kind::kUserSpanBegin:
      if (d.open.size() == kMaxOpenSpans) {
        emit_({TimelineKind::kInstant, e, e.ts, TimelineNote::kBeginTooDeep});
      } else {
        d.open.push_back({e.kind == Kind::kUserSpanBegin, e.id, std::string(e.name)});
        emit_({TimelineKind::kBegin, e, e.ts});
      }
      break;
    case Kind::kEnd:
    case Kind::kUserSpanEnd: AddEnd(e, d); break;
    // A user int is a value over time, like a runtime counter: viewers plot counters.
    case Kind::kCounter:
    case Kind::kUserInt: emit_({TimelineKind::kCounter, e, e.ts}); break;
    default: emit_({TimelineKind::kInstant, e, e.ts}); break;
  }
}

void RingTimeline::Finish() {
  for (auto& [ring, d] : domains_) {
    if (d.lost_waiting) {
      EmitLost(ring, d.waiting_lost_words, has_min_ts_ ? min_ts_ : 0);
      d.lost_waiting = false;
    }
    CloseOpen(ring, d, 0, d.last_ts, TimelineNote::kClosedAtEndOfRing);
  }
}

}  // namespace mpo::exporter
