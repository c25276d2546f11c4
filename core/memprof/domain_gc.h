// Domain, part 3: the GC interface (caml_memprof_scan_roots, after_minor_gc,
// after_major_gc). Every pass first adopts global orphans, then walks every table whose
// profile is not discarded: the domain's, its threads', its orphans'. Minor-GC passes
// start at each table's `young` index, so they cost the young entries only.
// Included by domain.h.
#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include "core/memprof/domain.h"

namespace mpo::memprof {

template <class P, class Faults>
template <class ValueVisitor, class BlockVisitor>
void Domain<P, Faults>::ScanRoots(bool young_only, bool weak, ValueVisitor&& visit_value,
                                  BlockVisitor&& visit_block) {
  AdoptOrphans();
  std::vector<const Profile<P>*> scanned;
  ApplyToAll(
      young_only,
      [&](Entry& e) {
        // A stashed callstack is C memory, not a value; deleted and running entries
        // hold no data (0).
        if (Faults::kScanUserDataRoots && !e.stashed()) visit_value(e.user_data);
        if (weak && !e.offset() && e.block != kNoBlock) visit_block(e.block);
        return false;
      },
      [&](ProfiledTable<P>& pt) {
        if constexpr (!Faults::kScanTrackerRoots) return;
        Profile<P>* config = pt.config.get();
        if (std::find(scanned.begin(), scanned.end(), config) != scanned.end()) return;
        scanned.push_back(config);
        for (UserData& root : config->roots()) visit_value(root);
      });
}

template <class P, class Faults>
void Domain<P, Faults>::AfterMinorGc(const MinorFate& fate) {
  AdoptOrphans();
  ApplyToAll(
      true,
      [&](Entry& e) {
        if (e.offset() || e.block == kNoBlock || !hooks_.IsYoung(e.block)) return false;
        if (std::optional<BlockAddr> moved = fate(e.block)) {
          e.block = *moved;
          e.Set(entry_bits::kPromoted, true);
        } else {
          e.block = kNoBlock;
          e.Set(entry_bits::kDeallocated, true);
        }
        return true;
      },
      [](ProfiledTable<P>& pt) { pt.entries.MarkAllOld(); });
  OrphansUpdatePending();
  SetActionPendingAsNeeded();
}

template <class P, class Faults>
void Domain<P, Faults>::AfterMajorGc(const std::function<bool(BlockAddr)>& alive) {
  AdoptOrphans();
  ApplyToAll(false, [&](Entry& e) {
    if (e.offset() || e.block == kNoBlock || hooks_.IsYoung(e.block)) return false;
    if (Faults::SurvivesMajorGc(alive, e.block)) return false;
    e.block = kNoBlock;
    e.Set(entry_bits::kDeallocated, true);
    return true;
  });
  OrphansUpdatePending();
  SetActionPendingAsNeeded();
}

template <class P, class Faults>
template <class Action, class Finish>
void Domain<P, Faults>::ApplyToAll(bool young_only, Action&& action, Finish&& finish) {
  auto apply = [&](ProfiledTable<P>& pt) {
    if (!Validated(pt)) return;
    EntriesTable& es = pt.entries;
    for (std::size_t i = young_only ? es.young() : 0; i < es.size(); ++i) {
      if (action(es.at(i))) es.LowerActive(i);
    }
    finish(pt);
  };
  apply(table_);
  for (auto& thread : threads_) apply(thread->table_);
  for (OrphanTable<P>* ot = orphans_.get(); ot != nullptr; ot = ot->next.get()) apply(ot->table);
}

}  // namespace mpo::memprof
