#include "core/sim/gc_observer.h"

namespace mpo::sim {

std::string_view GcPhaseName(GcPhase phase) {
  switch (phase) {
    case GcPhase::kMinor: return "minor";
    case GcPhase::kMinorLocalRoots: return "minor_local_roots";
    case GcPhase::kMinorMemprofRoots: return "minor_memprof_roots";
    case GcPhase::kMinorMemprofClean: return "minor_memprof_clean";
    case GcPhase::kMajor: return "major";
    case GcPhase::kMajorMarkRoots: return "major_mark_roots";
    case GcPhase::kMajorMemprofRoots: return "major_memprof_roots";
    case GcPhase::kMajorMark: return "major_mark";
    case GcPhase::kMajorSweep: return "major_sweep";
    case GcPhase::kMajorMemprofClean: return "major_memprof_clean";
  }
  return "unknown";
}

}  // namespace mpo::sim
