// `memprof-oracle memtrace report FILE -o OUT.html [--top N] [--flame-nodes N]
//  [--from S] [--to S] [--callers N] [--strict] [limits]`: one self-contained HTML page
// about a trace (core/memtrace/report/html_report.h): trace info, top sites, live heap
// over time, leak candidates and a flame graph. OUT is written beside its name and
// renamed into place once complete; OUT may not be FILE. Exit 0, 1 on bad input, 2 on
// usage or I/O errors.
#pragma once

#include <CLI/CLI.hpp>

namespace mpo::tools {

// Adds `report` under the `memtrace` command group.
void AddMemtraceReportCommand(CLI::App& memtrace);

}  // namespace mpo::tools
