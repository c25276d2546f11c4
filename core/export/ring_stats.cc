#include "core/export/ring_stats.h"

#include <algorithm>
#include <cmath>

#include "core/ring/cursor.h"

namespace mpo::exporter {

using Kind = ring::view::EventKind;

namespace {

// Lifecycle ids (runtime_events.h's order).
constexpr unsigned kRingStart = 0;
constexpr unsigned kRingStop = 1;
constexpr unsigned kDomainSpawn = 6;
constexpr unsigned kDomainTerminate = 7;

// OCaml 5.3/5.4 minor counters report bytes; olly divides by the word size.
constexpr std::uint64_t kBytesPerWord = 8;

bool IsOllyGcPhase(std::string_view name) {
  return name == "major" || name == "stw_leader" || name == "interrupt_remote";
}

void Record(Durations& d, std::uint64_t ns) {
  ++d.count;
  d.total_ns += ns;
  d.max_ns = std::max(d.max_ns, ns);
  d.all.push_back(ns);
}

std::uint64_t Since(std::uint64_t from, std::uint64_t to) { return to >= from ? to - from : 0; }

}  // namespace

std::uint64_t Percentile(std::vector<std::uint64_t>& values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  // Rank ceil(p/100 * n), at least 1: the smallest value with p% of them at or below it.
  const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
  const std::size_t i = rank < 1 ? 0 : static_cast<std::size_t>(rank) - 1;
  return values[std::min(i, values.size() - 1)];
}

PauseSummary Summarise(const Durations& d) {
  std::vector<std::uint64_t> v = d.all;
  return {d.count,           d.total_ns,        Percentile(v, 50),
          Percentile(v, 90), Percentile(v, 99), Percentile(v, 100)};
}

std::map<std::string, Durations> PooledPhases(const RingStats& s) {
  std::map<std::string, Durations> pooled;
  for (const auto& [ring, d] : s.domains) {
    for (const auto& [name, p] : d.phases) {
      Durations& q = pooled[name];
      q.count += p.count;
      q.max_ns = std::max(q.max_ns, p.max_ns);
      q.all.insert(q.all.end(), p.all.begin(), p.all.end());
    }
  }
  return pooled;
}

Durations PooledGcPauses(const RingStats& s) {
  Durations all;
  for (const auto& [ring, d] : s.domains) {
    all.count += d.gc_pauses.count;
    all.total_ns += d.gc_pauses.total_ns;
    all.max_ns = std::max(all.max_ns, d.gc_pauses.max_ns);
    all.all.insert(all.all.end(), d.gc_pauses.all.begin(), d.gc_pauses.all.end());
  }
  return all;
}

DomainSums SumOverDomains(const RingStats& s) {
  DomainSums t;
  for (const auto& [ring, d] : s.domains) {
    t.time_ns += d.elapsed_ns;
    t.gc_ns += d.gc_ns;
  }
  return t;
}

std::optional<std::uint64_t> TotalWords(const DomainStats& d) {
  if (!d.minor_words || !d.promoted_words || !d.major_words) return std::nullopt;
  return *d.minor_words - std::min(*d.minor_words, *d.promoted_words) + *d.major_words;
}

void RingStatsAccumulator::Add(const RingEvent& e) {
  DomainStats& d = s_.domains[e.ring];
  DomainState& st = state_[e.ring];
  ++d.events_by_kind[std::string(ring::view::KindName(e.kind))];
  if (e.kind == Kind::kLostEvents) {
    d.lost_words += e.value;
    // What was open may have ended in the lost part.
    st.open.clear();
    st.gc_open.reset();
    return;
  }
  if (!d.has_time || e.ts < d.first_ts) d.first_ts = e.ts;
  if (!d.has_time || e.ts > d.last_ts) d.last_ts = e.ts;
  d.has_time = true;
  switch (e.kind) {
    case Kind::kLifecycle: Lifecycle(e, d, st); break;
    case Kind::kCounter: Counter(e, st); break;
    case Kind::kBegin:
    case Kind::kUserSpanBegin: Begin(e, d, st); break;
    case Kind::kEnd:
    case Kind::kUserSpanEnd: End(e, d, st); break;
    default: break;
  }
}

void RingStatsAccumulator::Lifecycle(const RingEvent& e, DomainStats& d, DomainState& st) {
  if (e.id == kRingStart && !ring_start_ts_) ring_start_ts_ = e.ts;
  if (e.id == kRingStop) ring_stop_ts_ = e.ts;
  if (e.id == kRingStart || e.id == kDomainSpawn) {
    if (st.interval_start) {  // a start without a stop: the earlier interval ends here
      d.elapsed_ns += Since(*st.interval_start, e.ts);
    }
    st.interval_start = e.ts;
    st.seen_lifecycle = true;
  } else if (e.id == kRingStop || e.id == kDomainTerminate) {
    if (st.interval_start) {
      d.elapsed_ns += Since(*st.interval_start, e.ts);
    } else {
      // Its start was lost: the interval begins at the domain's first event.
      d.elapsed_ns += Since(d.first_ts, e.ts);
      st.seen_lifecycle = true;
      st.lifecycle_exact = false;
    }
    st.interval_start.reset();
  }
}

void RingStatsAccumulator::Counter(const RingEvent& e, DomainState& st) {
  const auto v =
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, ring::OcamlIntOfPayload(e.value)));
  if (e.name == "minor_allocated") {
    st.minor_bytes += v;
    st.has_minor_bytes = true;
  } else if (e.name == "minor_promoted") {
    st.promoted_bytes += v;
    st.has_promoted_bytes = true;
  } else if (e.name == "minor_allocated_words") {
    st.minor_words += v;
    st.has_minor_words = true;
  } else if (e.name == "minor_promoted_words") {
    st.promoted_words += v;
    st.has_promoted_words = true;
  } else if (e.name == "major_allocated_words") {
    st.major_words += v;
    st.has_major_words = true;
  }
}

