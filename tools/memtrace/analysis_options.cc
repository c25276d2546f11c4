#include "tools/memtrace/analysis_options.h"

#include <utility>

#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"
#include "tools/memtrace/memtrace_io.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"

namespace mpo::tools {

void AddAnalysisOptions(CLI::App* c, AnalysisCommandOptions* o) {
  AddStrictOption(c, &o->strict);
  c->add_option("--top", o->top, "number of sites to list, in [0, 10^9]")
      ->check(UnsignedIn(0, 1'000'000'000));
  AddCallersOption(c, &o->callers);
  AddWindowOptions(c, &o->window);
  AddLimitOptions(c, &o->limits);
}

std::optional<memtrace::analysis::AnalysisOptions> AnalysisOrReport(
    const std::string& cmd, const AnalysisCommandOptions& o) {
  memtrace::analysis::AnalysisOptions a;
  a.callers = o.callers;
  a.limits = o.limits;
  a.stop_at_damage = !o.strict;
  if (Status s = ApplyWindow(o.window, &a); !s.ok()) {
    ReportError(cmd, s);
    return std::nullopt;
  }
  return a;
}

std::optional<memtrace::analysis::TraceAnalysis> AnalyzeOrReport(
    const std::string& cmd, const std::string& file, memtrace::ByteSource& src,
    memtrace::analysis::AnalysisOptions a) {
  Progress bar(cmd, "bytes", src.size());
  a.progress = BytesProgress(bar);
  auto result = memtrace::analysis::AnalyzeTrace(src, a);
  bar.Clear();
  if (!result.ok()) {
    ReportError(cmd + ": " + file, result.status());
    return std::nullopt;
  }
  WarnDamage(cmd, file, result->damage);
  return std::move(*result);
}

}  // namespace mpo::tools
