#include "tools/events/tail_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "core/base/unique_fd.h"
#include "core/ring/view/dump_format.h"
#include "tools/events/pid_arg.h"
#include "tools/events/ring_input.h"
#include "tools/events/tail_follow.h"
#include "tools/events/tail_interrupt.h"
#include "tools/events/tail_process.h"
#include "tools/exit_code.h"
#include "tools/numeric_options.h"

namespace mpo::tools {

Result<TailTarget> ResolveTailTarget(const std::vector<std::string>& source,
                                     const std::string& follow_file) {
  if (!follow_file.empty()) {
    if (!source.empty()) {
      return Status(ErrorCode::kInvalidArgument, "give --follow FILE or [DIR] PID, not both")
          .WithField("arguments");
    }
    return TailTarget{follow_file, -1};
  }
  if (source.empty() || source.size() > 2) {
    return Status(ErrorCode::kInvalidArgument, "give PID, DIR PID or --follow FILE")
        .WithField("arguments");
  }
  auto pid = ParsePid(source.back());
  if (!pid.ok()) return pid.status();
  std::string dir;
  if (source.size() == 2) {
    dir = source[0];
  } else if (const char* env = std::getenv("OCAML_RUNTIME_EVENTS_DIR")) {
    // Where OCaml writes the ring when it is started with this variable set.
    dir = env;
  }
  if (dir.empty()) dir = ".";
  return TailTarget{dir + "/" + std::to_string(*pid) + ".events", *pid};
}

namespace {

// The version word a ring file holds so far: nullopt when the file is missing or shorter
// than the word.
std::optional<std::uint64_t> VersionWord(const std::string& path) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) return std::nullopt;
  std::uint64_t word = 0;
  if (::pread(fd.get(), &word, sizeof word, 0) != static_cast<ssize_t>(sizeof word))
    return std::nullopt;
  return word;
}

}  // namespace

Result<ring::Cursor> OpenTailRing(const TailTarget& target, const FollowPace& options,
                                  const std::function<Result<ring::Cursor>()>& open) {
  auto cursor = open();
  if (cursor.ok() || target.pid < 0) return cursor;
  InterruptGuard guard;
  const auto start = std::chrono::steady_clock::now();
  const double limit = options.max_seconds > 0 ? std::min(options.max_seconds, kHeaderWaitSeconds)
                                               : kHeaderWaitSeconds;
  while (!cursor.ok() && ProcessAlive(target.pid) && !Interrupted()) {
    const std::optional<std::uint64_t> version = VersionWord(target.path);
    // Only a file whose header is still being written: a missing file (runtime events
    // not started) and a wrong version are answered at once.
    if (!std::filesystem::exists(target.path) || (version.has_value() && *version != 0)) break;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed >= limit) break;
    InterruptibleSleep(options.interval_ms);
    cursor = open();
  }
  return cursor;
}

Status TailRing(ring::Cursor& cursor, const TailTarget& target, ring::EventCallbacks& writer,
                const std::function<std::string()>& take_text, const FollowPace& options) {
  // A pid that is not running from the start: its ring is printed as it is, once.
  const bool found = target.pid < 0 || ProcessAlive(target.pid);
  CountingCallbacks counting(writer);
  FollowOptions follow;
  follow.pace = options;
  if (target.pid >= 0) {
    follow.producer_running = [&] { return found && ProcessAlive(target.pid); };
  }
  follow.after_poll = [&] {
    std::fputs(take_text().c_str(), stdout);
    std::fflush(stdout);  // live: each poll's lines go out now
    // main's FinishStdout reports the failed write (exit 2) once; stop following.
    return !StdoutFailed();
  };
  auto r = FollowRing(cursor, target.path, counting, follow);
  if (!r.ok()) return r.status();
  if (r->reason == FollowStop::kStopped) return Status::Ok();
  std::string why;
  const std::string process = "process " + std::to_string(target.pid);
  switch (r->reason) {
    case FollowStop::kProducerExited:
      why = found ? process + " has exited"
                  : process + " not found (not running): read the ring as it is";
      break;
    case FollowStop::kMaxSeconds: {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", options.max_seconds);
      why = std::string("stopped after --max-seconds ") + seconds +
            (target.pid >= 0 ? "; " + process + " is still running" : "");
      break;
    }
    default: why = std::string(FollowStopText(r->reason)); break;
  }
  std::fprintf(stderr, "memprof-oracle: events tail %s: %s (%llu events, %llu lost words)\n",
               target.path.c_str(), why.c_str(), static_cast<unsigned long long>(r->events),
               static_cast<unsigned long long>(r->lost_words));
  return Status::Ok();
}

namespace {

struct TailCommandOptions {
  std::vector<std::string> source;  // [DIR] PID
  std::string follow;               // --follow FILE
  RingReadOptions read;
  std::vector<std::string> tags;  // NAME=TAG
  FollowPace tail;
};

void RunTail(const TailCommandOptions& o) {
  auto target = ResolveTailTarget(o.source, o.follow);
  if (!target.ok()) return ReportError("events tail", target.status());
  auto version = ParseVersion(o.read.version, target->path);
  auto tags = ParseTags(o.tags);
  if (!version.ok()) return ReportError("events tail", version.status());
  if (!tags.ok()) return ReportError("events tail", tags.status());
  auto cursor = OpenTailRing(*target, o.tail, [&] { return OpenRing(target->path, o.read.batch); });
  if (!cursor.ok()) {
    const bool gone = target->pid >= 0 && !ProcessAlive(target->pid);
    return ReportError("events tail " + target->path +
                           (gone ? " (process " + std::to_string(target->pid) + " not found)" : ""),
                       cursor.status());
  }
  ring::GoldenLineWriter writer(*version, *tags);
  const Status s = TailRing(
      *cursor, *target, writer, [&] { return writer.TakeText(); }, o.tail);
  if (!s.ok()) ReportError("events tail " + target->path, s);
}

}  // namespace

void AddTailCommand(CLI::App& events) {
  auto o = std::make_shared<TailCommandOptions>();
  CLI::App* tail = events.add_subcommand(
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
  tail->add_option("--interval-ms", o->tail.interval_ms, "pause between polls")
      ->check(MillisecondsIn(0.0, 60000.0));
  tail->add_option("--max-seconds", o->tail.max_seconds,
                   "stop after this long (0: when the process exits)")
      ->check(SecondsIn(0.0, 1e9));
  AddRingReadOptions(tail, o->read);
  tail->callback([o] { RunTail(*o); });
}

}  // namespace mpo::tools
