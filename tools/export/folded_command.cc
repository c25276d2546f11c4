#include "tools/export/folded_command.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "core/export/folded.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/view/text_dump.h"
#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"
#include "tools/memtrace/progress_source.h"
#include "tools/memtrace/window_options.h"
#include "tools/progress.h"

namespace mpo::tools {
namespace {

struct FoldedCommandOptions {
  std::string file;
  std::string by = "samples";
  bool functions = false;
  bool collapse_recursion = false;
  std::string live_at;  // empty: not asked (every allocation counts)
  WindowOptions window;
  bool strict = false;
  memtrace::Limits limits;
};

// Takes the progress line away before the first stack reaches a terminal.
class ClearingSink : public TextSink {
 public:
  ClearingSink(TextSink& out, Progress& progress) : out_(out), progress_(progress) {}
  void Write(std::string_view text) override {
    progress_.Clear();
    out_.Write(text);
  }

 private:
  TextSink& out_;
  Progress& progress_;
};

void RunFolded(const FoldedCommandOptions& c) {
  exporter::FoldedOptions o;
  o.weight = c.by == "words"   ? exporter::FoldedWeight::kWords
             : c.by == "bytes" ? exporter::FoldedWeight::kBytes
                               : exporter::FoldedWeight::kSamples;
  o.functions = c.functions;
  o.collapse_recursion = c.collapse_recursion;
  o.limits = c.limits;
  memtrace::analysis::AnalysisOptions window;
  if (Status s = ApplyWindow(c.window, &window); !s.ok()) return ReportError("memtrace folded", s);
  o.from_us = window.from_us;
  o.to_us = window.to_us;
  if (!c.live_at.empty()) {
    ApplyLiveAt(c.live_at, &window);
    o.live_at = window.live_at;
  }
  auto src = memtrace::OpenFileSource(c.file);
  if (!src.ok()) return ReportError("memtrace folded", src.status());
  memtrace::FileTextSink file(stdout);
  Progress progress("memtrace folded", "bytes", (*src)->size());
  ProgressSource counted(**src, progress);
  ClearingSink out(file, progress);
  std::optional<memtrace::analysis::Damage> damage;
  if (!c.strict) o.damage = &damage;
  const Status s = exporter::WriteFoldedStacks(counted, o, out);
  progress.Clear();
  if (!s.ok()) return ReportError("memtrace folded " + c.file, s);
  WarnDamage("memtrace folded", c.file, damage);
}

}  // namespace

void AddMemtraceFoldedCommand(CLI::App& memtrace) {
  CLI::App* mt = &memtrace;
  auto o = std::make_shared<FoldedCommandOptions>();
  CLI::App* f = mt->add_subcommand(
      "folded",
      "Folded stacks (caller first) for flamegraph.pl and speedscope; entries memtrace could "
      "not name (C and runtime frames) are left out, allocations with no frame at all are "
      "'<no backtrace>'. With --live-at, only the allocations whose blocks are live at that "
      "time (the peak: found by a first pass over the trace)");
  f->add_option("file", o->file, "trace file")->required();
  f->add_option("--by", o->by,
                "count samples (default), sampled words, or estimated bytes (samples / sample "
                "rate * word size / 8)")
      ->check(CLI::IsMember({"samples", "words", "bytes"}));
  f->add_flag("--functions", o->functions, "name frames by function only (no file:line)");
  f->add_flag("--collapse-recursion", o->collapse_recursion,
              "drop a frame equal to its caller's (with --functions: a function calling "
              "itself at any line)");
  AddWindowOptions(f, &o->window);
  AddLiveAtOption(f, &o->live_at);
  AddStrictOption(f, &o->strict);
  AddLimitOptions(f, &o->limits);
  f->callback([o] { RunFolded(*o); });
}

}  // namespace mpo::tools
