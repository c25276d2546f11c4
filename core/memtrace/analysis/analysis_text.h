// The pieces every analysis output shares, so that stats, leaks, compare and the report
// print sizes, sites and traces alike: estimated bytes as text ("1.50 MiB"), and the JSON
// members naming a trace, a window and a site.
#pragma once

#include <optional>
#include <string>

#include "core/memtrace/analysis/trace_analysis.h"

namespace mpo::memtrace::analysis {

// "512 B", "1.50 KiB", "15.0 KiB", "150 KiB", "0.98 MiB" (binary units, three significant
// figures above bytes, never "1000.00 KiB");
// a negative size gets a '-', `sign` puts a '+' before a positive one.
std::string BytesText(double bytes, bool sign = false);

// A site's name for text: its frames, or "<no backtrace>" for allocations without frames.
std::string SiteText(const Site& s);
// Its callers for text, nearest first, joined by " <- " (empty without callers).
std::string CallersText(const Site& s);

// `"trace":{"file":S,"version":N,"executable":S,"pid":N,"sample_rate":X,"word_size":N,
// "start_time_us":N,"duration_s":X}` without braces around it.
void AppendTraceMember(std::string& out, const std::string& file, const TraceAnalysis& a);
// `"window":{"from_s":X,"to_s":X|null}` (to_s null: to the end of the trace).
void AppendWindowMember(std::string& out, const TraceAnalysis& a);
// `"site":S|null,"callers":[S,...]` (null: allocations without frames).
void AppendSiteMembers(std::string& out, const Site& s);
// `{"blocks":N,"samples":N,"words":N,"est_bytes":X}`.
void AppendTallyJson(std::string& out, const Tally& t, const Info& info);

// `"damage":null|{"offset":N,"events_read":N,"error":ERROR,"message":S}`: where a read
// stopped at damage (TraceAnalysis::damage), ERROR the schema 2 error object
// (core/base/view_json.h) and "message" its text.
void AppendDamageMember(std::string& out, const std::optional<Damage>& d);
// The warning a command prints for damage it stopped at, without a newline:
// "FILE: stopped at byte N (ERROR): figures cover the N events before it".
std::string DamageText(const std::string& file, const Damage& d);

// The window as text: "" for the whole trace, else " in [F s, T s]".
std::string WindowText(const TraceAnalysis& a);

}  // namespace mpo::memtrace::analysis
