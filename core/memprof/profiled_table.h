// An entries table together with the profile its entries were sampled under
// (runtime/memprof.c's entries_s with its `config`), and the two table operations that
// depend on that profile: validation (forgetting a discarded profile) and transfer.
//
// Threading: as EntriesTable, a table is used by one thread of its domain at a time;
// only the profile's status is shared (profile.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/memprof/c_heap.h"
#include "core/memprof/entries.h"
#include "core/memprof/profile.h"

namespace mpo::memprof {

template <class P>
struct ProfiledTable {
  ProfiledTable(std::size_t min_capacity, CHeapGate* gate) : entries(min_capacity, gate) {}
  EntriesTable entries;
  // The profile every entry of `entries` was sampled under. Null: no profile yet, or a
  // discarded one already forgotten (Validated), in which case the only entries left
  // are those whose callback is running.
  ProfileRef<P> config;
};

// A table of entries left by a domain's earlier profile, or by an ended domain; a
// domain's orphan tables form a list, as do the engine's global ones (orphans.h).
template <class P>
struct OrphanTable {
  explicit OrphanTable(CHeapGate* gate) : table(kMinOrphanCapacity, gate) {}
  ProfiledTable<P> table;
  std::unique_ptr<OrphanTable> next;
};

// Which of a domain's tables ForEachTable reports.
enum class TableKind : std::uint8_t { kDomain, kThread, kOrphan };

// validated_config: forgets a discarded profile, dropping the entries not in a callback.
// Returns the table's profile, null when there is none (any more).
template <class P>
const ProfileRef<P>& Validated(ProfiledTable<P>& pt) {
  if (pt.config && pt.config->status() == ProfileStatusValue::kDiscarded) {
    pt.config.reset();
    pt.entries.ClearInactive();
  }
  return pt.config;
}

}  // namespace mpo::memprof
