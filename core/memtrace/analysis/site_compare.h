// `memtrace compare A B`: which allocation sites grew or shrank from trace A to trace B,
// in estimated bytes allocated (each trace's samples under its own rate and word size,
// so traces sampled at different rates compare fairly). Sites are matched by their
// rendered frames (and callers'), since location codes are addresses that differ
// between runs.
//
// Sampling noise. Each word is sampled independently at the trace's rate, so a site's
// sample count is (to a very good approximation) Poisson: its estimate's variance is the
// count times the square of one sample's worth (word size / rate). A change's z is its
// size over the standard deviation of the difference of the two estimates, each variance
// estimated from the observed count; a change with |z| < 2 (kNoiseZ) is one that sampling
// alone explains about 95% of the time, and is marked so. Two traces of one run at the
// same rate then show their few real differences apart from hundreds of noisy ones.
//
// With `live` (--live-at), the measure is instead the blocks allocated in the window and
// live at each trace's asked time (AnalysisOptions::live_at, the same for both: the end,
// each one's own peak, or T; liveness.h): "blocks" then counts those blocks.
//
// JSON document (FormatCompareJson), one object:
//   "measure": "allocated" | "live",
//   "a", "b": {"file", "version", "sample_rate", "blocks", "samples", "est_bytes",
//              "live_at": {"at","t_s","heap"} (liveness_text.h), "damage"} ("damage": null,
//              or where the trace's read stopped at damage: analysis_text.h),
//   "window": {"from_s","to_s"|null} (the same for both traces),
//   "change_est_bytes": B's total - A's,
//   "grew", "shrank", "new", "gone", "same": site counts,
//   "within_noise": how many of the grown, shrunk, new or gone sites have |z| < kNoiseZ,
//   "sites": [{"site": S|null, "callers": [S...], "status": "grew"|"shrank"|"new"|"gone"|
//              "same", "a_blocks", "b_blocks", "a_est_bytes", "b_est_bytes",
//              "change_est_bytes", "z", "within_noise"}] largest absolute change first,
//              at most `top` ("z": 0 for an unchanged site).
// Member names: tools/JSON.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/memtrace/analysis/trace_analysis.h"

namespace mpo::memtrace::analysis {

// Below this |z| a change is within sampling noise (two standard deviations).
inline constexpr double kNoiseZ = 2.0;

struct SiteChange {
  const Site* a = nullptr;  // nullptr: the site is new in B
  const Site* b = nullptr;  // nullptr: the site is gone from B
  double a_bytes = 0, b_bytes = 0;
  double z = 0;  // change / its standard deviation under sampling alone; 0 when unchanged
  double change() const { return b_bytes - a_bytes; }
  const char* status() const;  // "grew", "shrank", "new", "gone", "same"
  // A change (not "same") that sampling alone explains: |z| < kNoiseZ.
  bool within_noise() const;
};

// z of a change from `a_samples` at A's rate to `b_samples` at B's (word sizes and
// rates from each trace's info); 0 when both counts are 0.
double ChangeZ(std::uint64_t a_samples, const Info& a, std::uint64_t b_samples, const Info& b);

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
