// memtrace trace -> folded stacks, the input of flamegraph.pl and speedscope:
//   frame;frame;...;frame COUNT
// one line per distinct stack, caller first, allocation site last, lines sorted by stack.
//
// Frames: each backtrace entry (a location code) stands for one or more frames; memtrace
// stores them as OCaml's backtrace slots give them, innermost (inlined) first, so they are
// reversed to keep caller-first order. A frame is written "defname (file:line)"; ';' and
// newlines in names become '_' (they would split the line). A code whose location event
// holds no frame is "$CODE"; an allocation without backtrace is "<no backtrace>". The
// trace is read through the decoded view (core/memtrace/view/trace_view.h): a code no
// location event defined is its typed error, kCorrupt "backtrace: location code" at the
// event that uses it.
// Counts: `kSamples` sums nsamples (memtrace's samples), `kWords` sums the sampled blocks'
// lengths in words (as `memtrace stats` does). Stacks whose count is 0 are omitted.
//
// Linear in the input: stacks are kept as a tree of frames (one node per distinct
// (caller stack, frame)), and each event only walks the part of its backtrace past the
// common prefix it shares with the previous backtrace of its domain; a "staircase" of
// ever longer backtraces costs one node per step. Budgets (limits.h): tree nodes
// (max_held_frames, a node counting as two entries: it takes 32 bytes), rendered frame names
// (max_location_bytes), written text (max_output_bytes); the reader's own. Failure: the reader's
// typed error or a passed budget. Decoding errors come before any output; the output budget can
// stop a write part way (the lines so far stay).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/base/status.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/limits.h"
#include "core/memtrace/text_dump.h"

namespace mpo::exporter {

enum class FoldedWeight : std::uint8_t { kSamples, kWords };

// Writes the folded text of the trace in `source` to `out`.
Status WriteFoldedStacks(memtrace::ByteSource& source, FoldedWeight weight, memtrace::TextSink& out,
                         const memtrace::Limits& limits = {});

// The same, as one string (tests and small traces).
Result<std::string> FoldedStacks(std::unique_ptr<memtrace::ByteSource> source, FoldedWeight weight,
                                 const memtrace::Limits& limits = {});

}  // namespace mpo::exporter
