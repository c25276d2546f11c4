// The options every analysis command shares: the time window (--from/--to, seconds
// from the trace start), --callers and --strict, stored into analysis::AnalysisOptions,
// and the warning they print for damage they read up to.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

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

// Adds --live-at WHEN (end, peak or seconds from the trace start; text stored in *text,
// "end" by default): when a block counts as live (analysis/liveness.h). A value that is
// none of those is a usage error naming the option (exit 2).
void AddLiveAtOption(CLI::App* command, std::string* text);
// Sets out->live_at from an --live-at value AddLiveAtOption has checked.
void ApplyLiveAt(const std::string& text, memtrace::analysis::AnalysisOptions* out);

// Adds --strict (refuse a damaged trace instead of reading what precedes the damage).
void AddStrictOption(CLI::App* command, bool* strict);

// Sets the window of *out; kInvalidArgument (a usage error) unless --to is after --from.
// (A window starting after the trace's last event is refused by the analysis, which
// knows the trace's duration.)
Status ApplyWindow(const WindowOptions& window, memtrace::analysis::AnalysisOptions* out);

// Prints "memprof-oracle: CMD: warning: FILE: stopped at byte N (ERROR): figures cover the
// N events before it" to stderr when the read of `file` stopped at damage.
void WarnDamage(const std::string& cmd, const std::string& file,
                const std::optional<memtrace::analysis::Damage>& damage);

}  // namespace mpo::tools
