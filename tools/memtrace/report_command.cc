#include "tools/memtrace/report_command.h"

#include <memory>
#include <optional>
#include <span>
#include <string>

#include "core/export/folded.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/report/collapsed_flame.h"
#include "core/memtrace/report/flame_tree.h"
#include "core/memtrace/report/html_report.h"
#include "core/memtrace/report/inverted_flame.h"
#include "tools/exit_code.h"
#include "tools/memtrace/limit_options.h"
#include "tools/memtrace/progress_source.h"
#include "tools/memtrace/window_options.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"

namespace mpo::tools {
namespace {

struct ReportOptions {
  std::string file, out;
  std::size_t top = 20;
  std::size_t flame_nodes = 2000;
  std::size_t callers = 0;
  std::string live_at = "end";
  WindowOptions window;
  bool strict = false;
  memtrace::Limits limits;
};

// The flame tree of the window's folded stacks (in samples), whole: the collapsed and
// inverted trees are made from it before all are cut to `o.flame_nodes`; with `live_at`,
// those of the blocks live then. A pass over the file of its own: the folded stacks' own
// tree bounds its memory.
Result<memtrace::report::FlameTree> Flame(
    memtrace::ByteSource& src, const ReportOptions& o,
    const memtrace::analysis::AnalysisOptions& window,
    std::optional<memtrace::analysis::LiveAt> live_at = std::nullopt) {
  exporter::FoldedOptions f;
  f.live_at = live_at;
  f.from_us = window.from_us;
  f.to_us = window.to_us;
  f.limits = o.limits;
  // The analysis pass has said where the damage is; this pass stops at the same place.
  std::optional<memtrace::analysis::Damage> damage;
  if (window.stop_at_damage) f.damage = &damage;
  memtrace::report::FlameTreeBuilder builder(o.limits.max_held_frames);
  if (Status s = exporter::WriteFoldedStacks(src, f, builder); !s.ok()) return s;
  return builder.Finish();
}

// Three passes over the file (the analysis, the flame graph, the live blocks' flame
// graph), counted as one progress of three times its size; the trees with recursion
// collapsed and inverted are made in memory from the second's.
Result<std::string> Page(memtrace::ByteSource& src, const ReportOptions& o,
                         const memtrace::analysis::AnalysisOptions& window) {
  const std::uint64_t size = src.size();
  Progress progress("memtrace report", "bytes", 3 * size);
  memtrace::analysis::AnalysisOptions a = window;
  a.progress = [&progress](std::uint64_t done, std::uint64_t) { progress.Update(done); };
  auto analysis = memtrace::analysis::AnalyzeTrace(src, a);
  if (!analysis.ok()) return analysis.status();
  progress.Clear();
  WarnDamage("memtrace report", o.file, analysis->damage);
  ProgressSource counted(src, progress, size);
  auto tree = Flame(counted, o, window);
  if (!tree.ok()) return tree.status();
  memtrace::report::FlameTrees flame;
  flame.collapsed =
      memtrace::report::Bounded(memtrace::report::CollapseRecursion(*tree), o.flame_nodes);
  flame.inverted = memtrace::report::InvertedTree(*tree, o.flame_nodes);
  flame.stacks = memtrace::report::Bounded(*tree, o.flame_nodes);
  // The live blocks at the time the analysis resolved (the peak is not looked for again).
  memtrace::analysis::LiveAt at = analysis->live_at;
  if (at.kind == memtrace::analysis::LiveAt::Kind::kPeak)
    at = {memtrace::analysis::LiveAt::Kind::kTime, analysis->live_at_us};
  ProgressSource counted_live(src, progress, 2 * size);
  auto live = Flame(counted_live, o, window, at);
  if (!live.ok()) return live.status();
  flame.live = memtrace::report::Bounded(*live, o.flame_nodes);
  return memtrace::report::FormatHtmlReport(*analysis, o.file, flame, o.top);
}

void RunReport(const ReportOptions& o) {
  const std::string cmd = "memtrace report";
  memtrace::analysis::AnalysisOptions a;
  a.callers = o.callers;
  a.limits = o.limits;
  a.stop_at_damage = !o.strict;
  if (Status s = ApplyWindow(o.window, &a); !s.ok()) return ReportError(cmd, s);
  ApplyLiveAt(o.live_at, &a);
  io::FileId in_id;
  auto src = memtrace::OpenFileSource(o.file, &in_id);
  if (!src.ok()) return ReportError(cmd, src.status());
  // Before the analysis: an OUT that cannot be written is refused before any work.
  auto sink = memtrace::AtomicFileSink::Create(o.out, std::span<const io::FileId>(&in_id, 1));
  if (!sink.ok()) return ReportError(cmd, sink.status());
  auto page = Page(**src, o, a);
  if (!page.ok()) return ReportError(cmd + ": " + o.file, page.status());
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(page->data());
  Status s = (*sink)->Write(std::span<const std::uint8_t>(bytes, page->size()));
  if (s.ok()) s = (*sink)->Commit();
  if (!s.ok()) ReportError(cmd, s);
}

}  // namespace

void AddMemtraceReportCommand(CLI::App& memtrace) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* r = memtrace.add_subcommand(
      "report",
      "One self-contained HTML page (no network): trace info, top allocation sites, the "
      "estimated live heap over time (the true live heap from 0 to the trace's end, each "
      "step's least and most, the peak marked, the window shaded, a readout on hover), the "
      "leak candidates by site (allocated in the window, live at --live-at), and three flame "
      "graphs: the allocations (click to zoom; a box collapses recursion by the rule of "
      "folded's option), the same inverted (allocation points first, callers below) and the "
      "blocks live at --live-at; a search box highlights a function in all three, a click on "
      "a column heading sorts a table. External allocations are counted at the caller of "
      "memtrace's tracer. "
      "Figures are those of `memtrace stats`. Bounded for any input: each name is shown as "
      "text of at most 256 bytes (cut with \"...\", bytes that are not UTF-8 as U+FFFD), and "
      "the page is at most 64 KiB + 2 KiB x (4 x flame-nodes + 2 x top x (callers + 1))");
  r->add_option("file", o->file, "trace file")->required();
  r->add_option("-o,--output", o->out, "the HTML file to write")->required();
  r->add_option("--top", o->top, "sites listed in the tables, in [1, 10^4]")
      ->check(UnsignedIn(1, 10'000));
  r->add_option("--flame-nodes", o->flame_nodes,
                "nodes at most in each flame graph, \"other\" included (the smallest are "
                "merged into \"other\"), in [16, 10^5]")
      ->check(UnsignedIn(16, 100'000));
  AddCallersOption(r, &o->callers);
  AddWindowOptions(r, &o->window);
  AddLiveAtOption(r, &o->live_at);
  AddStrictOption(r, &o->strict);
  AddLimitOptions(r, &o->limits);
  r->callback([o] { RunReport(*o); });
}

}  // namespace mpo::tools
