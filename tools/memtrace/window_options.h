// The options every analysis command shares: the time window (--from/--to, seconds
// from the trace start) and --callers, stored into analysis::AnalysisOptions.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>

#include "core/base/status.h"
#include "core/memtrace/analysis/trace_analysis.h"

namespace mpo::tools {

struct WindowOptions {
  double from_s = 0;
  std::optional<double> to_s;  // none: to the end of the trace
};

// Adds --from and --to to `command` (values stored in *window, which must outlive it).
void AddWindowOptions(CLI::App* command, WindowOptions* window);
// Adds --callers N (in [0, 64]) to `command`.
void AddCallersOption(CLI::App* command, std::size_t* callers);

// Sets the window of *out; kInvalidArgument (a usage error) when --to is before --from.
Status ApplyWindow(const WindowOptions& window, memtrace::analysis::AnalysisOptions* out);

}  // namespace mpo::tools
