#include "tools/memtrace/compare_command.h"

#include <memory>
#include <string>

#include "core/memtrace/analysis/site_compare.h"
#include "tools/memtrace/analysis_options.h"
#include "tools/memtrace/memtrace_io.h"
#include "tools/memtrace/window_options.h"

namespace mpo::tools {
namespace {

struct CompareOptions {
  std::string a, b;
  std::string live_at;  // empty: not asked (the allocations are compared)
  AnalysisCommandOptions common;
};

void RunCompare(const CompareOptions& o) {
  const std::string cmd = "memtrace compare";
  auto options = AnalysisOrReport(cmd, o.common);
  if (!options) return;
  const bool live = !o.live_at.empty();
  if (live) ApplyLiveAt(o.live_at, &*options);
  // Both inputs are opened (a missing one, a FIFO refused) before A is analysed.
  auto src_a = OpenOrReport(cmd, o.a);
  if (!src_a) return;
  auto src_b = OpenOrReport(cmd, o.b);
  if (!src_b) return;
  auto a = AnalyzeOrReport(cmd, o.a, *src_a, *options);
  if (!a) return;
  auto b = AnalyzeOrReport(cmd, o.b, *src_b, *options);
  if (!b) return;
  namespace analysis = memtrace::analysis;
  WriteOut(o.common.json ? analysis::FormatCompareJson(*a, o.a, *b, o.b, o.common.top, live)
                         : analysis::FormatCompare(*a, o.a, *b, o.b, o.common.top, live));
}

}  // namespace

void AddMemtraceCompareCommand(CLI::App& memtrace) {
  auto compare = std::make_shared<CompareOptions>();
  CLI::App* cmp = memtrace.add_subcommand(
      "compare",
      "Which allocation sites grew or shrank from trace A to trace B, in estimated bytes "
      "allocated (sites matched by their frames), largest change first; with --live-at, in "
      "estimated bytes of the blocks (allocated in the window) live at that time in each "
      "trace (peak: each trace's own). --json prints one document (members: "
      "core/memtrace/analysis/site_compare.h)");
  cmp->add_option("a", compare->a, "first trace")->required();
  cmp->add_option("b", compare->b, "second trace")->required();
  AddLiveAtOption(cmp, &compare->live_at);
  cmp->add_flag("--json", compare->common.json, "one JSON document");
  AddAnalysisOptions(cmp, &compare->common);
  cmp->callback([compare] { RunCompare(*compare); });
}

}  // namespace mpo::tools
