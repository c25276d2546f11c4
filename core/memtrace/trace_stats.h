// `memtrace stats`: totals, rates, lifetimes and the top allocation sites of a trace.
//
// Streaming over the decoded view's events (view/trace_view.h: a backtrace entry whose code
// no location event defined is its typed error); memory grows with the allocation sites and the
// objects still live (both bounded by the input's size) and with the rendered names of the top
// sites (bounded by Limits::max_location_bytes). Times are differences of trace times
// computed without overflow: the duration is exact (events never precede the trace
// start), a lifetime saturates at the int64 range (v3 may collect on another domain
// before the allocation's time).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/event.h"
#include "core/memtrace/limits.h"
#include "core/memtrace/text_dump.h"

namespace mpo::memtrace {

struct SiteStats {
  OcamlInt code = 0;  // the allocation site: the last backtrace entry
  std::uint64_t allocs = 0;
  std::uint64_t samples = 0;
  std::uint64_t words = 0;
  std::string frames;           // the frames, space-separated, or "$N" (no frames): SiteName
  std::uint64_t first_use = 0;  // the offset of the first event allocating here
};

struct TraceStats {
  Info info;
  int version = 0;
  std::uint64_t duration_us = 0;  // last event time - start time
  std::uint64_t allocs = 0, promotes = 0, collects = 0, samples = 0, words = 0;
  std::uint64_t by_source[3] = {0, 0, 0};  // minor, major, external
  std::uint64_t live_at_end = 0;
  // Collected objects: lifetimes in us (count 0: none).
  std::uint64_t lifetimes = 0;
  double lifetime_mean = 0;
  std::int64_t lifetime_median = 0, lifetime_p90 = 0, lifetime_max = 0;
  std::uint64_t collected_promoted = 0;
  std::vector<SiteStats> top_by_samples;  // at most `top` each
  std::vector<SiteStats> top_by_words;
};

// `a - b` clamped to the int64 range.
std::int64_t SaturatingSub(std::int64_t a, std::int64_t b);

Result<TraceStats> ComputeTraceStats(ByteSource& source, std::size_t top, const Limits& limits = {},
                                     const ProgressFn& progress = {});

// The report `memtrace stats` prints; `name` is the trace's path.
std::string FormatTraceStats(const TraceStats& s, const std::string& name);

}  // namespace mpo::memtrace
