#include "tools/events/record_command.h"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "core/io/output_file.h"
#include "core/ring/cursor.h"
#include "tools/events/tail_follow.h"
#include "tools/events/tail_interrupt.h"
#include "tools/events/tail_process.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"

namespace mpo::tools {
namespace {

struct RecordOptions {
  std::string out = ".";
  double max_seconds = 0;  // 0: until the program exits
  double interval_ms = 100;
  std::string format = "chrome";
  unsigned ring_size = 0;  // log2 words of each domain's ring; 0: the program's default
  std::vector<std::string> command;
};

// The ring sizes the producer supports (core/ring/producer.h); OCaml's default is 16.
constexpr unsigned kMinRingLog2Words = 4;
constexpr unsigned kMaxRingLog2Words = 26;

// The environment of the program: runtime events on, and the ring size appended to its
// run parameters (OCaml reads OCAMLRUNPARAM, else CAMLRUNPARAM; a later option wins).
std::vector<std::pair<std::string, std::string>> ProgramEnvironment(const RecordOptions& o,
                                                                    const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> env = {{"OCAML_RUNTIME_EVENTS_START", "1"},
                                                          {"OCAML_RUNTIME_EVENTS_DIR", dir},
                                                          {"OCAML_RUNTIME_EVENTS_PRESERVE", "1"}};
  if (o.ring_size != 0) {
    const char* param = std::getenv("OCAMLRUNPARAM");
    if (param == nullptr) param = std::getenv("CAMLRUNPARAM");
    std::string value = param != nullptr ? param : "";
    if (!value.empty()) value += ',';
    value += "e=" + std::to_string(o.ring_size);
    env.emplace_back("OCAMLRUNPARAM", value);
  }
  return env;
}

// How long a program gets to exit after SIGTERM (at --max-seconds) before SIGKILL.
constexpr double kTerminateGraceMs = 2000;

// DIR made absolute (the program may change directory) and created if missing.
Result<std::string> PrepareDir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return Status(ErrorCode::kIo, std::string("cannot create: ") + std::strerror(errno))
        .WithField(dir);
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Status(ErrorCode::kIo, "not a directory").WithField(dir);
  }
  std::unique_ptr<char, decltype(&std::free)> real(::realpath(dir.c_str(), nullptr), &std::free);
  if (!real) return Status(ErrorCode::kIo, "cannot resolve").WithField(dir);
  return std::string(real.get());
}

bool Exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What following the program's ring found.
struct Followed {
  bool ring_seen = false;
  FollowResult result;
  std::string why;  // why following ended
};

class Recorder {
 public:
  Recorder(const RecordOptions& o, const std::string& dir, ChildProcess& child)
      : o_(o), child_(child), ring_(dir + "/" + std::to_string(child.pid()) + ".events") {}

  const std::string& ring() const { return ring_; }

  // Follows the ring until the program has exited (stopping it at --max-seconds) and
  // collects its status. A cursor error comes back after the program was waited for.
  Result<Followed> Run() {
    // Ctrl-C, SIGTERM and SIGHUP stop the program, never this recorder half-way.
    InterruptGuard guard(InterruptGuard::kStopRequests);
    Followed f;
    std::optional<ring::Cursor> cursor = OpenWhenReady(f);
    if (!cursor) {
      if (!open_error_.ok()) return open_error_;
      child_.Wait();
      return f;
    }
    f.ring_seen = true;
    ring::EventCallbacks ignore;
    CountingCallbacks counting(ignore);
    FollowOptions follow;
    follow.pace.interval_ms = o_.interval_ms;
    follow.producer_running = [&] { return child_.Running(); };
    while (true) {
      follow.pace.max_seconds = RemainingSeconds();
      auto r = FollowRing(*cursor, ring_, counting, follow);
      if (!r.ok()) {
        stopped_ = "the ring could not be read";
        child_.Wait();
        return r.status();
      }
      f.result.polls += r->polls;
      f.result.events += r->events;
      f.result.lost_words = r->lost_words;
      if (r->reason == FollowStop::kProducerExited) {
        f.result.reason = r->reason;
        f.why = stopped_.empty() ? std::string(FollowStopText(r->reason)) : stopped_;
        child_.Wait();
        return f;
      }
      StopProgram(r->reason);
    }
  }

