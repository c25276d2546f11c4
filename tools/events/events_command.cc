#include "tools/events/events_command.h"

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/text_sink.h"
#include "core/export/chrome_trace.h"
#include "core/export/fuchsia_trace.h"
#include "core/io/input_file.h"
#include "core/io/output_file.h"
#include "core/io/readable_input.h"
#include "core/ring/cursor.h"
#include "core/ring/event_names.h"
#include "core/ring/view/dump_format.h"
#include "core/ring/view/event_decoder.h"
#include "core/ring/view/json_view.h"
#include "tools/events/pid_arg.h"
#include "tools/events/record_command.h"
#include "tools/events/stats_view.h"
#include "tools/events/tail_command.h"
#include "tools/events/tail_process.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"
#include "tools/progress.h"
#include "tools/verdicts_option.h"

namespace mpo::tools {
namespace {

using ring::view::RingEvent;

struct EventsOptions {
  std::vector<std::string> source;     // FILE, or DIR PID
  std::string file;                    // chrome input
  std::string out;                     // chrome output
  std::optional<std::string> version;  // none: from the file name, else 5.3
  std::vector<std::string> tags;       // NAME=TAG
  std::size_t batch = 16;
  bool json = false;
  Verdicts verdicts = Verdicts::kStrict;  // dump --as
  double interval_ms = 100;
  double max_seconds = 0;  // tail: 0 = until the process exits
  std::string follow;      // tail --follow FILE
};

struct Source {
  std::string path;
  std::int64_t pid = -1;  // -1 when given a file
};

Result<Source> ParseSource(const std::vector<std::string>& args) {
  if (args.size() == 1) return Source{args[0], -1};
  if (args.size() == 2) {
    auto parsed = ParsePid(args[1]);
    if (!parsed.ok()) return parsed.status();
    const std::int64_t pid = *parsed;
    return Source{
        (args[0].empty() ? std::string(".") : args[0]) + "/" + std::to_string(pid) + ".events",
        pid};
  }
  return Status(ErrorCode::kInvalidArgument, "give DIR PID or FILE").WithField("arguments");
}

// --ocaml-version if given; else the release a `NAME.ocaml-5.N.events` file name
// states (the corpus's cases); else 5.3.
Result<ring::OcamlVersion> ParseVersion(const std::optional<std::string>& v,
                                        const std::string& path) {
  if (!v) return ring::OcamlVersionOfFileName(path).value_or(ring::kDefaultOcamlVersion);
  auto parsed = ring::ParseOcamlVersion(*v);
  if (!parsed) {
    return Status(ErrorCode::kInvalidArgument, "unknown OCaml release " + *v + " (5.0 .. 5.5)")
        .WithField("--ocaml-version");
  }
  return *parsed;
}

Result<std::map<std::string, std::string>> ParseTags(const std::vector<std::string>& tags) {
  std::map<std::string, std::string> m;
  for (const std::string& t : tags) {
    const auto eq = t.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status(ErrorCode::kInvalidArgument, "expected NAME=TAG, got " + t).WithField("--tag");
    }
    m[t.substr(0, eq)] = t.substr(eq + 1);
  }
  return m;
}

// A ring file input: a missing file is a usage/I/O error (exit 2) like every other
// missing input, whatever code the cursor mirrors from OCaml (E_OPEN_FAILURE).
Result<ring::Cursor> OpenRing(const std::string& path, std::size_t batch,
                              Verdicts verdicts = Verdicts::kStrict) {
  auto c = ring::Cursor::OpenFile(path, ring::CursorOptions{batch, RulesOf(verdicts).ring});
  if (!c.ok() && c.status().code() == ErrorCode::kNotFound) {
    Status s(ErrorCode::kIo, c.status().message());
    return std::move(s.WithField(c.status().field()));
  }
  return c;
}

// Polls until a poll delivers nothing (a file no process writes any more).
Result<std::pair<std::uint64_t, std::uint64_t>> Drain(ring::Cursor& c, ring::EventCallbacks& cb,
                                                      const std::function<void()>& after_poll) {
  std::uint64_t polls = 0, total = 0;
  while (true) {
    auto n = c.ReadPoll(cb);
    if (!n.ok()) return n.status();
    ++polls;
    total += *n;
    after_poll();
    if (*n == 0) return std::make_pair(polls, total);
  }
}

// The schema 2 stream (core/ring/view/json_view.h) on stdout. A ring that cannot be
// read (no file, not a regular file) is an I/O error with no stream; a bad one gets its
// stream, ended by the error, and the error on stderr too.
void RunDumpJson(const Source& src, ring::OcamlVersion version, std::size_t batch,
                 Verdicts verdicts) {
  auto cursor = OpenRing(src.path, batch, verdicts);
  if (!cursor.ok() && ExitCodeFor(cursor.status()) == kExitUsage) {
    return ReportError("events dump " + src.path, cursor.status());
  }
  FileTextSink out(stdout);
  const Status s = ring::view::WriteJsonView(cursor, version, out);
  if (!s.ok()) ReportError("events dump " + src.path, s);
}

void RunDump(const EventsOptions& o) {
  auto src = ParseSource(o.source);
  if (!src.ok()) return ReportError("events dump", src.status());
  auto version = ParseVersion(o.version, src->path);
  auto tags = ParseTags(o.tags);
  if (!version.ok()) return ReportError("events dump", version.status());
  if (!tags.ok()) return ReportError("events dump", tags.status());
  if (o.json) return RunDumpJson(*src, *version, o.batch, o.verdicts);
  auto cursor = OpenRing(src->path, o.batch, o.verdicts);
  if (!cursor.ok()) return ReportError("events dump " + src->path, cursor.status());
  ring::GoldenLineWriter writer(*version, *tags);
  auto r = Drain(*cursor, writer, [&] { std::fputs(writer.TakeText().c_str(), stdout); });
  if (!r.ok()) return ReportError("events dump " + src->path, r.status());
  std::printf("# read_poll calls=%llu total_events=%llu\n",
              static_cast<unsigned long long>(r->first),
              static_cast<unsigned long long>(r->second));
  if (!writer.error().ok()) return ReportError("events dump " + src->path, writer.error());
}

void RunTail(const EventsOptions& o) {
  auto target = ResolveTailTarget(o.source, o.follow);
  if (!target.ok()) return ReportError("events tail", target.status());
  auto version = ParseVersion(o.version, target->path);
  auto tags = ParseTags(o.tags);
  if (!version.ok()) return ReportError("events tail", version.status());
  if (!tags.ok()) return ReportError("events tail", tags.status());
  auto cursor = OpenTailRing(*target, TailOptions{o.interval_ms, o.max_seconds},
                             [&] { return OpenRing(target->path, o.batch); });
  if (!cursor.ok()) {
    const bool gone = target->pid >= 0 && !ProcessAlive(target->pid);
    return ReportError("events tail " + target->path +
                           (gone ? " (process " + std::to_string(target->pid) + " not found)" : ""),
                       cursor.status());
  }
  ring::GoldenLineWriter writer(*version, *tags);
  const Status s = TailRing(
      *cursor, *target, writer, [&] { return writer.TakeText(); },
      TailOptions{o.interval_ms, o.max_seconds});
  if (!s.ok()) ReportError("events tail " + target->path, s);
}

// Statistics of a whole ring, streamed: no event is kept.
Result<exporter::RingStats> Stats(const EventsOptions& o) {
  auto src = ParseSource(o.source);
  if (!src.ok()) return src.status();
  auto version = ParseVersion(o.version, src->path);
  if (!version.ok()) return version.status();
  auto cursor = OpenRing(src->path, o.batch);
  if (!cursor.ok()) return cursor.status();
  exporter::RingStatsAccumulator stats;
  ring::view::EventCollector collector(*version, [&](const RingEvent& e) { stats.Add(e); });
  auto r = Drain(*cursor, collector, [] {});
  if (!r.ok()) return r.status();
  if (!collector.error().ok()) return collector.error();
  return stats.Finish();
}

// Feeds every event of a fresh cursor on the ring to `writer`, then finishes it; counts
// the events on `progress` from `done`.
template <class Writer>
Status StreamRing(const EventsOptions& o, ring::OcamlVersion version, Writer& writer,
                  Progress& progress, std::uint64_t done) {
  auto cursor = OpenRing(o.file, o.batch);
  if (!cursor.ok()) return cursor.status();
  ring::view::EventCollector collector(version, [&](const RingEvent& e) {
    writer.Add(e);
    progress.Update(++done);
  });
  auto r = Drain(*cursor, collector, [] {});
  if (!r.ok()) return r.status();
  if (!collector.error().ok()) return collector.error();
  writer.Finish();
  return Status();
}

enum class ExportFormat : std::uint8_t { kChrome, kFuchsia };

// Two passes over the ring, each streaming: the first finds the time origin and the
// pid, the second writes the export. Memory does not grow with the number of events.
Status WriteExport(const EventsOptions& o, ExportFormat format) {
  if (o.file == io::kStdinPath) {
    return Status(ErrorCode::kInvalidArgument,
                  "an export reads the ring twice, which stdin cannot give; save it to a file "
                  "first (`events dump` and `events stats` read stdin)")
        .WithField("file");
  }
  auto version = ParseVersion(o.version, o.file);
  if (!version.ok()) return version.status();
  auto scan_cursor = OpenRing(o.file, o.batch);
  if (!scan_cursor.ok()) return scan_cursor.status();
  auto id = io::IdentityOf(o.file);
  if (!id.ok()) return id.status();
  std::vector<io::FileId> inputs;
  if (id->has_value()) inputs.push_back(**id);
  // Refuses OUT == the ring (also through a link) before anything is written.
  auto out = io::AtomicOutput::Create(o.out, inputs);
  if (!out.ok()) return out.status();

  // Events of both passes: the total is known once the first has counted them.
  Progress progress(format == ExportFormat::kChrome ? "events chrome" : "events fuchsia", "events",
                    0);
  exporter::ChromeTraceScan scan;
  std::uint64_t events = 0;
  ring::view::EventCollector scanner(*version, [&](const RingEvent& e) {
    scan.Add(e);
    progress.Update(++events);
  });
  auto r = Drain(*scan_cursor, scanner, [] {});
  if (!r.ok()) return r.status();
  if (!scanner.error().ok()) return scanner.error();
  scan_cursor->Close();
  progress.SetTotal(2 * events);

  auto write = [&](std::string_view text) { (void)out->Write(text); };
  // A wrapped ring lost its ring_start, and the pid with it; OCaml's file name keeps it.
  const std::int64_t pid = PidOfRingFileName(o.file, 1);
  Status s;
  if (format == ExportFormat::kChrome) {
    exporter::ChromeTraceWriter writer(scan.origin(), scan.pid(pid), write);
    s = StreamRing(o, *version, writer, progress, events);
  } else {
    exporter::FuchsiaTraceWriter writer(scan.pid(pid), write);
    s = StreamRing(o, *version, writer, progress, events);
  }
  progress.Clear();
  if (!s.ok()) return s;
  // Write errors are sticky; Commit reports the first and removes the temporary file.
  return out->Commit();
}

void RunChrome(const EventsOptions& o) {
  if (Status s = WriteExport(o, ExportFormat::kChrome); !s.ok()) ReportError("events chrome", s);
}

void RunFuchsia(const EventsOptions& o) {
  if (Status s = WriteExport(o, ExportFormat::kFuchsia); !s.ok()) {
    ReportError("events fuchsia", s);
  }
}

void RunStats(const EventsOptions& o) {
  auto stats = Stats(o);
  if (!stats.ok()) return ReportError("events stats", stats.status());
  const exporter::RingStats& s = *stats;
  if (o.json) {
    std::printf("%s\n", exporter::DumpJson(StatsJson(s), 2).c_str());
  } else {
    std::fputs(FormatStats(s).c_str(), stdout);
  }
}

void AddCommon(CLI::App* cmd, EventsOptions& o) {
  cmd->add_option("--ocaml-version", o.version,
                  "OCaml release whose phase/counter numbering the file uses (5.0 .. 5.5); "
                  "default: 5.N for a file named NAME.ocaml-5.N.events (as the conformance "
                  "corpus names them), else 5.3");
  cmd->add_option("--batch", o.batch,
                  "messages validated per fence and head re-check (1 = OCaml's algorithm)")
      ->check(UnsignedIn(1, 64));
}

}  // namespace

