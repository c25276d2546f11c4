// A systhread's memprof state (memprof_thread_s): its suspension flag, the callback it
// is running, and the entries it sampled but has not yet handed to its domain.
//
// Threading: owned by its Domain and touched only by the thread holding that domain.
#pragma once

#include <cstdint>
#include <utility>

#include "core/memprof/c_heap.h"
#include "core/memprof/entries.h"
#include "core/memprof/profiled_table.h"

namespace mpo::memprof {

template <class P, class Faults>
class Domain;

template <class P>
class ThreadState {
 public:
  ThreadState(std::uint32_t id, ProfileRef<P> config, CHeapGate* gate)
      : table_(kMinThreadCapacity, gate) {
    table_.config = std::move(config);
    running_.thread_id = id;
  }
  std::uint32_t id() const { return running_.thread_id; }
  bool suspended() const { return suspended_; }
  bool in_callback() const { return running_.table != nullptr; }
  const ProfiledTable<P>& table() const { return table_; }

 private:
  template <class, class>
  friend class Domain;
  // No sampling and no callbacks while set: the thread is running a callback, or the
  // engine is between rolling back and redoing a combined allocation.
  bool suspended_ = false;
  // The entry whose callback this thread runs (table null: none). The entry's `runner`
  // points back here, and table moves keep this slot right (entries.h).
  RunningSlot running_;
  // Entries sampled by this thread outside a callback's reach: allocation callbacks of
  // combined allocations run from here, then the entries move to the domain's table.
  // Its profile is the domain's, unless that was discarded (then the table is empty or
  // holds only the running entry).
  ProfiledTable<P> table_;
};

}  // namespace mpo::memprof
