// The engine's one test seam: a fault policy (the convention: core/base/faults.h).
// Domain<P, Faults> calls the steps below where a bug would hide; the default, NoFaults,
// is the correct behaviour (each step inlines away). Tests substitute one deliberately
// broken step at a time (a "mutant", core/memprof/mutants.h) and must see it caught.
#pragma once

#include <functional>

#include "core/memprof/api.h"
#include "core/memprof/entries.h"
#include "core/memprof/profile.h"
#include "core/memprof/profiled_table.h"

namespace mpo::memprof {

struct NoFaults {
  // entries_transfer: moves every entry of `from` to `to`; false (nothing moved) when
  // `to` cannot grow.
  static bool TransferEntries(EntriesTable& from, EntriesTable& to) { return from.TransferTo(to); }

  // After a major GC: is a tracked major block still alive?
  static bool SurvivesMajorGc(const std::function<bool(BlockAddr)>& alive, BlockAddr block) {
    return alive(block);
  }

  // caml_memprof_delete_domain: the orphan list an ending domain abandons globally.
  template <class List>
  static List OrphansToAbandon(List orphans) {
    return orphans;
  }

  // The profile a table's callbacks run under; a discarded one is forgotten (null).
  template <class P>
  static const ProfileRef<P>& CallbackProfile(ProfiledTable<P>& pt) {
    return Validated(pt);
  }

  // Root scanning visits every entry's user data and every profile's tracker roots.
  static constexpr bool kScanUserDataRoots = true;
  static constexpr bool kScanTrackerRoots = true;
  // A callback's young user data lowers its table's `young` index (the entry becomes a
  // minor GC root again).
  static constexpr bool kNoteYoungUserData = true;
};

}  // namespace mpo::memprof
