// The one place for the names of memtrace event kinds and allocation sources, as the
// decoded view (schema 2), the dumps and diff print them.
#pragma once

#include "core/memtrace/event.h"

namespace mpo::memtrace::view {

// "alloc", "promote", "collect".
inline const char* EventKindName(EventKind k) {
  switch (k) {
    case EventKind::kAlloc: return "alloc";
    case EventKind::kPromote: return "promote";
    case EventKind::kCollect: return "collect";
  }
  return "?";
}

// "minor", "major", "external" (defined beside the reader, which parses the sources).
using memtrace::AllocationSourceName;

}  // namespace mpo::memtrace::view
