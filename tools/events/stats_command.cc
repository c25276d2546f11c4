#include "tools/events/stats_command.h"

#include <cstdio>
#include <memory>

#include "core/export/chrome_trace.h"
#include "core/export/ring_stats_view.h"
#include "core/ring/view/event_decoder.h"
#include "tools/exit_code.h"

namespace mpo::tools {

Result<exporter::RingStats> StatsOfRing(const std::vector<std::string>& source,
                                        const RingReadOptions& read) {
  auto src = ParseRingSource(source);
  if (!src.ok()) return src.status();
  auto version = ParseVersion(read.version, src->path);
  if (!version.ok()) return version.status();
  auto cursor = OpenRing(src->path, read.batch);
  if (!cursor.ok()) return cursor.status();
  exporter::RingStatsAccumulator stats;
  ring::view::EventCollector collector(*version,
                                       [&](const ring::view::RingEvent& e) { stats.Add(e); });
  auto r = Drain(*cursor, collector, [] {});
  if (!r.ok()) return r.status();
  if (!collector.error().ok()) return collector.error();
  return stats.Finish();
}

namespace {

struct StatsOptions {
  std::vector<std::string> source;  // FILE, or DIR PID
  RingReadOptions read;
  bool json = false;
};

void RunStats(const StatsOptions& o) {
  auto stats = StatsOfRing(o.source, o.read);
  if (!stats.ok()) return ReportError("events stats", stats.status());
  if (o.json) {
    std::fputs(exporter::FormatRingStatsJson(*stats).c_str(), stdout);
  } else {
    std::fputs(exporter::FormatRingStats(*stats).c_str(), stdout);
  }
}

}  // namespace

void AddStatsCommand(CLI::App& events) {
  auto o = std::make_shared<StatsOptions>();
  CLI::App* stats = events.add_subcommand(
      "stats",
      "GC statistics as olly gc-stats defines them: wall time, GC time and share per "
      "domain, pause percentiles per phase, collections, words, spans open at the end "
      "(definitions: tools/events/README.md)");
  stats->add_option("source", o->source, "DIR PID, or FILE")->required()->expected(1, 2);
  stats->add_flag("--json", o->json, "print JSON (times in ns, shares as fractions)");
  AddRingReadOptions(stats, o->read);
  stats->callback([o] { RunStats(*o); });
}

}  // namespace mpo::tools
