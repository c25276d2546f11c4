// The engine's C-heap allocations (caml_stat_alloc in runtime/memprof.c) and a gate
// that may refuse them, so that tests can drive every out-of-memory recovery path
// deterministically.
//
// Each site and what the engine does when its allocation is refused (as OCaml does):
//   kEntries       growing an entries table: a new sample is dropped (no entry, no
//                  callback); a transfer leaves the entries where they were (or, for
//                  an ending thread, loses them). Shrinking never asks: it cannot fail.
//   kCallstack     capturing a callstack (the per-domain buffer; outside OCaml code
//                  also the stash): the sample is kept with an empty callstack.
//   kOrphanTable   a table for orphaned entries: Start fails with Out_of_memory and
//                  changes nothing; an ending domain loses its entries.
//   kThread        a thread's state: the thread cannot be created.
//   kDomain        a domain's state: the domain cannot be created.
//
// Threading: the gate is process-wide (like the C heap) and may be asked from any
// domain; an implementation used by real threads must synchronise itself.
#pragma once

#include <cstdint>

namespace mpo::memprof {

enum class CHeapSite : std::uint8_t { kEntries, kCallstack, kOrphanTable, kThread, kDomain };
inline constexpr int kCHeapSiteCount = 5;

class CHeapGate {
 public:
  virtual ~CHeapGate() = default;
  // True when the allocation at `site` may proceed.
  virtual bool Allow(CHeapSite site) = 0;
};

// Asks `gate` (null: the C heap never runs out).
inline bool CHeapAllows(CHeapGate* gate, CHeapSite site) {
  return gate == nullptr || gate->Allow(site);
}

}  // namespace mpo::memprof
