// What `memtrace stats`, `leaks` and `compare` share: the window, --callers, --top,
// --json, --strict and the limits, and the analysis of an input with a progress bar.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/limits.h"
#include "tools/memtrace/window_options.h"

namespace mpo::tools {

struct AnalysisCommandOptions {
  std::size_t top = 10;
  bool json = false;
  std::size_t callers = 0;
  WindowOptions window;
  bool strict = false;
  memtrace::Limits limits;
};

// Adds all but --json (whose help each command words itself).
void AddAnalysisOptions(CLI::App* c, AnalysisCommandOptions* o);

// The analysis options of `o`; nullopt once reported under `cmd` (a bad window).
std::optional<memtrace::analysis::AnalysisOptions> AnalysisOrReport(
    const std::string& cmd, const AnalysisCommandOptions& o);

// The analysis of `src` (opened from `file`) under `a`, with a progress bar; nullopt once
// reported.
std::optional<memtrace::analysis::TraceAnalysis> AnalyzeOrReport(
    const std::string& cmd, const std::string& file, memtrace::ByteSource& src,
    memtrace::analysis::AnalysisOptions a);

}  // namespace mpo::tools