void AddEventsCommands(CLI::App& app) {
  auto o = std::make_shared<EventsOptions>();
  CLI::App* events =
      app.add_subcommand("events", "Read OCaml 5 runtime events ring files (<pid>.events)");
  events->require_subcommand(1);

  CLI::App* dump = events->add_subcommand(
      "dump", "Print every event as OCaml's consumer delivers it (golden text lines)");
  dump->add_option("source", o->source, "DIR PID, or FILE")->required()->expected(1, 2);
  dump->add_flag("--json", o->json,
                 "the decoded view as schema 2 JSON Lines instead (core/corpus/SCHEMA.md): a "
                 "header line, one record per event, an end line with the error (if any) and "
                 "the record count; a bad ring still gets its stream and exits 1");
  dump->add_option("--tag", o->tags, "NAME=TAG: the OCaml tag of a user event (default UNK)");
  AddCommon(dump, *o);
  AddVerdictsOption(dump, &o->verdicts, VerdictFormat::kRing);
  dump->callback([o] { RunDump(*o); });

  CLI::App* tail = events->add_subcommand(
      "tail",
      "Follow a live ring until the process exits, the file goes, --max-seconds or Ctrl-C; "
      "always says on stderr why it stopped. PID alone: the ring in $OCAML_RUNTIME_EVENTS_DIR "
      "(else the current directory). PID: an integer in [1, 2^31-1]. A ring file that "
      "shrinks is an error, never a crash.");
  tail->add_option("source", o->source, "[DIR] PID")->expected(1, 2);
  tail->add_option("--follow", o->follow,
                   "follow this ring file, whatever writes it, until it is removed or "
                   "replaced, --max-seconds, or Ctrl-C (instead of [DIR] PID)");
  tail->add_option("--tag", o->tags, "NAME=TAG: the OCaml tag of a user event (default UNK)");
  tail->add_option("--interval-ms", o->interval_ms, "pause between polls")
      ->check(MillisecondsIn(0.0, 60000.0));
  tail->add_option("--max-seconds", o->max_seconds,
                   "stop after this long (0: when the process exits)")
      ->check(SecondsIn(0.0, 1e9));
  AddCommon(tail, *o);
  tail->callback([o] { RunTail(*o); });

  CLI::App* chrome = events->add_subcommand(
      "chrome",
      "Write Chrome trace-event JSON (Perfetto, chrome://tracing): one process (the ring's "
      "pid, named by process_name), one thread per domain (tid = domain index, thread_name "
      "\"domain N\"); counters are C events named \"NAME (domain N)\", so each domain has "
      "its own counter track; phases and user spans are B/E balanced per domain even on a "
      "wrapped ring (an E whose B was lost becomes an instant, spans still open at the end "
      "are closed at the domain's last event, each with args.note); lost_events instants sit "
      "at their domain's previous (else next) event time; ts in microseconds, no "
      "displayTimeUnit. Streamed: memory does not grow with the ring's size. OUT is written "
      "beside itself and renamed into place only on success; OUT naming the input (also via "
      "a link) is refused.");
  chrome->add_option("file", o->file, "the .events file")->required();
  chrome->add_option("out", o->out, "output JSON file")->required();
  AddCommon(chrome, *o);
  chrome->callback([o] {
    o->source = {o->file};
    RunChrome(*o);
  });

  CLI::App* fuchsia = events->add_subcommand(
      "fuchsia",
      "Write a Fuchsia trace (FXT, binary; what olly writes by default), which Perfetto and "
      "ui.perfetto.dev open natively: the same timeline as `events chrome` (process = the "
      "ring's pid, one thread per domain named \"domain N\", counters named \"NAME (domain "
      "N)\" so each domain has its own counter track, balanced durations with a \"note\" "
      "argument on repairs, lost_events instants at their domain's previous or next event "
      "time), timestamps in producer nanoseconds. Streamed: memory does not grow with the "
      "ring's size. OUT is written beside itself and renamed into place only on success; OUT "
      "naming the input (also via a link) is refused.");
  fuchsia->add_option("file", o->file, "the .events file")->required();
  fuchsia->add_option("out", o->out, "output .fxt file")->required();
  AddCommon(fuchsia, *o);
  fuchsia->callback([o] {
    o->source = {o->file};
    RunFuchsia(*o);
  });

  CLI::App* stats = events->add_subcommand(
      "stats",
      "GC statistics as olly gc-stats defines them: wall time, GC time and share per "
      "domain, pause percentiles per phase, collections, words, spans open at the end "
      "(definitions: tools/events/README.md)");
  stats->add_option("source", o->source, "DIR PID, or FILE")->required()->expected(1, 2);
  stats->add_flag("--json", o->json, "print JSON (times in ns, shares as fractions)");
  AddCommon(stats, *o);
  stats->callback([o] { RunStats(*o); });

  // `events record` exports through the same code paths as `events chrome` and `stats`.
  RecordExports exports;
  exports.chrome = [](const std::string& ring, const std::string& out) {
    EventsOptions e;
    e.file = ring;
    e.out = out;
    return WriteExport(e, ExportFormat::kChrome);
  };
  exports.fuchsia = [](const std::string& ring, const std::string& out) {
    EventsOptions e;
    e.file = ring;
    e.out = out;
    return WriteExport(e, ExportFormat::kFuchsia);
  };
  exports.stats_text = [](const std::string& ring) -> Result<std::string> {
    EventsOptions e;
    e.source = {ring};
    auto s = Stats(e);
    if (!s.ok()) return s.status();
    return FormatStats(*s);
  };
  AddRecordCommand(*events, exports);
}

}  // namespace mpo::tools
