#include "tools/ring/events_command.h"

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/ring/cursor.h"
#include "core/ring/dump_format.h"
#include "core/ring/event_names.h"
#include "tools/exit_code.h"
#include "tools/ring/event_collector.h"
#include "tools/ring/trace_views.h"

namespace mpo::tools {
namespace {

struct EventsOptions {
  std::vector<std::string> source;  // FILE, or DIR PID
  std::string file;                 // chrome input
  std::string out;                  // chrome output
  std::string version = "5.3";
  std::vector<std::string> tags;  // NAME=TAG
  std::size_t batch = 16;
  bool json = false;
  double interval_ms = 100;
  double max_seconds = 0;  // tail: 0 = until the process exits
};

struct Source {
  std::string path;
  std::int64_t pid = -1;  // -1 when given a file
};

Result<Source> ParseSource(const std::vector<std::string>& args) {
  if (args.size() == 1) return Source{args[0], -1};
  if (args.size() == 2) {
    char* end = nullptr;
    errno = 0;
    const long long pid = std::strtoll(args[1].c_str(), &end, 10);
    if (errno != 0 || end == args[1].c_str() || *end != '\0' || pid < 0) {
      return Status(ErrorCode::kInvalidArgument, "not a process id: " + args[1]).WithField("PID");
    }
    return Source{
        (args[0].empty() ? std::string(".") : args[0]) + "/" + std::to_string(pid) + ".events",
        pid};
  }
  return Status(ErrorCode::kInvalidArgument, "give DIR PID or FILE").WithField("arguments");
}

Result<ring::OcamlVersion> ParseVersion(const std::string& v) {
  auto parsed = ring::ParseOcamlVersion(v);
  if (!parsed) {
    return Status(ErrorCode::kInvalidArgument, "unknown OCaml release " + v + " (5.0 .. 5.5)")
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

void RunDump(const EventsOptions& o) {
  auto src = ParseSource(o.source);
  auto version = ParseVersion(o.version);
  auto tags = ParseTags(o.tags);
  if (!src.ok()) return ReportError("events dump", src.status());
  if (!version.ok()) return ReportError("events dump", version.status());
  if (!tags.ok()) return ReportError("events dump", tags.status());
  auto cursor = ring::Cursor::OpenFile(src->path, ring::CursorOptions{o.batch});
  if (!cursor.ok()) return ReportError("events dump " + src->path, cursor.status());
  if (o.json) {
    EventCollector collector(*version);
    auto r = Drain(*cursor, collector, [&] {
      for (const DecodedEvent& e : collector.events())
        std::printf("%s\n", DumpJson(ToJson(e)).c_str());
      collector.events().clear();
    });
    if (!r.ok()) return ReportError("events dump " + src->path, r.status());
    if (!collector.error().ok()) return ReportError("events dump " + src->path, collector.error());
    return;
  }
  ring::GoldenLineWriter writer(*version, *tags);
  auto r = Drain(*cursor, writer, [&] { std::fputs(writer.TakeText().c_str(), stdout); });
  if (!r.ok()) return ReportError("events dump " + src->path, r.status());
  std::printf("# read_poll calls=%llu total_events=%llu\n",
              static_cast<unsigned long long>(r->first),
              static_cast<unsigned long long>(r->second));
  if (!writer.error().ok()) ReportError("events dump " + src->path, writer.error());
}

bool ProcessAlive(std::int64_t pid) {
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

void RunTail(const EventsOptions& o) {
  auto src = ParseSource(o.source);
  auto version = ParseVersion(o.version);
  auto tags = ParseTags(o.tags);
  if (!src.ok()) return ReportError("events tail", src.status());
  if (!version.ok()) return ReportError("events tail", version.status());
  if (!tags.ok()) return ReportError("events tail", tags.status());
  if (src->pid < 0) {
    return ReportError("events tail",
                       Status(ErrorCode::kInvalidArgument, "tail follows a process: give DIR PID")
                           .WithField("arguments"));
  }
  auto cursor = ring::Cursor::OpenFile(src->path, ring::CursorOptions{o.batch});
  if (!cursor.ok()) return ReportError("events tail " + src->path, cursor.status());
  ring::GoldenLineWriter writer(*version, *tags);
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    // Decide before polling, so that the last poll sees everything the process wrote.
    const bool alive = ProcessAlive(src->pid);
    auto r = Drain(*cursor, writer, [&] {
      std::fputs(writer.TakeText().c_str(), stdout);
      std::fflush(stdout);
    });
    if (!r.ok()) return ReportError("events tail " + src->path, r.status());
    if (!alive) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.max_seconds > 0 && elapsed >= o.max_seconds) return;
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(o.interval_ms));
  }
}

Result<std::vector<DecodedEvent>> Collect(const EventsOptions& o, const std::string& context,
                                          std::int64_t* pid) {
  auto src = ParseSource(o.source);
  if (!src.ok()) return src.status();
  auto version = ParseVersion(o.version);
  if (!version.ok()) return version.status();
  auto cursor = ring::Cursor::OpenFile(src->path, ring::CursorOptions{o.batch});
  if (!cursor.ok()) return cursor.status();
  EventCollector collector(*version);
  auto r = Drain(*cursor, collector, [] {});
  if (!r.ok()) return r.status();
  if (!collector.error().ok()) return collector.error();
  if (pid != nullptr) *pid = src->pid >= 0 ? src->pid : 1;
  (void)context;
  return std::move(collector.events());
}

void RunChrome(const EventsOptions& o) {
  std::int64_t pid = 1;
  auto events = Collect(o, "events chrome", &pid);
  if (!events.ok()) return ReportError("events chrome", events.status());
  // Prefer the pid ring_start recorded.
  for (const DecodedEvent& e : *events) {
    if (e.kind == DecodedEvent::Kind::kLifecycle && e.id == 0 && e.value > 0) {
      pid = e.value;
      break;
    }
  }
  const std::string text = DumpJson(ChromeTrace(*events, pid));
  FILE* f = std::fopen(o.out.c_str(), "wb");
  if (f == nullptr) {
    return ReportError("events chrome",
                       Status(ErrorCode::kIo, "cannot create the output file").WithField(o.out));
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) {
    return ReportError("events chrome", Status(ErrorCode::kIo, "write failed").WithField(o.out));
  }
}

void RunStats(const EventsOptions& o) {
  auto events = Collect(o, "events stats", nullptr);
  if (!events.ok()) return ReportError("events stats", events.status());
  const StreamStats s = ComputeStats(*events);
  if (o.json) {
    std::printf("%s\n", DumpJson(StatsJson(s), 2).c_str());
  } else {
    std::fputs(FormatStats(s).c_str(), stdout);
  }
}

void AddCommon(CLI::App* cmd, EventsOptions& o) {
  cmd->add_option("--ocaml-version", o.version,
                  "OCaml release whose phase/counter numbering the file uses (5.0 .. 5.5)")
      ->capture_default_str();
  cmd->add_option("--batch", o.batch,
                  "messages validated per fence and head re-check (1 = OCaml's algorithm)")
      ->check(CLI::Range(1, 64));
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
  dump->add_flag("--json", o->json, "one JSON object per line instead");
  dump->add_option("--tag", o->tags, "NAME=TAG: the OCaml tag of a user event (default UNK)");
  AddCommon(dump, *o);
  dump->callback([o] { RunDump(*o); });

  CLI::App* tail = events->add_subcommand("tail", "Follow a live ring until the process exits");
  tail->add_option("source", o->source, "DIR PID")->required()->expected(2, 2);
  tail->add_option("--tag", o->tags, "NAME=TAG: the OCaml tag of a user event (default UNK)");
  tail->add_option("--interval-ms", o->interval_ms, "pause between polls")
      ->check(CLI::Range(0.0, 60000.0));
  tail->add_option("--max-seconds", o->max_seconds,
                   "stop after this long (0: when the process exits)")
      ->check(CLI::Range(0.0, 1e9));
  AddCommon(tail, *o);
  tail->callback([o] { RunTail(*o); });

  CLI::App* chrome = events->add_subcommand(
      "chrome", "Write Chrome trace-event JSON (Perfetto, chrome://tracing)");
  chrome->add_option("file", o->file, "the .events file")->required();
  chrome->add_option("out", o->out, "output JSON file")->required();
  AddCommon(chrome, *o);
  chrome->callback([o] {
    o->source = {o->file};
    RunChrome(*o);
  });

  CLI::App* stats = events->add_subcommand("stats", "Time per phase and event counts per domain");
  stats->add_option("source", o->source, "DIR PID, or FILE")->required()->expected(1, 2);
  stats->add_flag("--json", o->json, "print JSON");
  AddCommon(stats, *o);
  stats->callback([o] { RunStats(*o); });
}

}  // namespace mpo::tools
