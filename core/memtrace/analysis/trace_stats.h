// `memtrace stats`: totals, rates, lifetimes, the top allocation sites and the estimated
// live heap over time of a trace (or of a time window of it).
//
// Figures come from one analysis::TraceAnalysis pass (analysis/trace_analysis.h: its
// attribution rule, window and estimated bytes); this file ranks and prints them.
// Sizes are estimated bytes (samples / sample_rate * word_size / 8); the sites table
// ranks by them, by samples or by sampled words (SiteRank).
//
// JSON document (FormatTraceStatsJson), one object:
//   "trace": {"file","version","executable_name","host_name","pid","sample_rate",
//             "word_size","start_time_us","duration_s"},
//   "window": {"from_s","to_s"|null},
//   "damage": null | {"offset","events_read","error","message"}: where the read stopped
//             at damage (analysis_text.h); the figures cover the events before it,
//   "allocated": {"blocks","samples","words","est_bytes"}, with "minor","major","external"
//   block counts in "sources": {...},
//   "promotes", "collects": counts (of blocks allocated in the window),
//   "live_at_end": {"blocks","samples","words","est_bytes"} (null with a --live-at other
//                  than the end),
//   "live_at": {"at","t_s","heap"}: the asked time (liveness_text.h),
//   "peak": null | {"t_s","blocks","samples","words","est_bytes"}: the live heap's maximum
//           over the whole trace and the first time it is reached (analysis/liveness.h),
//   "lifetimes_us": null | {"count","mean","median","p90","max","promoted_before_collection"}
//                   (median and p90 within 0.4% past 65,536 collections:
//                   analysis/lifetime_summary.h),
//   "by": "bytes" | "samples" | "words",
//   "sites_by": "allocated" | "live": the table ranks the allocations (default) or, with
//               `by_live` (--live-at), the blocks live at the asked time: then it lists only
//               the sites with such blocks, by their samples or words,
//   "sites": [{"site": S|null, "callers": [S...], "blocks", "samples", "words",
//              "est_bytes", "live_blocks", "live_samples", "live_words",
//              "live_est_bytes"}] (at most top; live_*: of the blocks allocated in the
//              window and live at the asked time; analysis_text.h's WriteSite),
//   "sites_total": N (every site), "sites_live_total": N (those with live blocks),
//   "timeline": [{"t_s", "live_est_bytes", "min_est_bytes", "max_est_bytes"}] (the
//               estimated live heap at the end of each step, t_s from the trace start,
//               and the least and the most it held in the step).
// Member names: tools/JSON.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/event.h"
#include "core/memtrace/limits.h"
#include "core/memtrace/progress.h"

namespace mpo::memtrace {

using analysis::SaturatingSub;

// What ranks the sites table: estimated bytes, samples (the same order: a trace's
// estimated bytes are its samples times one constant) or sampled words (which
// over-weight large blocks). The same values as folded's FoldedWeight.
enum class SiteRank : std::uint8_t { kBytes, kSamples, kWords };
const char* SiteRankName(SiteRank r);  // "bytes", "samples", "words"

struct StatsOptions {
  std::size_t top = 10;
  SiteRank by = SiteRank::kBytes;
  // Rank (and list only) the sites by their blocks live at analysis.live_at.
  bool by_live = false;
  analysis::AnalysisOptions analysis;
};

struct TraceStats {
  Info info;
  int version = 0;
  std::uint64_t duration_us = 0;  // last event time - start time (whole trace)
  std::uint64_t blocks = 0, promotes = 0, collects = 0, samples = 0, words = 0;
  double est_bytes = 0;
  std::uint64_t by_source[3] = {0, 0, 0};  // minor, major, external
  std::uint64_t live_at_end = 0, live_samples = 0, live_words = 0;
  double live_est_bytes = 0;
  // Collected objects: lifetimes in us (count 0: none).
  std::uint64_t lifetimes = 0;
  double lifetime_mean = 0;
  std::int64_t lifetime_median = 0, lifetime_p90 = 0, lifetime_max = 0;
  // false past 65,536 collections: median and p90 are then within 0.4% (printed "~N";
  // analysis/lifetime_summary.h); count, mean and max are always exact.
  bool lifetime_quantiles_exact = true;
  std::uint64_t collected_promoted = 0;
  std::size_t sites = 0;
  std::size_t live_sites = 0;  // sites with blocks live at the asked time
  SiteRank by = SiteRank::kBytes;
  bool by_live = false;
  // The table: at most `top` indexes into analysis.sites, ranked `by` (their allocations,
  // or with by_live their blocks live at the asked time).
  std::vector<std::size_t> top;
  // The pass the figures come from: window, timeline, every site (ranked by estimated bytes).
  analysis::TraceAnalysis analysis;
};

Result<TraceStats> ComputeTraceStats(ByteSource& source, const StatsOptions& options);
Result<TraceStats> ComputeTraceStats(ByteSource& source, std::size_t top, const Limits& limits = {},
                                     const ProgressFn& progress = {});

// The report `memtrace stats` prints; `name` is the trace's path.
std::string FormatTraceStats(const TraceStats& s, const std::string& name);
// The JSON document above, newline-terminated.
std::string FormatTraceStatsJson(const TraceStats& s, const std::string& name);

}  // namespace mpo::memtrace
