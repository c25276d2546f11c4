#include "tools/memtrace/stats_command.h"

#include <memory>
#include <string>

#include "core/memtrace/analysis/trace_stats.h"
#include "tools/exit_code.h"
#include "tools/memtrace/analysis_options.h"
#include "tools/memtrace/memtrace_io.h"
#include "tools/memtrace/window_options.h"
#include "tools/progress.h"

namespace mpo::tools {
namespace {

struct StatsOptions {
  std::string file;
  std::string by = "bytes";
  std::string live_at;  // empty: not asked (the table ranks the allocations)
  AnalysisCommandOptions common;
};

void RunStats(const StatsOptions& o) {
  memtrace::StatsOptions so;
  so.top = o.common.top;
  so.by = o.by == "words"     ? memtrace::SiteRank::kWords
          : o.by == "samples" ? memtrace::SiteRank::kSamples
                              : memtrace::SiteRank::kBytes;
  so.analysis.callers = o.common.callers;
  so.analysis.limits = o.common.limits;
  so.analysis.stop_at_damage = !o.common.strict;
  if (Status s = ApplyWindow(o.common.window, &so.analysis); !s.ok())
    return ReportError("memtrace stats", s);
  if (!o.live_at.empty()) {
    ApplyLiveAt(o.live_at, &so.analysis);
    so.by_live = true;
  }
  auto src = OpenOrReport("memtrace stats", o.file);
  if (!src) return;
  Progress bar("memtrace stats", "bytes", src->size());
  so.analysis.progress = BytesProgress(bar);
  auto stats = memtrace::ComputeTraceStats(*src, so);
  bar.Clear();
  if (!stats.ok()) return ReportError("memtrace stats: " + o.file, stats.status());
  WarnDamage("memtrace stats", o.file, stats->analysis.damage);
  WriteOut(o.common.json ? memtrace::FormatTraceStatsJson(*stats, o.file)
                         : memtrace::FormatTraceStats(*stats, o.file));
}

}  // namespace

void AddMemtraceStatsCommand(CLI::App& memtrace) {
  auto stats = std::make_shared<StatsOptions>();
  CLI::App* st = memtrace.add_subcommand(
      "stats",
      "Totals, top allocation sites, rates, lifetimes, live heap. Sizes are estimated bytes "
      "(samples / sample rate * word size / 8); a site is the innermost frame of the backtrace "
      "(inlined frames expanded). Lifetime median and p90 are exact up to 65,536 collections, then "
      "within 0.4% "
      "(printed ~N). With --live-at, the sites table ranks and lists the blocks (allocated in "
      "the window) live at that time instead of the allocations. --json prints one document "
      "(member names: tools/JSON.md)");
  st->add_option("file", stats->file, "trace file")->required();
  st->add_option("--by", stats->by,
                 "rank sites by estimated bytes (default), samples (the same order) or sampled "
                 "words")
      ->check(CLI::IsMember({"samples", "words", "bytes"}));
  AddLiveAtOption(st, &stats->live_at);
  st->add_flag("--json", stats->common.json, "one JSON document");
  AddAnalysisOptions(st, &stats->common);
  st->callback([stats] { RunStats(*stats); });
}

}  // namespace mpo::tools
