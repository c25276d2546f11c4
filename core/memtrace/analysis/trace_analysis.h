// One pass over a memtrace trace that every analysis command (`memtrace stats`, `leaks`,
// `compare`, and the HTML report) reads its figures from: totals, a site table, the
// blocks still live at the end, lifetimes and an estimated live-heap timeline.
//
// Attribution rule (the one rule of stats, leaks, compare, report and demo): the
// allocation site of an event is the innermost frame of its backtrace, inlined frames
// expanded in their order (backtrace_frames.h): the last frame of the last entry whose
// location holds frames; entries without frames (C and runtime frames memtrace could not
// name) are passed over. A site is keyed by that frame and its `callers` nearest caller
// frames (an inlined frame's caller is the frame it was inlined into; callers = 0: the
// frame alone); an allocation with no frame at all belongs to the site with no frames
// ("<no backtrace>"). An external allocation's innermost frames that are memtrace's own
// tracer are passed over first (site_attribution.h): its site is the tracer's caller.
//
// Estimated bytes: memtrace samples each allocated word with probability sample_rate,
// so nsamples / sample_rate estimates the words allocated, times word_size / 8 bytes
// (EstimatedBytes). Sampled `words` (the sampled blocks' lengths) over-weight large
// blocks and are kept as a second measure.
//
// Window [start + from_us, start + to_us]: a block counts when it was allocated in the
// window; its promotion and collection count (promotes, collects, lifetimes) when they
// are in the window too. Blocks allocated in the window and live at the asked time
// (`live_at`: the end of the trace by default, i.e. never collected; or the peak; or a
// time T: allocated at or before T, not collected at or before T, liveness.h) are
// "live": the leak candidates, as memtrace_viewer defines them ("allocated in [A,B],
// still live at the end", or at T); a block collected after the window is not one.
// A time T after the trace's last event is an error (kInvalidArgument, "--live-at"). The live-heap
// timeline is the true live heap over the whole trace (every block allocated before a time and not
// collected by it, whatever the window); the window is a range on it. Times are trace times, read
// in file order; v3 can order domains' events slightly out of time, so each event is judged by its
// own time. A window that starts after the trace's last event is an error (kInvalidArgument naming
// the trace's duration), so an empty result never passes for a quiet trace.
//
// Damage: with `stop_at_damage`, damage (IsDamage: a truncated packet, or a decoding
// error after at least one event) ends the read there instead of failing: the figures
// cover the events before it and TraceAnalysis::damage says where and why (memtrace's
// own tools read a trace cut by an out-of-memory kill up to its last whole packet).
// Budgets, I/O errors, a header that does not read and a corrupt first event still fail.
//
// Cost: memory grows with the sites and the blocks live at once (bounded by what the
// trace references, not by its length: a collected block is forgotten) and the rendered
// site names (at most Limits::max_location_bytes of text, every held copy counted, and at
// most Limits::max_held_frames frames in the site keys together); the lifetimes' summary
// and the timeline take fixed memory. Failure: the decoded view's typed error
// (view/trace_view.h) unless stop_at_damage stops at it, or a passed budget; no partial
// result.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/memtrace/analysis/lifetime_summary.h"
#include "core/memtrace/analysis/liveness.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/event.h"
#include "core/memtrace/limits.h"
#include "core/memtrace/progress.h"
#include "core/memtrace/trace_reader.h"

