// `memprof-oracle events stats`: olly's GC statistics of a ring (core/export/ring_stats.h),
// printed as text or JSON by core/export/ring_stats_view.h.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/export/ring_stats.h"
#include "tools/events/ring_input.h"

namespace mpo::tools {

// Statistics of a whole ring (FILE, or DIR PID), streamed: no event is kept. The code
// path of `events stats` and `events record`.
Result<exporter::RingStats> StatsOfRing(const std::vector<std::string>& source,
                                        const RingReadOptions& read);

void AddStatsCommand(CLI::App& events);

}  // namespace mpo::tools
