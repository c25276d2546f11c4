#include "core/ring/view/ring_event.h"

namespace mpo::ring::view {

std::string_view KindName(EventKind kind) {
  switch (kind) {
    case EventKind::kBegin: return "begin";
    case EventKind::kEnd: return "end";
    case EventKind::kCounter: return "counter";
    case EventKind::kAlloc: return "alloc";
    case EventKind::kLifecycle: return "lifecycle";
    case EventKind::kLostEvents: return "lost_events";
    case EventKind::kUserUnit: return "user_unit";
    case EventKind::kUserInt: return "user_int";
    case EventKind::kUserSpanBegin: return "user_span_begin";
    case EventKind::kUserSpanEnd: return "user_span_end";
    case EventKind::kUserCustom: return "user_custom";
  }
  // Only a value outside the enumeration gets here (a cast from a bad integer).
  return "unknown";
}

}  // namespace mpo::ring::view
