// `events tail`: which ring to follow, and the follow loop that prints its events.
//
//   events tail PID              $OCAML_RUNTIME_EVENTS_DIR/PID.events (else ./PID.events)
//   events tail DIR PID          DIR/PID.events, until process PID exits
//   events tail --follow FILE    any ring file, until it is removed, --max-seconds or ^C
//
// Every way out says why on stderr (process exited, pid not found, file gone,
// max-seconds, interrupted); stdout carries only events.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/ring/cursor.h"
#include "tools/events/tail_follow.h"

namespace mpo::tools {

struct TailTarget {
  std::string path;
  std::int64_t pid = -1;  // -1: --follow FILE, no process to watch
};

// From the positional arguments (PID, or DIR PID) or --follow FILE (exactly one of
// the two forms); kInvalidArgument naming the argument otherwise.
Result<TailTarget> ResolveTailTarget(const std::vector<std::string>& source,
                                     const std::string& follow_file);

// Opens the ring of `target` with `open`. OCaml creates a ring in steps (the file, its
// size, then the metadata header), so a tail started with the program can find the file
// before its header: while the watched process runs and the ring's version word is
// still 0 (or not there yet), the open is retried every interval, for at most
// kHeaderWaitSeconds (or --max-seconds, or until ^C); then the open's own error stands.
inline constexpr double kHeaderWaitSeconds = 5;
Result<ring::Cursor> OpenTailRing(const TailTarget& target, const FollowPace& options,
                                  const std::function<Result<ring::Cursor>()>& open);

// Follows `cursor`, printing take_text() to stdout after each poll, until a stop
// condition; then prints the reason to stderr. Cursor errors are returned.
Status TailRing(ring::Cursor& cursor, const TailTarget& target, ring::EventCallbacks& writer,
                const std::function<std::string()>& take_text, const FollowPace& options);

// Adds `events tail` to the `events` group.
void AddTailCommand(CLI::App& events);

}  // namespace mpo::tools
