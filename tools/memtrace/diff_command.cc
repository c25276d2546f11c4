#include "tools/memtrace/diff_command.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "core/memtrace/analysis/trace_diff.h"
#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"
#include "tools/memtrace/memtrace_io.h"

namespace mpo::tools {
namespace {

using namespace mpo::memtrace;  // NOLINT(build/namespaces): tool-local convenience

struct DiffOptions {
  std::string a, b;
  bool json = false;
  Limits limits;
};

void RunDiff(const DiffOptions& o) {
  auto sa = OpenOrReport("memtrace diff", o.a);
  auto sb = OpenOrReport("memtrace diff", o.b);
  if (!sa || !sb) return;
  DiffFailure failure;
  const std::optional<TraceDifference> d = DiffTraces(*sa, *sb, &failure, o.limits);
  if (!failure.status.ok())
    return ReportError("memtrace diff: " + (failure.side == 0 ? o.a : o.b), failure.status);
  if (o.json) {
    WriteOut(FormatTraceDiffJson(o.a, o.b, d));
  } else if (d) {
    std::printf("%s: %s: %s | %s\n", d->where.c_str(), d->field.c_str(), d->a.c_str(),
                d->b.c_str());
  }
  if (d) SetExitCode(kExitBadInput);
}

}  // namespace

void AddMemtraceDiffCommand(CLI::App& memtrace) {
  auto diff = std::make_shared<DiffOptions>();
  CLI::App* df = memtrace.add_subcommand(
      "diff", "First semantic difference between two traces (exit 1 when they differ)");
  df->add_option("a", diff->a, "first trace")->required();
  df->add_option("b", diff->b, "second trace")->required();
  df->add_flag("--json", diff->json,
               "one JSON object: {\"a\",\"b\",\"equal\",\"difference\": null or "
               "{\"where\",\"field\",\"a\",\"b\"}}");
  AddLimitOptions(df, &diff->limits);
  df->callback([diff] { RunDiff(*diff); });
}

}  // namespace mpo::tools
