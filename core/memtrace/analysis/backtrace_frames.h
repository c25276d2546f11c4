// The one order of an allocation's frames, used by everything that reads a backtrace as a
// call stack: `memtrace folded` and the report's flame graphs (collapsed or not), the
// allocation site and its `<-` caller chain (stats, leaks, compare, report, demo).
//
// The frames of a backtrace run from the outermost caller to the allocation point: its
// entries in the order the reader gives them (caller first, allocation site last), each
// entry's inlined frames in the order stored. memtrace stores a location's frames
// outermost first: its writer walks OCaml's slot chain (innermost inlined frame first, as
// Printexc gives it) and reverses the list before encoding it, and its reader hands it back
// unchanged. So the function the others were inlined into comes first and the frame that
// allocated comes last (memtrace's test trace: `X86_proc.generate_code` then the
// `Stdlib__list.rev` inlined into it), and memtrace 0.2.3's flamegraph.exe and dump_trace
// print them in that order.
//
// The allocation site is the innermost frame, the last of that order; its callers are the
// frames before it, nearest first, inlined frames counting as callers. Entries without
// frames (C and runtime frames memtrace could not name) contribute none.
#pragma once

#include <span>

#include "core/memtrace/location_codec.h"
#include "core/memtrace/ocaml_int.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace::analysis {

// The frames of one backtrace entry, outermost first (none for a code without frames or
// one no location event defined).
inline std::span<const CompactFrame> EntryFrames(const TraceReader& reader, OcamlInt code) {
  bool found;
  return reader.CompactFramesOf(code, &found);
}

// Calls visit(frame) for the frames of `backtrace` from the allocation point outwards (the
// order above, reversed) while visit returns true.
template <typename Visit>
void VisitFramesInnermostFirst(const TraceReader& reader, std::span<const OcamlInt> backtrace,
                               Visit visit) {
  for (auto e = backtrace.rbegin(); e != backtrace.rend(); ++e) {
    const std::span<const CompactFrame> frames = EntryFrames(reader, *e);
    for (auto f = frames.rbegin(); f != frames.rend(); ++f)
      if (!visit(*f)) return;
  }
}

}  // namespace mpo::memtrace::analysis