 private:
  double RemainingSeconds() const {
    if (o_.max_seconds <= 0 || !stopped_.empty()) return 0;
    const double left = o_.max_seconds - SecondsSince(start_);
    return left > 1e-3 ? left : 1e-3;
  }

  // At --max-seconds or Ctrl-C (which the program, in our process group, usually got
  // too) the program is terminated; a SIGTERM or SIGHUP sent to this recorder is passed
  // on to it as it is. Its ring is then read to the end.
  void StopProgram(FollowStop reason) {
    if (!stopped_.empty()) return;
    const int sig = InterruptSignal();
    if (reason != FollowStop::kMaxSeconds && (sig == SIGTERM || sig == SIGHUP)) {
      stopped_ = std::string("interrupted (") + (sig == SIGTERM ? "SIGTERM" : "SIGHUP") +
                 "): passed on to the program";
      child_.Terminate(kTerminateGraceMs, sig);
      return;
    }
    stopped_ = reason == FollowStop::kMaxSeconds
                   ? "stopped at --max-seconds: the program was terminated"
                   : "interrupted (SIGINT): the program was terminated";
    child_.Terminate(kTerminateGraceMs);
  }

  // Waits for the ring to appear and to be readable while the program runs. OCaml
  // creates it at startup; it may exist a moment before its header is written.
  std::optional<ring::Cursor> OpenWhenReady(Followed& f) {
    while (true) {
      const bool running = child_.Running();
      if (Exists(ring_)) {
        auto c = ring::Cursor::OpenFile(ring_);
        if (c.ok()) return std::move(*c);
        if (!running) {
          open_error_ = c.status();
          return std::nullopt;
        }
      } else if (!running) {
        f.why = "the program exited without writing " + ring_ +
                " (not an OCaml 5 program, or one that does not start runtime events?)";
        return std::nullopt;
      }
      if (o_.max_seconds > 0 && SecondsSince(start_) >= o_.max_seconds) {
        StopProgram(FollowStop::kMaxSeconds);
      } else if (Interrupted()) {
        StopProgram(FollowStop::kInterrupted);
      }
      InterruptibleSleep(o_.interval_ms > 0 ? o_.interval_ms : 1);
    }
  }

  const RecordOptions& o_;
  ChildProcess& child_;
  const std::string ring_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::string stopped_;  // set when we stopped the program
  Status open_error_;
};

Status WriteText(const std::string& path, const std::string& text) {
  auto out = io::AtomicOutput::Create(path);
  if (!out.ok()) return out.status();
  (void)out->Write(text);
  return out->Commit();
}

