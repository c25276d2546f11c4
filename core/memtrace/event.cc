#include "core/memtrace/event.h"

namespace mpo::memtrace {

const char* AllocationSourceName(AllocationSource s) {
  switch (s) {
    case AllocationSource::kMinor: return "minor";
    case AllocationSource::kMajor: return "major";
    case AllocationSource::kExternal: return "external";
  }
  return "?";
}

}  // namespace mpo::memtrace
