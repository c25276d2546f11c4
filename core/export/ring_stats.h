// GC statistics of a runtime events stream, defined as olly (tarides/runtime_events_tools,
// `olly gc-stats`) defines them, computed from a ring file instead of a live program:
//
// - Wall time: ring_start to ring_stop (olly's). A ring that lost its ring_start (it
//   wrapped) or has no ring_stop (the program still ran, or was killed) uses its first or
//   last event's time instead, and `wall_basis` says so.
// - Domain time: per ring, the sum of its intervals from ring_start or domain_spawn to
//   ring_stop or domain_terminate (olly keeps only the last one); an interval whose start
//   was lost begins at the ring's first event, one still open ends at its last event.
// - GC time of a domain: olly's pauses, the outermost span of `major`, `stw_leader` or
//   `interrupt_remote` on that domain (a begin while one is open is ignored, the end must
//   be the open phase's). GC share = GC time / domain time. Figures are per domain; a sum
//   over domains is CPU-like time, never wall time.
// - Collections (olly's): begins on domain 0 of `minor` (minor), `major_gc_stw` (major),
//   `explicit_gc_major`/`explicit_gc_full_major` (forced major), `explicit_gc_compact`.
// - Words (olly's): minor allocated and promoted from the word counters
//   `minor_allocated_words`/`minor_promoted_words` (OCaml >= 5.5) when the domain has them,
//   else the byte counters `minor_allocated`/`minor_promoted` divided by 8; major from
//   `major_allocated_words` (OCaml >= 5.3). Counter values are summed per domain.
// - Pause percentiles: nearest rank (the smallest duration d such that at least p% of the
//   durations are <= d), exact; olly's HDR histogram gives the same rank with 3
//   significant digits.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/ring/view/ring_event.h"

namespace mpo::exporter {

using ring::view::RingEvent;

// Durations of completed begin/end pairs of one phase (nested phases included).
struct Durations {
  std::uint64_t count = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t max_ns = 0;
  std::vector<std::uint64_t> all;  // every duration, in arrival order
};

struct PauseSummary {
  std::uint64_t count = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
};

// Nearest-rank percentile, p in (0, 100]; 0 for no durations. Sorts `values`.
std::uint64_t Percentile(std::vector<std::uint64_t>& values, double p);
PauseSummary Summarise(const Durations& d);

// A begin still without its end when the stream ended.
struct OpenSpan {
  std::string name;
  bool user = false;  // a user span (else a runtime phase)
  std::uint64_t begin_ts = 0;
  std::uint64_t open_ns = 0;  // until the domain's last event
};

struct DomainStats {
  std::map<std::string, std::uint64_t> events_by_kind;
  std::uint64_t lost_words = 0;
  std::uint64_t unmatched_ends = 0;         // an end without its begin (lost, or before start)
  std::uint64_t first_ts = 0, last_ts = 0;  // of its timed events
  bool has_time = false;
  std::uint64_t elapsed_ns = 0;
  bool elapsed_from_lifecycle = false;  // every interval bounded by lifecycle events
  std::uint64_t gc_ns = 0;
  Durations gc_pauses;
  std::map<std::string, Durations> phases;  // this domain's phases, by name
  // Counter sums; nullopt when the domain has none of the counter.
  std::optional<std::uint64_t> minor_words, promoted_words, major_words;
  std::vector<OpenSpan> open_at_end;
};

struct RingStats {
  std::uint64_t wall_ns = 0;
  // "ring_start..ring_stop", or with "first event"/"last event" in place of a missing
  // lifecycle event; "" when the stream has no timed event.
  std::string wall_basis;
  std::map<std::uint32_t, DomainStats> domains;
  std::uint64_t minor_collections = 0, major_collections = 0, forced_major_collections = 0,
                compactions = 0;
};

// Figures over all domains of a finished RingStats. Durations of different domains are
// pooled into one distribution, for percentiles of pauses; times are summed only as a
// sum over domains (CPU-like time, never wall time).
std::map<std::string, Durations> PooledPhases(const RingStats& s);
Durations PooledGcPauses(const RingStats& s);
struct DomainSums {
  std::uint64_t time_ns = 0, gc_ns = 0;
};
DomainSums SumOverDomains(const RingStats& s);

// A domain's words allocated: minor - promoted + major; nullopt unless the domain has
// all three counters.
std::optional<std::uint64_t> TotalWords(const DomainStats& d);

// Statistics of a stream, event by event. Memory: the durations of completed phases
// (one word per begin/end pair, at most a quarter of the ring's size) and per domain
// at most kMaxOpenPhases open begins (the oldest is forgotten beyond that, and its end
// counts as unmatched, so hostile nesting stays linear).
class RingStatsAccumulator {
 public:
  static constexpr std::size_t kMaxOpenPhases = 64;
  void Add(const RingEvent& e);
  // Closes domain intervals and lists open spans; call once, after the last event.
  RingStats Finish();

 private:
  struct Open {
    unsigned id;
    bool user;
    std::string name;
    std::uint64_t ts;
  };
  struct DomainState {
    std::vector<Open> open;  // innermost last
    std::optional<std::uint64_t> interval_start;
    bool seen_lifecycle = false;  // a domain lifecycle event bounded one of its intervals
    bool lifecycle_exact = true;  // no interval took a bound from the first or last event
    std::optional<std::pair<unsigned, std::uint64_t>> gc_open;  // phase id, begin ts
    std::uint64_t minor_bytes = 0, promoted_bytes = 0, minor_words = 0, promoted_words = 0,
                  major_words = 0;
    bool has_minor_bytes = false, has_promoted_bytes = false, has_minor_words = false,
         has_promoted_words = false, has_major_words = false;
  };
  void Lifecycle(const RingEvent& e, DomainStats& d, DomainState& st);
  void Counter(const RingEvent& e, DomainState& st);
  void Begin(const RingEvent& e, DomainStats& d, DomainState& st);
  void End(const RingEvent& e, DomainStats& d, DomainState& st);

  RingStats s_;
  std::map<std::uint32_t, DomainState> state_;
  std::optional<std::uint64_t> ring_start_ts_, ring_stop_ts_;
};

}  // namespace mpo::exporter
