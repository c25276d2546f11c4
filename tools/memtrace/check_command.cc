#include "tools/memtrace/check_command.h"

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>

#include "core/base/verdicts.h"
#include "core/memtrace/analysis/trace_check.h"
#include "core/memtrace/trace_reader.h"
#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"
#include "tools/memtrace/memtrace_io.h"
#include "tools/progress.h"
#include "tools/verdicts_option.h"

namespace mpo::tools {
namespace {

using memtrace::analysis::TraceCheck;

struct CheckOptions {
  std::string file;
  bool json = false;
  bool keep_going = false;
  memtrace::Limits limits;
  Verdicts verdicts = Verdicts::kStrict;
};

void PrintCheckText(const CheckOptions& o, const TraceCheck& c) {
  for (const memtrace::ReaderWarning& w : c.warnings)
    std::fprintf(stderr, "memprof-oracle: memtrace check: warning at offset 0x%" PRIx64 ": %s\n",
                 w.offset, w.message.c_str());
  std::printf("%s: v%03d, %" PRIu64 " packets, %" PRIu64 " events, %zu warnings", o.file.c_str(),
              c.version, c.packets, c.events, c.warnings.size());
  if (c.undefined_codes > 0)
    std::printf(", %" PRIu64 " undefined location codes", c.undefined_codes);
  if (o.keep_going) std::printf(", %" PRIu64 " bad packets", c.bad_packets);
  std::printf(c.valid() ? ": ok\n" : ": INVALID\n");
}

void RunCheck(const CheckOptions& o) {
  auto src = OpenOrReport("memtrace check", o.file);
  if (!src) return;
  Progress progress("memtrace check", "bytes", src->size());
  memtrace::analysis::TraceCheckOptions options;
  options.reader.limits = o.limits;
  options.reader.rules = RulesOf(o.verdicts).memtrace;
  options.keep_going = o.keep_going;
  options.progress = BytesProgress(progress);
  options.on_error = [&](const Status& s) {
    progress.Clear();
    std::fprintf(stderr, "memprof-oracle: memtrace check: %s: %s\n", o.file.c_str(),
                 s.ToString().c_str());
  };
  const TraceCheck c = memtrace::analysis::CheckTrace(std::move(src), options);
  progress.Clear();
  if (!c.header_read) {
    ReportError("memtrace check: " + o.file, c.errors.front());
    if (o.json) WriteOut(memtrace::analysis::FormatTraceCheckJson(c, o.file));
    return;
  }
  if (o.json)
    WriteOut(memtrace::analysis::FormatTraceCheckJson(c, o.file));
  else
    PrintCheckText(o, c);
  if (!c.valid()) SetExitCode(kExitBadInput);
}

}  // namespace

void AddMemtraceCheckCommand(CLI::App& memtrace) {
  auto check = std::make_shared<CheckOptions>();
  CLI::App* c = memtrace.add_subcommand("check", "Validate a trace");
  c->add_option("file", check->file, "trace file")->required();
  c->add_flag("--keep-going", check->keep_going, "report every bad packet");
  c->add_flag("--json", check->json,
              "one JSON object: {\"file\",\"trace\" (as stats'), \"valid\",\"packets\","
              "\"events\",\"locations\",\"undefined_location_codes\",\"bad_packets\","
              "\"warnings\",\"error\": null or the schema 2 error object, \"errors\"}; "
              "the exit code is the text form's");
  AddLimitOptions(c, &check->limits);
  AddVerdictsOption(c, &check->verdicts, VerdictFormat::kMemtrace);
  c->callback([check] { RunCheck(*check); });
}

}  // namespace mpo::tools
