#include "tools/memtrace/window_options.h"

#include <cstdio>

#include "core/memtrace/analysis/analysis_text.h"
#include "tools/numeric_options.h"

namespace mpo::tools {

// A year of trace in seconds is far beyond any trace; the bound keeps microseconds exact
// in a double.
constexpr double kMaxSeconds = 1e9;

void AddWindowOptions(CLI::App* command, WindowOptions* window) {
  command
      ->add_option("--from", window->from_s,
                   "ignore events before this time, in seconds from the trace start, in [0, 1e9]")
      ->check(FiniteIn(0, kMaxSeconds));
  command
      ->add_option("--to", window->to_s,
                   "ignore events after this time, in seconds from the trace start, in [0, 1e9] "
                   "(default: the end)")
      ->check(FiniteIn(0, kMaxSeconds));
}

void AddCallersOption(CLI::App* command, std::size_t* callers) {
  command
      ->add_option("--callers", *callers,
                   "split each allocation site (the innermost frame) by its N nearest caller "
                   "frames (inlined frames count as callers), in [0, 64]")
      ->check(UnsignedIn(0, 64));
}

void AddLiveAtOption(CLI::App* command, std::string* text) {
  command
      ->add_option("--live-at", *text,
                   "when a block counts as live: end (never collected; the default), peak "
                   "(when the live heap is largest, first reached) or a time in seconds from "
                   "the trace start, in [0, 1e9] and not after the last event. Live at T: "
                   "allocated at or before T and not collected at or before T; minor, major "
                   "and external allocations alike, promotions change nothing")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            auto at = memtrace::analysis::ParseLiveAt(v);
            return at.ok() ? std::string() : at.status().message();
          },
          "end|peak|SECONDS"));
}

void ApplyLiveAt(const std::string& text, memtrace::analysis::AnalysisOptions* out) {
  auto at = memtrace::analysis::ParseLiveAt(text);
  if (at.ok()) out->live_at = *at;
}

void AddStrictOption(CLI::App* command, bool* strict) {
  command->add_flag("--strict", *strict,
                    "refuse a damaged trace (exit 1 with the decoding error) instead of "
                    "reading the events before the damage with a warning");
}

void WarnDamage(const std::string& cmd, const std::string& file,
                const std::optional<memtrace::analysis::Damage>& damage) {
  if (!damage) return;
  std::fprintf(stderr, "memprof-oracle: %s: warning: %s\n", cmd.c_str(),
               memtrace::analysis::DamageText(file, *damage).c_str());
}

Status ApplyWindow(const WindowOptions& window, memtrace::analysis::AnalysisOptions* out) {
  out->from_us = memtrace::analysis::SecondsToMicros(window.from_s);
  if (window.to_s) {
    if (*window.to_s <= window.from_s)
      return Status(ErrorCode::kInvalidArgument, "--to is not after --from (an empty window)")
          .WithField("--to");
    out->to_us = memtrace::analysis::SecondsToMicros(*window.to_s);
  }
  return Status::Ok();
}

}  // namespace mpo::tools
