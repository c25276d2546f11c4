// `memprof-oracle memtrace stats FILE`: totals, top sites, rates, lifetimes, live heap
// (core/memtrace/analysis/trace_stats.h), as text or one JSON document.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

void AddMemtraceStatsCommand(CLI::App& memtrace);

}  // namespace mpo::tools
