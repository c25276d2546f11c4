// Deliberately broken engine variants ("mutants"), selected at compile time, so that
// tests can show the property tests and root-scanning tests catch each bug.
//
// A default build defines nothing and gets kNone: every `if constexpr (kMutant == ...)`
// in the engine folds away. Mutant builds (core/memprof/BUILD, engine_mutant_*) pass
// -DMPO_MEMPROF_MUTANT=<n> to the engine and to everything that includes it, so a test
// binary never mixes a mutant with the real engine.
#pragma once

#include <cstdint>

#ifndef MPO_MEMPROF_MUTANT
#define MPO_MEMPROF_MUTANT 0
#endif

namespace mpo::memprof {

enum class Mutant : std::uint8_t {
  kNone = 0,
  // Transferring a table copies its entries but leaves them in the source table, so
  // their promote and dealloc callbacks run twice.
  kTransferKeepsSource = 1,
  // After a major GC every tracked major block is reported dead, alive or not.
  kDeallocWhileAlive = 2,
  // An ending domain drops its orphans instead of abandoning them to the global list:
  // their entries never get callbacks again.
  kOrphanLost = 3,
  // Running callbacks ignores a discarded profile: callbacks run after discard.
  kCallbackAfterDiscard = 4,
  // Root scanning skips entries' user data.
  kSkipUserDataRoots = 5,
  // Root scanning skips the tables' profiles (their tracker roots).
  kSkipConfigRoots = 6,
  // A callback returning young user data does not lower its table's `young` index,
  // so a minor GC's young-only root scan misses it.
  kYoungUserDataNotNoted = 7,
};

inline constexpr Mutant kMutant = static_cast<Mutant>(MPO_MEMPROF_MUTANT);

}  // namespace mpo::memprof
