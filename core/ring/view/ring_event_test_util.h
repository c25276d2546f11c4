// Test support: a RingEvent from the fields the view and export tests set by hand.
// Names are views: tests pass literals, which outlive the events.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/ring/view/ring_event.h"

namespace mpo::ring::view {

inline RingEvent MakeRingEvent(EventKind kind, std::uint32_t ring, std::uint64_t ts,
                               unsigned id = 0, std::string_view name = "x",
                               std::uint64_t value = 0) {
  RingEvent e;
  e.kind = kind;
  e.ring = ring;
  e.ts = ts;
  e.id = id;
  e.name = name;
  e.value = value;
  return e;
}

}  // namespace mpo::ring::view
