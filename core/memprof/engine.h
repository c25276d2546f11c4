// The Gc.Memprof engine of OCaml 5 (runtime/memprof.c): profiles, per-thread and
// per-domain entries tables, orphans, sampling, callbacks and the GC interface.
// This header gathers its parts:
//   entries.h         an entries table (one record per tracked block) and its hints
//   profile.h         a profile: configuration and the shared status
//   profiled_table.h  a table with its profile; validation; orphan table nodes
//   thread_state.h    a systhread's state
//   global_state.h    the process-wide part (Engine: global orphans) and Discard
//   domain.h          a domain's state and entry points, with domain_callbacks.h,
//                     domain_gc.h and domain_orphans.h
//
//   Engine<StdPlatform> engine;                       // the process-wide part (orphans)
//   Domain<StdPlatform> d(engine, hooks, /*id=*/0);   // one per OCaml domain
//   auto profile = d.Start(1e-4, 16, tracker);        // Gc.Memprof.start
//   d.SampleYoung(...) / d.SampleBlock(...)           // from the runtime's allocator
//   d.RunCallbacks();                                 // at poll points
//   d.AfterMinorGc(fate) / d.AfterMajorGc(alive)      // from the collector
//
// Threading: a Domain and its threads are used by one OS thread at a time (OCaml's
// domain lock); domains run in parallel and share only the Engine's orphan list and
// profile statuses, both written over the sync platform P. Callbacks run on the calling
// thread, never nested (sampling is suspended meanwhile), and may re-enter the Domain
// (Start, Stop, Discard, allocations).
//
// Failure: typed errors for Start/Stop/Discard misuse (OCaml's exact messages); a
// callback's exception is returned to the caller (Raised). C-heap exhaustion (see
// c_heap.h; injected through Engine::set_c_heap_gate) takes OCaml's recovery paths:
// samples dropped, entries left in place or lost, Start failing with Out_of_memory.
#pragma once

#include "core/memprof/domain.h"        // IWYU pragma: export
#include "core/memprof/global_state.h"  // IWYU pragma: export
