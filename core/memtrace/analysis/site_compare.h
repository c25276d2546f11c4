// `memtrace compare A B`: which allocation sites grew or shrank from trace A to trace B,
// in estimated bytes allocated (each trace's samples under its own rate and word size,
// so traces sampled at different rates compare fairly). Sites are matched by their
// rendered frames (and callers'), since location codes are addresses that differ
// between runs.
//
// With `live` (--live-at), the measure is instead the blocks allocated in the window and
// live at each trace's asked time (AnalysisOptions::live_at, the same for both: the end,
// each one's own peak, or T; liveness.h): "allocs" then counts those blocks.
//
// JSON document (FormatCompareJson), one object:
//   "measure": "allocated" | "live",
//   "a", "b": {"file", "version", "sample_rate", "allocs", "samples", "est_bytes",
//              "live_at": {"at","t_s","heap"} (liveness_text.h), "damage"} ("damage": null,
//              or where the trace's read stopped at damage: analysis_text.h),
//   "window": {"from_s","to_s"|null} (the same for both traces),
//   "change_est_bytes": B's total - A's,
//   "grew", "shrank", "new", "gone", "same": site counts,
//   "sites": [{"site": S|null, "callers": [S...], "status": "grew"|"shrank"|"new"|"gone"|
//              "same", "a_allocs", "b_allocs", "a_est_bytes", "b_est_bytes",
//              "change_est_bytes"}] largest absolute change first, at most `top`.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/memtrace/analysis/trace_analysis.h"

namespace mpo::memtrace::analysis {

struct SiteChange {
  const Site* a = nullptr;  // nullptr: the site is new in B
  const Site* b = nullptr;  // nullptr: the site is gone from B
  double a_bytes = 0, b_bytes = 0;
  double change() const { return b_bytes - a_bytes; }
  const char* status() const;  // "grew", "shrank", "new", "gone", "same"
};

// Every site of either trace (with `live`: with live blocks in either), largest absolute
// change first, then by name.
std::vector<SiteChange> CompareSites(const TraceAnalysis& a, const TraceAnalysis& b,
                                     bool live = false);

std::string FormatCompare(const TraceAnalysis& a, const std::string& a_file, const TraceAnalysis& b,
                          const std::string& b_file, std::size_t top, bool live = false);
std::string FormatCompareJson(const TraceAnalysis& a, const std::string& a_file,
                              const TraceAnalysis& b, const std::string& b_file, std::size_t top,
                              bool live = false);

}  // namespace mpo::memtrace::analysis
