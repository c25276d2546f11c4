// `memtrace report`: one self-contained HTML page about a trace (no network: inline CSS
// and script, no external fonts or images). Its figures are those of one
// analysis::TraceAnalysis (so they equal `memtrace stats --json`'s) and two bounded flame
// trees (flame_tree.h): the folded stacks as they are, with recursion collapsed, inverted
// (bottom-up), and those of the blocks live at the asked time. The page's script draws
// the sortable tables, bars, the live-heap chart and the interactive flame graphs from
// them (a "collapse recursion" box switches the first between its two trees; a search box
// highlights a function's boxes in all of them).
//
// The data is one JSON object in <script type="application/json" id="report-data">:
//   "trace": as stats' (analysis_text.h), "window": {"from_s","to_s"|null},
//   "damage": null | where the read stopped at damage (analysis_text.h),
//   "events_in_window": N, "allocated", "live": {"blocks","samples","words","est_bytes"}
//   (the window's blocks live at the asked time), "live_at", "peak" (liveness_text.h),
//   "sites_total": N, "sites": [{"site": S|null, "callers": [S...],
//   "blocks","samples","words","est_bytes","live_blocks","live_samples","live_words",
//   "live_est_bytes"}] (at most top; as stats' sites),
//   "leak_sites_total": N, "leaks": [SITE] (the same objects, as leaks' sites; at most
//   top),
//   "timeline": [{"t_s","live_est_bytes","min_est_bytes","max_est_bytes"}], "flame":
//   {"n","v","c":[...]} in samples, "flame_collapsed": the same with recursion collapsed,
//   "flame_inverted": the same stacks read from the allocation point back to the outermost
//   caller (inverted_flame.h), "flame_live": the stacks of the window's blocks live at the
//   asked time ("live_at"), "bytes_per_sample": X. External allocations are the tracer's
//   caller's in every tree and table (analysis/site_attribution.h).
// Member names: tools/JSON.md. Every '<' in the JSON text is written \u003c, so no string
// ("</script>" in a location) can end the block early; the JSON reads back the same.
#pragma once

#include <cstddef>
#include <string>

#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/report/flame_tree.h"

namespace mpo::memtrace::report {

// The flame graphs' trees: `stacks` from folded stacks as they are, `collapsed` from
// the same stacks with recursion collapsed (folded's collapse_recursion rule; made from
// the first in memory, collapsed_flame.h), `inverted` the first bottom-up
// (inverted_flame.h), `live` from the folded stacks of the blocks live at the asked time.
struct FlameTrees {
  FlameTree stacks;
  FlameTree collapsed;
  FlameTree inverted;
  FlameTree live;
};

// The data block's JSON (before its '<' escaping).
std::string ReportDataJson(const analysis::TraceAnalysis& a, const std::string& file,
                           const FlameTrees& flame, std::size_t top);

// The whole page.
std::string FormatHtmlReport(const analysis::TraceAnalysis& a, const std::string& file,
                             const FlameTrees& flame, std::size_t top);

}  // namespace mpo::memtrace::report
