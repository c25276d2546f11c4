// How every analysis output prints liveness (liveness.h): the asked time, the peak and
// the live-heap timeline, as text and as the JSON members stats, leaks and the report
// share; and durations in human units.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/json_writer.h"
#include "core/memtrace/analysis/trace_analysis.h"

namespace mpo::memtrace::analysis {

// "850 us", "12.5 ms", "3.20 s", "2 min 5 s", "1 h 02 min" (three significant figures
// below a minute).
std::string DurationText(double us);

// Members of the object `w` is in (names: tools/JSON.md):
// "live_at":{"at":"end"|"peak"|"time","t_s":X,"heap":TALLY}: the asked time, resolved
// (t_s from the trace start), and every block live then, window or not (TALLY as
// analysis_text.h's WriteTally).
void WriteLiveAtMember(JsonWriter& w, const TraceAnalysis& a);
// "peak":null|{"t_s":X,"blocks":N,"samples":N,"words":N,"est_bytes":X}.
void WritePeakMember(JsonWriter& w, const TraceAnalysis& a);
// "timeline":[{"t_s":X,"live_est_bytes":X,"min_est_bytes":X,"max_est_bytes":X}].
void WriteTimelineMember(JsonWriter& w, const TraceAnalysis& a);

// "est. 144 B at 0.000050 s (3 blocks)", or "none (no sampled allocation)".
std::string PeakText(const TraceAnalysis& a);
// How leaks says when its blocks are live: "never collected" (at the end), "still live
// at the peak (0.000050 s)", "still live at 0.000040 s".
std::string LiveAtPhrase(const TraceAnalysis& a);

}  // namespace mpo::memtrace::analysis
