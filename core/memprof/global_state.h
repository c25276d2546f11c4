// The process-wide part of the memprof engine: the global orphans list, profile
// numbering and the C heap gate, plus Gc.Memprof.discard (which any domain may call).
//
// Threading: shared by every domain; the orphans list and profile ids are synchronised
// over the sync platform P (orphans.h, profile.h), the gate is set before domains exist.
#pragma once

#include <cstdint>

#include "core/base/status.h"
#include "core/memprof/c_heap.h"
#include "core/memprof/orphans.h"
#include "core/memprof/profile.h"
#include "core/memprof/profiled_table.h"
#include "core/sync/memory_order.h"

namespace mpo::memprof {

template <class P>
class Engine {
 public:
  // Every later engine allocation asks `gate` first (null: never refused). Set it before
  // creating domains; the gate must outlive the engine's tables.
  void set_c_heap_gate(CHeapGate* gate) { gate_ = gate; }
  CHeapGate* c_heap_gate() const { return gate_; }
  using Orphans = GlobalOrphans<P, OrphanTable<P>>;
  Orphans& orphans() { return orphans_; }
  std::uint64_t NextProfileId() {
    return next_profile_id_.FetchAdd(1, sync::MemoryOrder::kRelaxed);
  }

 private:
  // Tables of ended domains, until a domain adopts them all.
  Orphans orphans_;
  // The next Profile::id; ids start at 1 and are never reused.
  typename P::template Atomic<std::uint64_t> next_profile_id_{1};
  CHeapGate* gate_ = nullptr;
};

// Gc.Memprof.discard. Any thread of any domain may call it.
template <class P>
Status Discard(const ProfileRef<P>& profile) {
  if (!profile) return Status(ErrorCode::kInvalidArgument, "Gc.Memprof.discard: no profile");
  return DiscardProfile(*profile);
}

}  // namespace mpo::memprof