void RingStatsAccumulator::Begin(const RingEvent& e, DomainStats&, DomainState& st) {
  const bool user = e.kind == Kind::kUserSpanBegin;
  if (!user) {
    if (e.ring == 0) {
      if (e.name == "minor") ++s_.minor_collections;
      if (e.name == "major_gc_stw") ++s_.major_collections;
      if (e.name == "explicit_gc_major" || e.name == "explicit_gc_full_major") {
        ++s_.forced_major_collections;
      }
      if (e.name == "explicit_gc_compact") ++s_.compactions;
    }
    if (IsOllyGcPhase(e.name) && !st.gc_open) st.gc_open.emplace(e.id, e.ts);
  }
  if (st.open.size() == kMaxOpenPhases) st.open.erase(st.open.begin());
  st.open.push_back({e.id, user, std::string(e.name), e.ts});
}

void RingStatsAccumulator::End(const RingEvent& e, DomainStats& d, DomainState& st) {
  const bool user = e.kind == Kind::kUserSpanEnd;
  if (!user && st.gc_open && st.gc_open->first == e.id) {
    const std::uint64_t ns = Since(st.gc_open->second, e.ts);
    d.gc_ns += ns;
    Record(d.gc_pauses, ns);
    st.gc_open.reset();
  }
  // Match the innermost open begin of the same phase (or user span).
  auto it = st.open.end();
  bool found = false;
  while (it != st.open.begin()) {
    --it;
    if (it->id == e.id && it->user == user) {
      found = true;
      break;
    }
  }
  if (!found) {
    ++d.unmatched_ends;
    return;
  }
  if (!user) Record(d.phases[std::string(e.name)], Since(it->ts, e.ts));
  st.open.erase(it, st.open.end());
}

RingStats RingStatsAccumulator::Finish() {
  std::optional<std::uint64_t> first, last;
  for (auto& [ring, d] : s_.domains) {
    DomainState& st = state_[ring];
    if (!d.has_time) continue;
    if (!first || d.first_ts < *first) first = d.first_ts;
    if (!last || d.last_ts > *last) last = d.last_ts;
    if (!st.seen_lifecycle) {
      // No lifecycle event at all: the domain ran at least from its first to its last event.
      d.elapsed_ns = Since(d.first_ts, d.last_ts);
    } else if (st.interval_start) {
      // Still running when the stream ended.
      d.elapsed_ns += Since(*st.interval_start, d.last_ts);
      st.lifecycle_exact = false;
    }
    d.elapsed_from_lifecycle = st.seen_lifecycle && st.lifecycle_exact;
    for (const Open& o : st.open) {
      d.open_at_end.push_back({o.name, o.user, o.ts, Since(o.ts, d.last_ts)});
    }
    if (st.has_minor_words) {
      d.minor_words = st.minor_words;
    } else if (st.has_minor_bytes) {
      d.minor_words = st.minor_bytes / kBytesPerWord;
    }
    if (st.has_promoted_words) {
      d.promoted_words = st.promoted_words;
    } else if (st.has_promoted_bytes) {
      d.promoted_words = st.promoted_bytes / kBytesPerWord;
    }
    if (st.has_major_words) d.major_words = st.major_words;
  }
  if (first) {
    const std::uint64_t from = ring_start_ts_.value_or(*first);
    const std::uint64_t to = ring_stop_ts_.value_or(*last);
    s_.wall_ns = Since(from, to);
    s_.wall_basis = std::string(ring_start_ts_ ? "ring_start" : "first event") + ".." +
                    (ring_stop_ts_ ? "ring_stop" : "last event");
  }
  return std::move(s_);
}

}  // namespace mpo::exporter