namespace mpo::memtrace::analysis {

struct AnalysisOptions {
  // The window, in microseconds since the trace's start time (inclusive at both ends).
  std::int64_t from_us = 0;
  std::int64_t to_us = std::numeric_limits<std::int64_t>::max();
  std::size_t callers = 0;            // callers in a site's key, in [0, 64]
  std::size_t timeline_points = 100;  // points of the live-heap timeline, in [1, 10^6]
  // When a block counts as live (Site::live, TraceAnalysis::live; liveness.h).
  LiveAt live_at;
  // Read what precedes damage (see above) instead of failing at it.
  bool stop_at_damage = false;
  Limits limits;
  ProgressFn progress;
};

// Blocks, their samples and their sampled words.
struct Tally {
  std::uint64_t blocks = 0;
  std::uint64_t samples = 0;
  std::uint64_t words = 0;
};

struct Site {
  // The site's frame, then its callers' frames, nearest first, each as memtrace prints a
  // frame (`defname@file:line:start-end`). Empty for the site of allocations with no frames.
  std::vector<std::string> names;
  Tally allocated;  // allocated in the window
  Tally live;       // of those, live at the asked time (options' live_at; default: the end)
};

// Where a read stopped at damage: the error's byte offset (the packet's when the error
// has none), the error, and the events read before it (all of them, in the window or not).
struct Damage {
  std::uint64_t offset = 0;
  Status error;
  std::uint64_t events_read = 0;
};

// Whether a decoding error met after `events_read` events is damage a read may stop at:
// input cut short (kTruncated: the packets before it are whole), or bytes that break the
// format (corrupt, out of its range, an unknown version) once some events have been read.
// Never a refusal of ours (a budget, I/O).
bool IsDamage(const Status& s, std::uint64_t events_read);
// The Damage of `error`, met by `reader` after `events_read` events.
Damage DamageAt(const Status& error, const TraceReader& reader, std::uint64_t events_read);

// Estimated live bytes (every block allocated and not yet collected, window or not) at
// the end of [t_us - width, t_us], t_us from the trace start, and the least and the
// most the live heap held in that step (the step function's values there, and at its
// end): a peak narrower than a step still shows as the step's max.
struct TimelinePoint {
  std::int64_t t_us = 0;
  std::uint64_t live_samples = 0;
  std::uint64_t min_samples = 0, max_samples = 0;
};

// The live heap's maximum (liveness.h): when it is first reached, and what is live then.
struct Peak {
  std::int64_t t_us = 0;
  Tally live;
};

struct TraceAnalysis {
  Info info;
  int version = 0;
  std::uint64_t duration_us = 0;        // last event's time - start (whole trace, exact)
  std::int64_t from_us = 0, to_us = 0;  // the window as asked
  std::uint64_t events_in_window = 0;
  Tally allocated;                           // in the window
  std::uint64_t by_source[3] = {0, 0, 0};    // minor, major, external allocations
  std::uint64_t promotes = 0, collects = 0;  // in the window, of blocks allocated in it
  Tally live;      // allocated in the window, live at the asked time (by default the end)
  LiveAt live_at;  // the asked time, as asked
  std::int64_t live_at_us = 0;  // the asked time resolved (the end's, the peak's, or T)
  Tally live_heap;              // every block live at the asked time, window or not
  std::optional<Peak> peak;     // of the whole trace; none: never above zero
  // Lifetimes (us) of the blocks allocated and collected in the window: median and p90
  // exact up to LifetimeSummary::kExactValues of them, then within 0.4%.
  LifetimeFigures lifetimes;
  std::uint64_t collected_promoted = 0;
  std::vector<Site> sites;  // by estimated bytes allocated, descending, then by name
  // The true live heap over the whole trace, ascending t_us; empty without allocations.
  std::vector<TimelinePoint> timeline;
  std::optional<Damage> damage;  // set when stop_at_damage stopped the read
};

// `a - b` clamped to the int64 range (times of hostile traces span it all).
std::int64_t SaturatingSub(std::int64_t a, std::int64_t b);

// Estimated bytes of `samples` under the trace's rate and word size (0 for a rate that
// is not a positive finite number).
double EstimatedBytes(std::uint64_t samples, const Info& info);

// The window check: kInvalidArgument (field "--from") when `from_us` is past the last
// event (`duration_us` after the start), naming the duration.
Status CheckWindowStart(std::int64_t from_us, std::uint64_t duration_us);

// The liveness check: kInvalidArgument (field "--live-at") when a time `at` is after the
// last event (`duration_us` after the start), naming the duration.
Status CheckLiveAt(const LiveAt& at, std::uint64_t duration_us);

Result<TraceAnalysis> AnalyzeTrace(ByteSource& source, const AnalysisOptions& options = {});

// Seconds from the trace start, as `--from/--to` give them, to AnalysisOptions' range
// (clamped; negative and NaN are rejected by the options' validators).
std::int64_t SecondsToMicros(double seconds);

}  // namespace mpo::memtrace::analysis
