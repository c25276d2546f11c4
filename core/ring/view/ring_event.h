// One decoded runtime event: the value every view of a ring is rendered from (the
// golden text of dump_format.h, the schema 2 JSON of json_view.h, `events chrome` and
// `events stats`). Its kind names are the one list of them.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/ring/cursor.h"

namespace mpo::ring::view {

enum class EventKind : std::uint8_t {
  kBegin,
  kEnd,
  kCounter,
  kAlloc,
  kLifecycle,
  kLostEvents,
  kUserUnit,
  kUserInt,
  kUserSpanBegin,
  kUserSpanEnd,
  kUserCustom,
};

// "begin", "end", "counter", "alloc", "lifecycle", "lost_events", "user_unit", "user_int",
// "user_span_begin", "user_span_end", "user_custom": the JSON "kind" of each record.
std::string_view KindName(EventKind kind);

// Each member holds what the C consumer delivers, unconverted; the views decide how to
// print it. The views (name, buckets, payload) point into the cursor's buffers or the
// name tables: valid only while the event is being handled, copy what must outlive it.
struct RingEvent {
  EventKind kind = EventKind::kBegin;
  std::uint32_t ring = 0;  // the domain's ring index
  std::uint64_t ts = 0;    // producer nanoseconds; 0 for lost_events, which have none
  unsigned id = 0;         // phase, counter, lifecycle kind or user event index
  // The release's name of the id ("unknown" when it has none), the user event's
  // registered name (bytes from the file: not necessarily UTF-8), or for alloc and
  // lost_events the kind's name.
  std::string_view name;
  // counter: the value word; user_int: the payload word (see OcamlInt); lost_events:
  // the number of words lost.
  std::uint64_t value = 0;
  std::int64_t data = 0;                   // lifecycle: the payload, 0 when it has none
  std::span<const std::uint64_t> buckets;  // alloc: the histogram words as written
  std::string_view payload;                // user_custom: the bytes, padding removed

  // The OCaml int a user_int event carries (OCaml's binding reads 63 bits).
  std::int64_t OcamlInt() const { return OcamlIntOfPayload(value); }
};

}  // namespace mpo::ring::view
