// A one-shot mailbox written against the sync layer: the smallest protocol that shows
// the layer compiles for Relacy and that Relacy catches a broken memory order.
//
// The producer writes a plain payload, then publishes a flag with kPublish order; the
// consumer reads the flag with kObserve order and, if set, the payload. With
// release/acquire (MailboxNoFaults, a fault policy: core/base/faults.h) the payload read
// happens-after the write. With relaxed on either side it races, and the model checker
// must say so.
#pragma once

#include "core/sync/memory_order.h"

namespace mpo::models {

struct MailboxNoFaults {
  static constexpr sync::MemoryOrder kPublish = sync::MemoryOrder::kRelease;
  static constexpr sync::MemoryOrder kObserve = sync::MemoryOrder::kAcquire;
};

template <class P, class Faults = MailboxNoFaults>
class Mailbox {
 public:
  void Put(int value) {
    payload_.Store(value);
    ready_.Store(1, Faults::kPublish);
  }
  // Returns the payload, or -1 when nothing was published yet.
  int TryTake() const {
    if (ready_.Load(Faults::kObserve) == 0) return -1;
    return payload_.Load();
  }

 private:
  typename P::template Var<int> payload_{0};
  typename P::template Atomic<int> ready_{0};
};

}  // namespace mpo::models
