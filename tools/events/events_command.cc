#include "tools/events/events_command.h"

#include <string>

#include "core/export/ring_stats_view.h"
#include "tools/events/chrome_command.h"
#include "tools/events/dump_command.h"
#include "tools/events/fuchsia_command.h"
#include "tools/events/record_command.h"
#include "tools/events/stats_command.h"
#include "tools/events/tail_command.h"
#include "tools/events/timeline_export.h"

namespace mpo::tools {

void AddEventsCommands(CLI::App& app) {
  CLI::App* events =
      app.add_subcommand("events", "Read OCaml 5 runtime events ring files (<pid>.events)");
  events->require_subcommand(1);
  AddDumpCommand(*events);
  AddTailCommand(*events);
  AddChromeCommand(*events);
  AddFuchsiaCommand(*events);
  AddStatsCommand(*events);

  // `events record` exports through the same code paths as `events chrome` and `stats`.
  RecordExports exports;
  exports.chrome = [](const std::string& ring, const std::string& out) {
    return WriteTimeline(ring, out, RingReadOptions{}, TimelineFormat::kChrome);
  };
  exports.fuchsia = [](const std::string& ring, const std::string& out) {
    return WriteTimeline(ring, out, RingReadOptions{}, TimelineFormat::kFuchsia);
  };
  exports.stats_text = [](const std::string& ring) -> Result<std::string> {
    auto s = StatsOfRing({ring}, RingReadOptions{});
    if (!s.ok()) return s.status();
    return exporter::FormatRingStats(*s);
  };
  AddRecordCommand(*events, exports);
}

}  // namespace mpo::tools
