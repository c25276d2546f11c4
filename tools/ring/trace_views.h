// Views of a collected event stream: Chrome trace-event JSON and per-phase statistics.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/ring/event_collector.h"

namespace mpo::tools {

// {"traceEvents":[...],"displayTimeUnit":"ns"} with one thread per ring (named
// "domain N"): runtime phases and user spans as B/E, counters as C, lifecycle, user
// unit/int/custom, alloc and lost events as thread-scoped instants. Timestamps are
// microseconds (Chrome's unit) since the first event. Chrome and Perfetto open it.
nlohmann::json ChromeTrace(const std::vector<DecodedEvent>& events, std::int64_t pid);

struct PhaseStats {
  std::uint64_t count = 0;     // completed begin/end pairs
  std::uint64_t total_ns = 0;  // sum of their durations (nested phases included)
  std::uint64_t max_ns = 0;
};

struct RingStats {
  std::map<std::string, std::uint64_t> events_by_kind;
  std::uint64_t lost_words = 0;
  std::uint64_t unmatched_ends = 0;  // an end without its begin (lost, or before start)
};

struct StreamStats {
  std::map<std::string, PhaseStats> phases;  // by phase name, all rings
  std::map<std::uint32_t, RingStats> rings;
};

StreamStats ComputeStats(const std::vector<DecodedEvent>& events);
std::string FormatStats(const StreamStats& s);
nlohmann::json StatsJson(const StreamStats& s);

}  // namespace mpo::tools
