// Domain, part 4: orphans (runtime/memprof.c, design §1.5). Entries of an earlier
// profile, and of an ending domain, move to orphan tables: a domain keeps its own list
// and runs their callbacks after its other tables'; an ending domain abandons its list
// to the engine's global one, which the next domain to look adopts whole.
// Included by domain.h.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "core/memprof/domain.h"

namespace mpo::memprof {

template <class P, class Faults>
Domain<P, Faults>::~Domain() {
  (void)OrphansCreate();
  engine_.orphans().Abandon(Faults::OrphansToAbandon(std::move(orphans_)));
  threads_.clear();
}

// orphans_create: offsets cleared, then the domain's and threads' entries move to a
// fresh orphan table at the head of this domain's list. False (entries left where they
// were) when the C heap refuses the table.
template <class P, class Faults>
bool Domain<P, Faults>::OrphansCreate() {
  std::size_t total = 0;
  for (auto& thread : threads_) {
    thread->table_.entries.ClearOffsets();
    total += thread->table_.entries.size();
  }
  table_.entries.Evict();
  total += table_.entries.size();
  if (total == 0) return true;
  if (!CHeapAllows(engine_.c_heap_gate(), CHeapSite::kOrphanTable)) return false;
  auto ot = std::make_unique<OrphanTable<P>>(engine_.c_heap_gate());
  ot->table.config = table_.config;
  if (!ot->table.entries.Ensure(total)) return false;
  // Pre-sized: these transfers cannot fail.
  (void)Transfer(table_, ot->table);
  for (auto& thread : threads_) (void)Transfer(thread->table_, ot->table);
  ot->next = std::move(orphans_);
  orphans_ = std::move(ot);
  return true;
}

// Appends every globally abandoned table to this domain's list.
template <class P, class Faults>
void Domain<P, Faults>::AdoptOrphans() {
  std::unique_ptr<OrphanTable<P>> adopted = engine_.orphans().Adopt();
  if (!adopted) return;
  std::unique_ptr<OrphanTable<P>>* tail = &orphans_;
  while (*tail) tail = &(*tail)->next;
  *tail = std::move(adopted);
}

// orphans_update_pending: drops emptied tables, recomputes orphans_pending_.
template <class P, class Faults>
void Domain<P, Faults>::OrphansUpdatePending() {
  bool pending = false;
  std::unique_ptr<OrphanTable<P>>* p = &orphans_;
  while (*p) {
    ProfiledTable<P>& pt = (*p)->table;
    if (!Validated(pt)) pt.entries.ClearInactive();
    if (pt.entries.size() == 0) {
      std::unique_ptr<OrphanTable<P>> dead = std::move(*p);
      *p = std::move(dead->next);
    } else {
      pending |= pt.entries.active() < pt.entries.size();
      p = &(*p)->next;
    }
  }
  orphans_pending_ = pending;
}

}  // namespace mpo::memprof
