// The pieces every analysis output shares, so that stats, leaks, compare and the report
// print sizes, sites and traces alike: estimated bytes as text ("1.50 MiB"), and the JSON
// members naming a trace, a window and a site.
#pragma once

#include <optional>
#include <string>

#include "core/base/json_writer.h"
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

// The JSON members every analysis document shares, written as members of the object `w`
// is in (member names: tools/JSON.md).
// "trace":{"file":S,"version":N,"executable_name":S,"host_name":S,"pid":N,
// "sample_rate":X,"word_size":N,"start_time_us":N,"duration_s":X} (the names of the
// trace info as memtrace and the schema 2 view have them; start_time in microseconds).
void WriteTraceMember(JsonWriter& w, const std::string& file, const TraceAnalysis& a);
// "window":{"from_s":X,"to_s":X|null} (to_s null: to the end of the trace).
void WriteWindowMember(JsonWriter& w, const TraceAnalysis& a);
// {"blocks":N,"samples":N,"words":N,"est_bytes":X}: a tally, as a value.
void WriteTally(JsonWriter& w, const Tally& t, const Info& info);
// "site":S|null,"callers":[S,...]: a site's name (null: allocations without frames) and
// its callers, nearest first.
void WriteSiteNameMembers(JsonWriter& w, const Site& s);
// A site, as a value: {its name members, then the tally of its allocations in the window
// ("blocks","samples","words","est_bytes") and of those live at the asked time
// ("live_blocks","live_samples","live_words","live_est_bytes")}.
void WriteSite(JsonWriter& w, const Site& s, const Info& info);
// "damage":null|{"offset":N,"events_read":N,"error":ERROR,"message":S}: where a read
// stopped at damage (TraceAnalysis::damage), ERROR the schema 2 error object
// (core/base/view_json.h) and "message" its text.
void WriteDamageMember(JsonWriter& w, const std::optional<Damage>& d);
// The warning a command prints for damage it stopped at, without a newline:
// "FILE: stopped at byte N (ERROR): figures cover the N events before it".
std::string DamageText(const std::string& file, const Damage& d);

// The window as text: "" for the whole trace, else " in [F s, T s]".
std::string WindowText(const TraceAnalysis& a);

}  // namespace mpo::memtrace::analysis
