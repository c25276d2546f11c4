// The simulator -> tracer -> ring producer edge: subscribes to a simulated runtime's
// collections (sim::GcObserver) and writes them into the runtime-events ring through a
// RingReporter, each phase on every domain that runs it, with the minor_allocated
// counters and the domains' spawn/terminate events.
//
// Time is a model on the virtual clock: a phase's own work is charged when it begins,
// before any phase nested in it, so a nested phase starts after its parent's own work
// and both end together (the nanoseconds below). The memprof roots phases grow with the
// entries memprof scans, one nanosecond per eight.
//
//   RingGcObserver observer(*reporter, clock);
//   runtime.SetGcObserver(&observer);  // collections now reach the ring
//   ...
//   runtime.SetGcObserver(nullptr);
//   MPO_RETURN_IF_ERROR(observer.status());
//
// Threading: the runtime's thread. Failure: observers cannot fail, so the first ring
// write error is kept in status() and nothing more is written.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "core/base/status.h"
#include "core/sim/gc_observer.h"
#include "core/tracer/ring_reporter.h"
#include "core/tracer/virtual_clock.h"

namespace mpo::tracer {

// The modelled own work of each phase, in nanoseconds, before the entry-dependent part.
inline constexpr std::uint64_t kMinorLocalRootsNs = 3000;
inline constexpr std::uint64_t kMinorMemprofRootsNs = 200;
inline constexpr std::uint64_t kMinorMemprofCleanNs = 400;
inline constexpr std::uint64_t kMajorMemprofRootsNs = 1500;
inline constexpr std::uint64_t kMajorMarkNs = 40000;
inline constexpr std::uint64_t kMajorSweepNs = 25000;
inline constexpr std::uint64_t kMajorMemprofCleanNs = 800;

// The time a phase takes on its own, given the memprof entries it visits.
std::uint64_t ModelledPhaseNs(sim::GcPhase phase, std::uint64_t memprof_entries);

class RingGcObserver final : public sim::GcObserver {
 public:
  // Both must outlive the observer. Resolves the phase ids once (reporter.ids()).
  RingGcObserver(RingReporter& reporter, VirtualClock& clock);

  void PhaseBegin(sim::GcPhase phase, std::span<const std::uint32_t> domains,
                  std::uint64_t memprof_entries) override;
  void PhaseEnd(sim::GcPhase phase, std::span<const std::uint32_t> domains) override;
  void MinorAllocated(std::uint32_t domain, std::uint64_t words) override;
  void DomainSpawn(std::uint32_t domain) override;
  void DomainTerminate(std::uint32_t domain) override;

  // The first ring write that failed; Ok while every write succeeded.
  const Status& status() const { return status_; }

 private:
  void Keep(Status s);
  RingReporter& reporter_;
  VirtualClock& clock_;
  std::array<unsigned, sim::kGcPhaseCount> ids_{};  // 5.3 phase id by GcPhase
  Status status_;
};

}  // namespace mpo::tracer
