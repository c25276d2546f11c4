#include "tools/memtrace/memtrace_command.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/base/json_text.h"
#include "core/base/view_json.h"
#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/leaks.h"
#include "core/memtrace/analysis/site_compare.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/analysis/trace_diff.h"
#include "core/memtrace/analysis/trace_stats.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/trace_copy.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/trace_writer.h"
#include "core/memtrace/view/json_view.h"
#include "core/memtrace/view/text_dump.h"
#include "core/memtrace/view/trace_view.h"
#include "tools/exit_code.h"
#include "tools/export/folded_command.h"
#include "tools/lazy_commands.h"
#include "tools/memtrace/limit_options.h"
#include "tools/memtrace/report_command.h"
#include "tools/memtrace/window_options.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"
#include "tools/verdicts_option.h"

namespace mpo::tools {
namespace {

using namespace mpo::memtrace;  // NOLINT(build/namespaces): tool-local convenience

void WriteOut(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

// Byte progress of a read of `total` bytes (tools/progress.h), as a reader callback.
ProgressFn BytesProgress(Progress& p) {
  return [&p](std::uint64_t done, std::uint64_t) { p.Update(done); };
}

std::unique_ptr<ByteSource> OpenOrReport(const std::string& cmd, const std::string& path,
                                         io::FileId* id = nullptr) {
  auto src = OpenFileSource(path, id);
  if (!src.ok()) {
    ReportError(cmd, src.status());
    return nullptr;
  }
  return std::move(*src);
}

// Reads from `inner` until a write to stdout has failed, then fails: a dump of a huge
// trace then stops within a packet of the failed write instead of decoding the rest for
// nobody.
class UntilStdoutFails : public ByteSource {
 public:
  explicit UntilStdoutFails(ByteSource& inner) : inner_(inner) {}
  Result<std::size_t> ReadAt(std::uint64_t offset, std::span<std::uint8_t> out) override {
    if (StdoutFailed()) return Status(ErrorCode::kIo, "write error").WithField("stdout");
    return inner_.ReadAt(offset, out);
  }
  std::uint64_t size() const override { return inner_.size(); }

 private:
  ByteSource& inner_;
};

struct DumpOptions {
  std::string file;
  bool json = false;
  bool no_backtraces = false;
  bool oracle = false;
  // Two threads when there are two cores: the same bytes, and no more CPU time than one
  // (bench/scaling/README.md); a busy machine at worst runs them one after the other.
  unsigned threads = std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  Limits limits;
  Verdicts verdicts = Verdicts::kStrict;
};

void RunDump(const DumpOptions& o) {
  auto file = OpenOrReport("memtrace dump", o.file);
  if (!file) return;
  UntilStdoutFails src(*file);
  FileTextSink out(stdout);
  Progress bar("memtrace dump", "bytes", src.size());
  const ProgressFn progress = BytesProgress(bar);
  Status s;
  if (o.json) {
    view::JsonViewOptions options;
    options.backtraces = !o.no_backtraces;
    options.limits = o.limits;
    options.progress = progress;
    options.verdicts = o.verdicts;
    s = view::WriteJsonView(src, out, options);
  } else if (o.oracle) {
    s = WriteOracleDump(src, out, progress, o.limits);
  } else {
    s = WriteDumpTrace(src, out, !o.no_backtraces, progress, o.limits, o.verdicts, o.threads);
  }
  bar.Clear();
  std::fflush(stdout);
  // A failed write is reported once, by main's FinishStdout.
  if (!s.ok() && !StdoutFailed()) ReportError("memtrace dump: " + o.file, s);
}

struct CheckOptions {
  std::string file;
  bool json = false;
  bool keep_going = false;
  Limits limits;
  Verdicts verdicts = Verdicts::kStrict;
};

// What a check found, for the text line and for --json.
struct CheckResult {
  const TraceReader* reader = nullptr;  // null: the trace's header did not read
  std::uint64_t events = 0, bad_packets = 0, undefined_codes = 0;
  std::int64_t last_time = 0;
  std::vector<Status> errors;  // in file order; one unless --keep-going
};

// `{"file":S,"trace":{...}|null,"valid":B,"packets":N,"events":N,"locations":N,
// "undefined_location_codes":N,"bad_packets":N,"warnings":[{"offset":N,"message":S}],
// "error":null|ERROR,"errors":[ERROR,...]}`: "trace" is stats' member, ERROR the schema 2
// error object (core/base/view_json.h), "error" the first of "errors".
std::string CheckJson(const std::string& file, const CheckResult& c) {
  using json_text::AppendUint;
  std::string out = "{\"file\":";
  json_text::AppendString(out, file);
  const TraceReader* r = c.reader;
  if (r == nullptr) {
    out += ",\"trace\":null";
  } else {
    analysis::TraceAnalysis a;  // only the members AppendTraceMember reads
    a.info = r->info();
    a.version = r->version();
    a.duration_us = static_cast<std::uint64_t>(c.last_time - r->info().start_time);
    out += ',';
    analysis::AppendTraceMember(out, file, a);
  }
  out += ",\"valid\":";
  out += c.errors.empty() ? "true" : "false";
  out += ",\"packets\":";
  AppendUint(out, r ? r->packets_read() : 0);
  out += ",\"events\":";
  AppendUint(out, c.events);
  out += ",\"locations\":";
  AppendUint(out, r ? r->LocationCodes().size() : 0);
  out += ",\"undefined_location_codes\":";
  AppendUint(out, c.undefined_codes);
  out += ",\"bad_packets\":";
  AppendUint(out, c.bad_packets);
  out += ",\"warnings\":[";
  if (r != nullptr) {
    for (std::size_t i = 0; i < r->warnings().size(); ++i) {
      const ReaderWarning& w = r->warnings()[i];
      if (i > 0) out += ',';
      out += "{\"offset\":";
      AppendUint(out, w.offset);
      out += ",\"message\":";
      json_text::AppendString(out, w.message);
      out += '}';
    }
  }
  out += "],\"error\":";
  if (c.errors.empty())
    out += "null";
  else
    view_json::AppendError(out, c.errors.front());
  out += ",\"errors\":[";
  for (std::size_t i = 0; i < c.errors.size(); ++i) {
    if (i > 0) out += ',';
    view_json::AppendError(out, c.errors[i]);
  }
  out += "]}\n";
  return out;
}

void PrintCheckText(const CheckOptions& o, const CheckResult& c) {
  const TraceReader& r = *c.reader;
  for (const ReaderWarning& w : r.warnings())
    std::fprintf(stderr, "memprof-oracle: memtrace check: warning at offset 0x%" PRIx64 ": %s\n",
                 w.offset, w.message.c_str());
  std::printf("%s: v%03d, %" PRIu64 " packets, %" PRIu64 " events, %zu warnings", o.file.c_str(),
              r.version(), r.packets_read(), c.events, r.warnings().size());
  if (c.undefined_codes > 0)
    std::printf(", %" PRIu64 " undefined location codes", c.undefined_codes);
  if (o.keep_going) std::printf(", %" PRIu64 " bad packets", c.bad_packets);
  std::printf(c.errors.empty() ? ": ok\n" : ": INVALID\n");
}

void RunCheck(const CheckOptions& o) {
  auto src = OpenOrReport("memtrace check", o.file);
  if (!src) return;
  ReaderOptions ropts;
  ropts.limits = o.limits;
  ropts.rules = RulesOf(o.verdicts).memtrace;
  CheckResult c;
  // The decoded view: every reader check, and the undefined-location-code policy.
  auto opened = view::TraceView::Open(std::move(src), ropts);
  if (!opened.ok()) {
    ReportError("memtrace check: " + o.file, opened.status());
    c.errors.push_back(opened.status());
    if (o.json) WriteOut(CheckJson(o.file, c));
    return;
  }
  view::TraceView& v = **opened;
  const TraceReader& r = v.reader();
  c.reader = &r;
  c.last_time = r.info().start_time;
  Progress progress("memtrace check", "bytes", r.file_size());
  while (true) {
    const Event* ev = v.NextEvent();
    if (ev == nullptr && !v.status().ok()) {
      c.errors.push_back(v.status());
      // The reader is fine when the error is the view's undefined-code policy.
      ++(r.status().ok() ? c.undefined_codes : c.bad_packets);
      progress.Clear();
      std::fprintf(stderr, "memprof-oracle: memtrace check: %s: %s\n", o.file.c_str(),
                   v.status().ToString().c_str());
      if (o.keep_going && v.SkipAfterError()) continue;
      break;
    }
    if (ev == nullptr) break;
    ++c.events;
    c.last_time = ev->time;
    progress.Update(r.offset());
  }
  progress.Clear();
  if (o.json)
    WriteOut(CheckJson(o.file, c));
  else
    PrintCheckText(o, c);
  if (!c.errors.empty()) SetExitCode(kExitBadInput);
}

struct CopyOptions {
  std::string in, out;
  int version = 0;
  bool reencode = false;
  Limits limits;
};

// A copy must not hide damage the reader skipped with a warning (a truncated final
// packet, a packet from another process): the copy would read as a clean trace. The
// copy's own reader collected the warnings (no second read of the input).
Status RefuseSkippedData(const std::vector<ReaderWarning>& warnings) {
  if (warnings.empty()) return Status::Ok();
  const ReaderWarning& w = warnings.front();
  const bool truncated = w.message.find("truncated") != std::string::npos;
  return Status(truncated ? ErrorCode::kTruncated : ErrorCode::kCorrupt,
                "the reader skipped data (" + w.message + "; " + std::to_string(warnings.size()) +
                    " warning(s) in all), which a copy would hide; no output written")
      .AtOffset(w.offset);
}

void RunCopy(const CopyOptions& o) {
  io::FileId in_id;
  auto src = OpenOrReport("memtrace copy", o.in, &in_id);
  if (!src) return;
  // Written beside OUT and renamed over it only once complete: on any error below, an
  // existing OUT is left as it was and the temporary file is removed. Created before
  // anything of IN is read, so an OUT that cannot be written is refused at once.
  auto sink = AtomicFileSink::Create(o.out, std::span<const io::FileId>(&in_id, 1));
  if (!sink.ok()) {
    ReportError("memtrace copy", sink.status());
    return;
  }
  int version = o.version;
  if (version == 0) {
    auto r = TraceReader::Open(BorrowSource(*src));
    if (!r.ok()) {
      ReportError("memtrace copy: " + o.in, r.status());
      return;
    }
    version = std::max(2, (*r)->version());
  }
  CopyStats stats;
  Progress bar("memtrace copy", "bytes", src->size());
  Status s = CopyTrace(*src, **sink, version, &stats, BytesProgress(bar), o.limits,
                       o.reencode ? CopyMode::kReencode : CopyMode::kFast);
  if (s.ok()) s = RefuseSkippedData(stats.warnings);
  bar.Clear();
  if (!s.ok()) return ReportError("memtrace copy: " + o.in, s);
  if (Status c = (*sink)->Commit(); !c.ok()) ReportError("memtrace copy", c);
}

struct DiffOptions {
  std::string a, b;
  bool json = false;
  Limits limits;
};

// `{"a":S,"b":S,"equal":B,"difference":null|{"where":S,"field":S,"a":S,"b":S}}`.
std::string DiffJson(const DiffOptions& o, const std::optional<TraceDifference>& d) {
  std::string out = "{\"a\":";
  json_text::AppendString(out, o.a);
  out += ",\"b\":";
  json_text::AppendString(out, o.b);
  out +=
      d ? ",\"equal\":false,\"difference\":{\"where\":" : ",\"equal\":true,\"difference\":null}\n";
  if (!d) return out;
  json_text::AppendString(out, d->where);
  out += ",\"field\":";
  json_text::AppendString(out, d->field);
  out += ",\"a\":";
  json_text::AppendString(out, d->a);
  out += ",\"b\":";
  json_text::AppendString(out, d->b);
  out += "}}\n";
  return out;
}

void RunDiff(const DiffOptions& o) {
  auto sa = OpenOrReport("memtrace diff", o.a);
  auto sb = OpenOrReport("memtrace diff", o.b);
  if (!sa || !sb) return;
  DiffFailure failure;
  const std::optional<TraceDifference> d = DiffTraces(*sa, *sb, &failure, o.limits);
  if (!failure.status.ok())
    return ReportError("memtrace diff: " + (failure.side == 0 ? o.a : o.b), failure.status);
  if (o.json) {
    const std::string text = DiffJson(o, d);
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else if (d) {
    std::printf("%s: %s: %s | %s\n", d->where.c_str(), d->field.c_str(), d->a.c_str(),
                d->b.c_str());
  }
  if (d) SetExitCode(kExitBadInput);
}

// What stats, leaks and compare share: the window, --callers, --top, --json, limits.
struct AnalysisCommandOptions {
  std::size_t top = 10;
  bool json = false;
  std::size_t callers = 0;
  WindowOptions window;
  bool strict = false;
  Limits limits;
};

void AddAnalysisOptions(CLI::App* c, AnalysisCommandOptions* o) {
  AddStrictOption(c, &o->strict);
  c->add_option("--top", o->top, "number of sites to list, in [0, 10^9]")
      ->check(UnsignedIn(0, 1'000'000'000));
  AddCallersOption(c, &o->callers);
  AddWindowOptions(c, &o->window);
  AddLimitOptions(c, &o->limits);
}

// The analysis options of `o`; nullopt once reported (a bad window).
std::optional<analysis::AnalysisOptions> AnalysisOrReport(const std::string& cmd,
                                                          const AnalysisCommandOptions& o) {
  analysis::AnalysisOptions a;
  a.callers = o.callers;
  a.limits = o.limits;
  a.stop_at_damage = !o.strict;
  if (Status s = ApplyWindow(o.window, &a); !s.ok()) {
    ReportError(cmd, s);
    return std::nullopt;
  }
  return a;
}

// The analysis of `src` (opened from `file`) under `options`, with a progress bar;
// nullopt once reported.
std::optional<analysis::TraceAnalysis> AnalyzeOrReport(const std::string& cmd,
                                                       const std::string& file, ByteSource& src,
                                                       analysis::AnalysisOptions a) {
  Progress bar(cmd, "bytes", src.size());
  a.progress = BytesProgress(bar);
  auto result = analysis::AnalyzeTrace(src, a);
  bar.Clear();
  if (!result.ok()) {
    ReportError(cmd + ": " + file, result.status());
    return std::nullopt;
  }
  WarnDamage(cmd, file, result->damage);
  return std::move(*result);
}

struct StatsOptions {
  std::string file;
  std::string by = "bytes";
  std::string live_at;  // empty: not asked (the table ranks the allocations)
  AnalysisCommandOptions common;
};

void RunStats(const StatsOptions& o) {
  memtrace::StatsOptions so;
  so.top = o.common.top;
  so.by_words = o.by == "words";
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
  auto stats = ComputeTraceStats(*src, so);
  bar.Clear();
  if (!stats.ok()) return ReportError("memtrace stats: " + o.file, stats.status());
  WarnDamage("memtrace stats", o.file, stats->analysis.damage);
  WriteOut(o.common.json ? FormatTraceStatsJson(*stats, o.file) : FormatTraceStats(*stats, o.file));
}

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
  WriteOut(o.common.json ? analysis::FormatLeaksJson(*a, o.file, o.common.top)
                         : analysis::FormatLeaks(*a, o.file, o.common.top));
}

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
  WriteOut(o.common.json ? analysis::FormatCompareJson(*a, o.a, *b, o.b, o.common.top, live)
                         : analysis::FormatCompare(*a, o.a, *b, o.b, o.common.top, live));
}

void AddDump(CLI::App& mt) {
  auto dump = std::make_shared<DumpOptions>();
  CLI::App* d = mt.add_subcommand("dump", "Print a trace (memtrace's dump_trace text by default)");
  d->add_option("file", dump->file, "trace file")->required();
  d->add_flag("--json", dump->json,
              "the decoded view as schema 2 JSON Lines (core/corpus/SCHEMA.md): a header, "
              "one line per location (before first use), event or skipped packet, a trailer "
              "with the record count and the error");
  d->add_flag("--no-backtraces", dump->no_backtraces, "skip backtraces (fast path)");
  d->add_flag("--oracle", dump->oracle, "the golden oracle_dump format");
  d->add_option("--threads", dump->threads,
                "dump_trace text: 2 (the default on a machine with 2 or more cores) decodes "
                "on this thread while a second one formats and writes the text; 1 does it "
                "all on one thread (the same bytes; 2 is faster on long traces when a second "
                "core is free: bench/scaling/README.md)")
      ->check(CLI::Range(1, 2));
  AddLimitOptions(d, &dump->limits);
  // The golden oracle_dump form keeps the strict reader.
  AddVerdictsOption(d, &dump->verdicts, VerdictFormat::kMemtrace)->excludes("--oracle");
  d->callback([dump] { RunDump(*dump); });
}

void AddCheck(CLI::App& mt) {
  auto check = std::make_shared<CheckOptions>();
  CLI::App* c = mt.add_subcommand("check", "Validate a trace");
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

void AddCopy(CLI::App& mt) {
  auto copy = std::make_shared<CopyOptions>();
  CLI::App* cp = mt.add_subcommand(
      "copy",
      "Decode and re-encode a trace (one that re-encoding would give back byte for byte is "
      "decoded and checked in full, then copied as it is). OUT is written beside its name "
      "and renamed into place only when complete; OUT may not be IN (nor a link to it), and "
      "an input the reader skips data of (a truncated final packet) is refused (exit 1)");
  cp->add_option("in", copy->in, "input trace")->required();
  cp->add_option("out", copy->out, "output trace")->required();
  cp->add_option("--format-version", copy->version, "2 or 3 (default: the input's)")
      ->check(UnsignedIn(2, 3));
  cp->add_flag("--reencode", copy->reencode,
               "encode every event again, even when the trace is already what the writer "
               "writes (the same bytes; the input is read once instead of twice)");
  AddLimitOptions(cp, &copy->limits);
  cp->callback([copy] { RunCopy(*copy); });
}

void AddDiff(CLI::App& mt) {
  auto diff = std::make_shared<DiffOptions>();
  CLI::App* df = mt.add_subcommand(
      "diff", "First semantic difference between two traces (exit 1 when they differ)");
  df->add_option("a", diff->a, "first trace")->required();
  df->add_option("b", diff->b, "second trace")->required();
  df->add_flag("--json", diff->json,
               "one JSON object: {\"a\",\"b\",\"equal\",\"difference\": null or "
               "{\"where\",\"field\",\"a\",\"b\"}}");
  AddLimitOptions(df, &diff->limits);
  df->callback([diff] { RunDiff(*diff); });
}

void AddStats(CLI::App& mt) {
  auto stats = std::make_shared<StatsOptions>();
  CLI::App* st = mt.add_subcommand(
      "stats",
      "Totals, top allocation sites, rates, lifetimes, live heap. Sizes are estimated bytes "
      "(samples / sample rate * word size / 8); a site is the innermost frame of the backtrace "
      "(inlined frames expanded). Lifetime median and p90 are exact up to 65,536 collections, then "
      "within 0.4% "
      "(printed ~N). With --live-at, the sites table ranks and lists the blocks (allocated in "
      "the window) live at that time instead of the allocations. --json prints one document "
      "(members: core/memtrace/analysis/trace_stats.h)");
  st->add_option("file", stats->file, "trace file")->required();
  st->add_option("--by", stats->by, "rank sites by estimated bytes (default) or sampled words")
      ->check(CLI::IsMember({"bytes", "words"}));
  AddLiveAtOption(st, &stats->live_at);
  st->add_flag("--json", stats->common.json, "one JSON document");
  AddAnalysisOptions(st, &stats->common);
  st->callback([stats] { RunStats(*stats); });
}

void AddLeaks(CLI::App& mt) {
  auto leaks = std::make_shared<LeaksOptions>();
  CLI::App* lk = mt.add_subcommand(
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

void AddCompare(CLI::App& mt) {
  auto compare = std::make_shared<CompareOptions>();
  CLI::App* cmp = mt.add_subcommand(
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

// The group's subcommands, in the order --help lists them.
constexpr LazyCommand kMemtraceCommands[] = {
    {"dump", &AddDump},
    {"check", &AddCheck},
    {"copy", &AddCopy},
    {"diff", &AddDiff},
    {"stats", &AddStats},
    {"leaks", &AddLeaks},
    {"compare", &AddCompare},
    {"report", &AddMemtraceReportCommand},
    {"folded", &AddMemtraceFoldedCommand},
};

}  // namespace

void AddMemtraceCommands(CLI::App& app, std::span<char* const> rest) {
  CLI::App* mt = app.add_subcommand("memtrace", "Read, check, convert and compare memtrace traces");
  mt->require_subcommand(1);
  AddReachable(*mt, kMemtraceCommands, rest);
}

}  // namespace mpo::tools
