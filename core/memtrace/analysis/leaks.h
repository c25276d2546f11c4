// `memtrace leaks`: the blocks a trace allocated (in its window) and never collected (still
// live at the end of the trace, as memtrace_viewer defines them: a block collected after
// the window is not one), or live at the peak or at a time T (liveness.h), by allocation
// site: the leak candidates. Sites come from one TraceAnalysis (trace_analysis.h, its
// attribution rule); nothing is read again.
//
// JSON document (FormatLeaksJson), one object:
//   "trace": the trace (analysis_text.h), "window": {"from_s","to_s"|null},
//   "damage": null | where the read stopped at damage (analysis_text.h),
//   "live_at": {"at": "end"|"peak"|"time", "t_s", "heap": every block live then, window
//              or not}, "peak": null | {"t_s","blocks","samples","words","est_bytes"}
//              (liveness_text.h),
//   "live": {"blocks","samples","words","est_bytes"}: the window's blocks live at "t_s",
//   "sites_with_live_blocks": N (before --top),
//   "sites": [SITE] most live estimated bytes first, at most `top`; SITE as stats' (the
//            tally of the site's allocations in the window, then "live_blocks",
//            "live_samples", "live_words", "live_est_bytes": those live at "t_s").
// Member names: tools/JSON.md.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/memtrace/analysis/trace_analysis.h"

namespace mpo::memtrace::analysis {

// The sites with live blocks, most live samples (estimated bytes) first, then by name;
// at most `top`.
std::vector<const Site*> LeakSites(const TraceAnalysis& a, std::size_t top);

std::string FormatLeaks(const TraceAnalysis& a, const std::string& file, std::size_t top);
std::string FormatLeaksJson(const TraceAnalysis& a, const std::string& file, std::size_t top);

}  // namespace mpo::memtrace::analysis
