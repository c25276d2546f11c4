// memtrace trace -> folded stacks, the input of flamegraph.pl and speedscope:
//   frame;frame;...;frame COUNT
// one line per distinct stack, caller first, allocation site last, lines sorted by stack.
//
// Frames: each backtrace entry (a location code) stands for one or more frames, written in
// the one order of core/memtrace/analysis/backtrace_frames.h (caller first, each entry's
// inlined frames outermost first, as memtrace stores them and its flamegraph.exe prints
// them). A frame is written "defname (file:line)", or
// "defname" with `functions`; ';' and newlines in names become '_' (they would split the
// line). An entry whose location event holds no frame (a C or runtime frame memtrace
// could not name, typically the outermost entry) contributes no frame: it is not a
// caller anyone can read, and rendering it as "$CODE" put a meaningless root under
// every stack. An allocation with no frame at all (no backtrace, or only such entries) is
// the line "<no backtrace>", as analysis/trace_analysis.h attributes it. The trace is read
// through the decoded view (core/memtrace/view/trace_view.h): a code no location event
// defined is its typed error, kCorrupt "backtrace: location code" at the event that uses it.
// `collapse_recursion`: a frame equal to its caller's (as written, so with `functions` a
// function calling itself at any line) is dropped, so direct recursion is one frame
// (collapse_recursion.h, the rule the report's collapsed flame graph also applies).
// Counts: `kSamples` sums nsamples (memtrace's samples), `kWords` sums the sampled blocks'
// lengths in words (as `memtrace stats --by words` does), `kBytes` the estimated bytes
// (samples / sample_rate * word_size / 8, rounded per stack). Stacks whose count is 0 are
// omitted. A window (from_us/to_us, microseconds since the trace start) counts only the
// allocations whose time is inside it; one starting after the last event is an error
// (analysis::CheckWindowStart), before any output.
// External allocations end at the frame that called memtrace's tracer, not in the
// tracer's own frames (core/memtrace/analysis/site_attribution.h, the sites' rule).
// `live_at`: only the allocations (in the window) whose blocks are live at that time
// (core/memtrace/analysis/liveness.h: allocated at or before T, not collected at or before
// T; the end: never collected; the peak: found by a first pass, AnalyzeTrace's). A time
// after the last event is kInvalidArgument naming "--live-at", before any output. Memory
// then grows with the blocks live at once, as the analysis's does.
// Damage: with `damage` set, damage (analysis::IsDamage: a truncated packet, a decoding
// error after some events) ends the read there; the stacks read so far are written and
// *damage says where the read stopped (analysis/trace_analysis.h).
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
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/base/text_sink.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/limits.h"

namespace mpo::exporter {

enum class FoldedWeight : std::uint8_t { kSamples, kWords, kBytes };

struct FoldedOptions {
  FoldedWeight weight = FoldedWeight::kSamples;
  bool functions = false;           // frames named by function only, without file:line
  bool collapse_recursion = false;  // a frame equal to its caller's is dropped
  std::int64_t from_us = 0;         // the window, since the trace start (inclusive)
  std::int64_t to_us = std::numeric_limits<std::int64_t>::max();
  memtrace::Limits limits;
  std::optional<memtrace::analysis::LiveAt> live_at;  // unset: every allocation
  // Not null: stop at damage instead of failing, and say so here (nullopt: none met).
  std::optional<memtrace::analysis::Damage>* damage = nullptr;
};

// Writes the folded text of the trace in `source` to `out`.
Status WriteFoldedStacks(memtrace::ByteSource& source, const FoldedOptions& options, TextSink& out);
Status WriteFoldedStacks(memtrace::ByteSource& source, FoldedWeight weight, TextSink& out,
                         const memtrace::Limits& limits = {});

// The same, as one string (tests and small traces).
Result<std::string> FoldedStacks(std::unique_ptr<memtrace::ByteSource> source, FoldedWeight weight,
                                 const memtrace::Limits& limits = {});

}  // namespace mpo::exporter
