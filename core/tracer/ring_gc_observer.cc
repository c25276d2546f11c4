#include "core/tracer/ring_gc_observer.h"

#include <utility>

namespace mpo::tracer {

using sim::GcPhase;

std::uint64_t ModelledPhaseNs(GcPhase phase, std::uint64_t memprof_entries) {
  switch (phase) {
    case GcPhase::kMinorLocalRoots: return kMinorLocalRootsNs;
    case GcPhase::kMinorMemprofRoots: return kMinorMemprofRootsNs + memprof_entries / 8;
    case GcPhase::kMinorMemprofClean: return kMinorMemprofCleanNs;
    case GcPhase::kMajorMemprofRoots: return kMajorMemprofRootsNs + memprof_entries / 8;
    case GcPhase::kMajorMark: return kMajorMarkNs;
    case GcPhase::kMajorSweep: return kMajorSweepNs;
    case GcPhase::kMajorMemprofClean: return kMajorMemprofCleanNs;
    // Containers: their time is that of what they hold.
    case GcPhase::kMinor:
    case GcPhase::kMajor:
    case GcPhase::kMajorMarkRoots: return 0;
  }
  return 0;
}

RingGcObserver::RingGcObserver(RingReporter& reporter, VirtualClock& clock)
    : reporter_(reporter), clock_(clock) {
  const MemprofPhases& p = reporter.ids();
  const std::pair<GcPhase, unsigned> map[] = {
      {GcPhase::kMinor, p.minor},
      {GcPhase::kMinorLocalRoots, p.minor_local_roots},
      {GcPhase::kMinorMemprofRoots, p.minor_memprof_roots},
      {GcPhase::kMinorMemprofClean, p.minor_memprof_clean},
      {GcPhase::kMajor, p.major},
      {GcPhase::kMajorMarkRoots, p.major_mark_roots},
      {GcPhase::kMajorMemprofRoots, p.major_memprof_roots},
      {GcPhase::kMajorMark, p.major_mark},
      {GcPhase::kMajorSweep, p.major_sweep},
      {GcPhase::kMajorMemprofClean, p.major_memprof_clean},
  };
  for (const auto& [phase, id] : map) ids_[static_cast<std::size_t>(phase)] = id;
}

void RingGcObserver::Keep(Status s) {
  if (status_.ok() && !s.ok()) status_ = std::move(s);
}

void RingGcObserver::PhaseBegin(GcPhase phase, std::span<const std::uint32_t> domains,
                                std::uint64_t memprof_entries) {
  const unsigned id = ids_[static_cast<std::size_t>(phase)];
  for (std::uint32_t d : domains) {
    if (status_.ok()) Keep(reporter_.Begin(d, id));
  }
  // Stop the world: the domains run the phase together, so its time passes once.
  clock_.Advance(ModelledPhaseNs(phase, memprof_entries));
}

void RingGcObserver::PhaseEnd(GcPhase phase, std::span<const std::uint32_t> domains) {
  const unsigned id = ids_[static_cast<std::size_t>(phase)];
  for (std::uint32_t d : domains) {
    if (status_.ok()) Keep(reporter_.End(d, id));
  }
}

void RingGcObserver::MinorAllocated(std::uint32_t domain, std::uint64_t words) {
  if (status_.ok()) Keep(reporter_.Counter(domain, reporter_.ids().minor_allocated, words));
}

void RingGcObserver::DomainSpawn(std::uint32_t domain) {
  if (status_.ok()) Keep(reporter_.DomainSpawn(domain));
}

void RingGcObserver::DomainTerminate(std::uint32_t domain) {
  if (status_.ok()) Keep(reporter_.DomainTerminate(domain));
}

}  // namespace mpo::tracer
