#include "tools/memtrace/leaks_command.h"

#include <memory>
#include <string>

#include "core/memtrace/analysis/leaks.h"
#include "tools/memtrace/analysis_options.h"
#include "tools/memtrace/memtrace_io.h"
#include "tools/memtrace/window_options.h"

namespace mpo::tools {
namespace {

struct LeaksOptions {
  std::string file;
  std::string live_at = "end";
  AnalysisCommandOptions common;
};

void RunLeaks(const LeaksOptions& o) {
  const std::string cmd = "memtrace leaks";
  auto options = AnalysisOrReport(cmd, o.common);
  if (!options) return;
  ApplyLiveAt(o.live_at, &*options);
  auto src = OpenOrReport(cmd, o.file);
  if (!src) return;
  auto a = AnalyzeOrReport(cmd, o.file, *src, *options);
  if (!a) return;
  WriteOut(o.common.json ? memtrace::analysis::FormatLeaksJson(*a, o.file, o.common.top)
                         : memtrace::analysis::FormatLeaks(*a, o.file, o.common.top));
}

}  // namespace

void AddMemtraceLeaksCommand(CLI::App& memtrace) {
  auto leaks = std::make_shared<LeaksOptions>();
  CLI::App* lk = memtrace.add_subcommand(
      "leaks",
      "Blocks allocated (in the window) and never collected (still live at the end of the "
      "trace: a block collected after the window is not one), or live at --live-at, by "
      "allocation site, most estimated bytes first. --json prints one document (members: "
      "core/memtrace/analysis/leaks.h)");
  lk->add_option("file", leaks->file, "trace file")->required();
  AddLiveAtOption(lk, &leaks->live_at);
  lk->add_flag("--json", leaks->common.json, "one JSON document");
  AddAnalysisOptions(lk, &leaks->common);
  lk->callback([leaks] { RunLeaks(*leaks); });
}

}  // namespace mpo::tools
