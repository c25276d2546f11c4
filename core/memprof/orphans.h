// The global orphans list (runtime/memprof.c, design §1.5 and §2): entries tables left
// by terminated domains, waiting for the first domain that looks to adopt them all.
//
// The list is the only memprof state shared between domains besides profile statuses.
// A lock guards the list; a "present" flag, written only while holding the lock, lets a
// domain skip the lock when there is nothing to adopt. A table is on the list only
// after its domain has ended, and is processed only after adoption, so its contents are
// never touched by two domains.
//
// `Node` is any list node with `std::unique_ptr<Node> next`. Written over the sync
// platform P. `Faults`: the fault policy (core/base/faults.h), here rather than in
// faults.h so that the Relacy models need this target alone; their mutants of it
// (models/memprof/orphans_model.cc) must each be caught.
#pragma once

#include <cstdint>
#include <memory>

#include "core/sync/memory_order.h"

namespace mpo::memprof {

struct OrphansNoFaults {
  // Adopt takes the list under the lock.
  static constexpr bool kAdoptLocks = true;
  // Adopt clears "present" before releasing the lock.
  static constexpr bool kClearFlagInsideLock = true;
};

template <class P, class Node, class Faults = OrphansNoFaults>
class GlobalOrphans {
 public:
  GlobalOrphans() = default;
  ~GlobalOrphans() { std::unique_ptr<Node> drop(head_.Load()); }
  GlobalOrphans(const GlobalOrphans&) = delete;
  GlobalOrphans& operator=(const GlobalOrphans&) = delete;

  // Appends a whole list (ownership passes to this object).
  void Abandon(std::unique_ptr<Node> list) {
    if (!list) return;
    Node* tail = list.get();
    while (tail->next) tail = tail->next.get();
    typename P::Lock lock(mutex_);
    tail->next.reset(head_.Load());
    head_.Store(list.release());
    present_.Store(1, sync::MemoryOrder::kRelease);
  }

  // Takes every abandoned table (null when there are none).
  std::unique_ptr<Node> Adopt() {
    if (present_.Load(sync::MemoryOrder::kAcquire) == 0) return nullptr;
    if constexpr (!Faults::kAdoptLocks) {
      std::unique_ptr<Node> taken(head_.Load());
      head_.Store(nullptr);
      present_.Store(0, sync::MemoryOrder::kRelease);
      return taken;
    } else {
      std::unique_ptr<Node> taken;
      {
        typename P::Lock lock(mutex_);
        taken.reset(head_.Load());
        head_.Store(nullptr);
        if (Faults::kClearFlagInsideLock && taken) present_.Store(0, sync::MemoryOrder::kRelease);
      }
      if (!Faults::kClearFlagInsideLock && taken) present_.Store(0, sync::MemoryOrder::kRelease);
      return taken;
    }
  }

  // True when a table may be waiting (a hint: a racing Adopt may empty the list).
  bool present() const { return present_.Load(sync::MemoryOrder::kAcquire) != 0; }

 private:
  typename P::Mutex mutex_;
  typename P::template Var<Node*> head_{nullptr};  // owning; guarded by mutex_
  typename P::template Atomic<std::uint32_t> present_{0};
};

}  // namespace mpo::memprof
