// memtrace trace -> folded stacks, the input of flamegraph.pl and speedscope:
//   frame;frame;...;frame COUNT
// one line per distinct stack, caller first, allocation site last, lines sorted by stack.
//
// Frames: each backtrace entry (a location code) stands for one or more frames; memtrace
// stores them as OCaml's backtrace slots give them, innermost (inlined) first, so they are
// reversed to keep caller-first order. A frame is written "defname (file:line)"; ';' and
// newlines in names become '_' (they would split the line). A code without locations
// is "<unknown CODE>"; an allocation without backtrace is "<no backtrace>".
// Counts: `kSamples` sums nsamples (memtrace's samples), `kWords` sums the sampled blocks'
// lengths in words (as `memtrace stats` does). Stacks whose count is 0 are omitted.
// Failure: the reader's typed error; nothing is written then (the caller prints it).
// Memory: one entry per distinct stack.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"
#include "core/memtrace/byte_io.h"

namespace mpo::exporter {

enum class FoldedWeight : std::uint8_t { kSamples, kWords };

// The folded text of the trace in `source`.
Result<std::string> FoldedStacks(std::unique_ptr<memtrace::ByteSource> source, FoldedWeight weight);

}  // namespace mpo::exporter