void RunRecord(const RecordOptions& o, const RecordExports& exports) {
  auto dir = PrepareDir(o.out);
  if (!dir.ok()) return ReportError("events record", dir.status());
  auto child = ChildProcess::Spawn(o.command, ProgramEnvironment(o, *dir), *dir);
  if (!child.ok()) return ReportError("events record", child.status());
  Recorder recorder(o, *dir, *child);
  auto followed = recorder.Run();
  if (child->ExecFailed()) {
    // The child already said why it could not run PROG: one message, not a second
    // about the ring it could never write.
    SetExitCode(child->ShellStatus());
    return;
  }
  std::printf("program: %s (pid %d) %s\n", o.command[0].c_str(), static_cast<int>(child->pid()),
              child->Describe().c_str());
  if (!followed.ok()) return ReportError("events record " + recorder.ring(), followed.status());
  if (!followed->ring_seen) {
    // A failed program keeps its own status (127: PROG not found); one that ran fine
    // but wrote no ring is this command's failure.
    std::fprintf(stderr, "memprof-oracle: events record: no ring: %s\n", followed->why.c_str());
    SetExitCode(child->ShellStatus() != 0 ? child->ShellStatus() : kExitBadInput);
    return;
  }
  std::printf("followed: %s (%llu events read live, %llu lost words)\n", followed->why.c_str(),
              static_cast<unsigned long long>(followed->result.events),
              static_cast<unsigned long long>(followed->result.lost_words));
  if (!Exists(recorder.ring())) {
    // The program removed its ring (it stopped runtime events itself): nothing to export.
    std::printf("ring: removed by the program before it exited\n");
    SetExitCode(child->ShellStatus());
    return;
  }
  std::printf("ring: %s\n", recorder.ring().c_str());
  const std::string base = recorder.ring().substr(0, recorder.ring().size() - 7);
  const bool fuchsia = o.format == "fuchsia";
  const std::string timeline = base + (fuchsia ? ".fxt" : ".chrome.json");
  if (Status s = fuchsia ? exports.fuchsia(recorder.ring(), timeline)
                         : exports.chrome(recorder.ring(), timeline);
      !s.ok()) {
    return ReportError("events record: " + o.format + " export", s);
  }
  std::printf("%s: %s\n", o.format.c_str(), timeline.c_str());
  auto stats = exports.stats_text(recorder.ring());
  if (!stats.ok()) return ReportError("events record: stats", stats.status());
  const std::string stats_path = base + ".stats.txt";
  if (Status s = WriteText(stats_path, *stats); !s.ok()) {
    return ReportError("events record: stats", s);
  }
  std::printf("stats: %s\n%s", stats_path.c_str(), stats->c_str());
  SetExitCode(child->ShellStatus());
}

}  // namespace

void AddRecordCommand(CLI::App& events, const RecordExports& exports) {
  auto o = std::make_shared<RecordOptions>();
  CLI::App* record = events.add_subcommand(
      "record",
      "Run an OCaml 5 program with runtime events on (OCAML_RUNTIME_EVENTS_START=1, "
      "OCAML_RUNTIME_EVENTS_DIR=DIR, OCAML_RUNTIME_EVENTS_PRESERVE=1), follow its ring "
      "while it runs, and when it exits leave DIR/<pid>.events, DIR/<pid>.chrome.json (or "
      "<pid>.fxt) and DIR/<pid>.stats.txt; prints what it wrote and exits with the program's "
      "status "
      "(128+N for signal N). At Ctrl-C or --max-seconds the program is terminated (SIGTERM, "
      "SIGKILL 2 s later); a SIGTERM or SIGHUP is passed on to it. Either way it is waited "
      "for and its ring is still read and exported.");
  record->add_option("--out", o->out, "directory for the ring and exports (created if missing)")
      ->capture_default_str();
  record
      ->add_option("--max-seconds", o->max_seconds,
                   "terminate the program (SIGTERM, then SIGKILL after 2 s) after this long "
                   "(0: let it run)")
      ->check(SecondsIn(0.0, 1e9));
  record->add_option("--interval-ms", o->interval_ms, "pause between polls of the ring")
      ->check(MillisecondsIn(0.0, 60000.0));
  record
      ->add_option("--format", o->format,
                   "the timeline export: chrome (<pid>.chrome.json) or fuchsia (<pid>.fxt), "
                   "both opened by Perfetto")
      ->check(CLI::IsMember({"chrome", "fuchsia"}))
      ->capture_default_str();
  record
      ->add_option("--ring-size", o->ring_size,
                   "log2 of each domain's ring size in words, appended to the program's "
                   "OCAMLRUNPARAM as e=N (OCaml's default: 16); a larger ring loses fewer "
                   "events")
      ->check(UnsignedIn(kMinRingLog2Words, kMaxRingLog2Words));
  record->add_option("command", o->command, "-- PROG ARGS...: the program to run")
      ->required()
      ->expected(-1);
  record->callback([o, exports] { RunRecord(*o, exports); });
}

}  // namespace mpo::tools
