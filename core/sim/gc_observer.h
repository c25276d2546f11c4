// What the simulated runtime tells an observer about its collections and its domains, in
// the order OCaml 5.3 writes the matching runtime events. A minor collection:
//
//   Begin(kMinor)
//     Begin(kMinorLocalRoots)
//       Begin(kMinorMemprofRoots) End(kMinorMemprofRoots)   memprof's young roots
//     End(kMinorLocalRoots)
//     Begin(kMinorMemprofClean) End(kMinorMemprofClean)     after promotion
//     MinorAllocated(d, words) for each domain d
//   End(kMinor)
//
// A major collection runs a minor one inside it, then marks and sweeps:
//
//   Begin(kMajor)
//     <a minor collection>
//     Begin(kMajorMarkRoots)
//       Begin(kMajorMemprofRoots) End(kMajorMemprofRoots)
//     End(kMajorMarkRoots)
//     Begin(kMajorMark) End(kMajorMark)
//     Begin(kMajorSweep) End(kMajorSweep)
//     Begin(kMajorMemprofClean) End(kMajorMemprofClean)     when the cycle ends
//   End(kMajor)
//
// Collections stop the world: each phase event names every live domain (by increasing
// id), which all run that phase together. NewDomain reports DomainSpawn (domain 0, made
// by the runtime's constructor, is never reported: OCaml writes no spawn for it either);
// EndDomain reports its minor collection (the ending domain taking part), then
// DomainTerminate.
//
// Threading: called on the simulator's thread, synchronously, possibly from inside an
// allocation (a full minor heap). An observer must not call back into the runtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace mpo::sim {

enum class GcPhase : std::uint8_t {
  kMinor,
  kMinorLocalRoots,
  kMinorMemprofRoots,
  kMinorMemprofClean,
  kMajor,
  kMajorMarkRoots,
  kMajorMemprofRoots,
  kMajorMark,
  kMajorSweep,
  kMajorMemprofClean,
};
inline constexpr std::size_t kGcPhaseCount = 10;

// The phase's runtime-events name (OCaml's, e.g. "minor_memprof_roots").
std::string_view GcPhaseName(GcPhase phase);

class GcObserver {
 public:
  virtual ~GcObserver() = default;
  // `domains`: the live domains running the phase. `memprof_entries`: for the four memprof
  // phases, the entries the busiest domain's memprof visits (a minor phase: only those from
  // its tables' young index on); 0 for the other phases.
  virtual void PhaseBegin(GcPhase phase, std::span<const std::uint32_t> domains,
                          std::uint64_t memprof_entries) = 0;
  virtual void PhaseEnd(GcPhase phase, std::span<const std::uint32_t> domains) = 0;
  // Words (headers included) `domain` allocated in its minor heap since the previous
  // minor collection.
  virtual void MinorAllocated(std::uint32_t domain, std::uint64_t words) = 0;
  virtual void DomainSpawn(std::uint32_t domain) = 0;
  virtual void DomainTerminate(std::uint32_t domain) = 0;
};

}  // namespace mpo::sim
