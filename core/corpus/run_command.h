// Runs an implementation's command with a time limit and an output cap, and leaves no
// process of it behind; its stderr's last bytes are kept for the report.
//
// The command runs under a small supervisor process (a child subreaper, so descendants
// that start their own session are reparented to it) in a new session of its own. When
// the command exits, output is read until end of file or until the pipe has been quiet
// for 100 ms (a background child may hold stdout open); then, or on time-out, or when
// the output passes the cap, the supervisor kills the command's process group and every
// process reparented to it. The outcome is the command's own exit, never a descendant's.
// The command's parent is a process of its own between the two, so a command that kills
// its parent ($PPID) has killed itself as far as the outcome goes; a supervisor killed
// anyway is a `supervisor_died` outcome, the command's process group killed by the kit.
// Threading: any thread, several at once (one per worker); starts processes without
// forking the caller (supervised_process.h).
#pragma once

#include <cstddef>
#include <string>

#include "core/base/status.h"

namespace mpo::corpus {

struct CommandOutcome {
  bool timed_out = false;      // the command had not exited by the deadline
  int exit_code = -1;          // valid when the process exited
  int signal = 0;              // the signal that ended it, or 0
  std::string out;             // stdout, at most `max_output` bytes
  bool out_truncated = false;  // stdout went past `max_output`: the command was stopped
  std::string err;             // the last kStderrTail bytes of stderr
  bool err_truncated = false;  // stderr was longer: `err` is its end
  // The supervisor was killed (by the command itself, say) before the command's exit
  // was known: everything left of the command has been killed; the case fails.
  bool supervisor_died = false;
  // Batch mode (batch_session.h): how the command broke the protocol, "" if it did not.
  std::string protocol_error;
};

// Enough for a decoder's last message or a stack trace's top; memory stays bounded
// whatever the command writes to stderr.
inline constexpr std::size_t kStderrTail = 4096;

inline constexpr std::size_t kDefaultMaxOutput = std::size_t{64} << 20;

// `/bin/sh -c command`, stdin from /dev/null, stderr read as it comes (a command never
// blocks on it) and only its tail kept. kIo when the process cannot be started.
Result<CommandOutcome> RunCommand(const std::string& command, double timeout_seconds,
                                  std::size_t max_output = kDefaultMaxOutput);

// `s` quoted for /bin/sh ('...' with embedded quotes escaped).
std::string ShellQuote(const std::string& s);

// `file` made absolute and normalised (as given when the working directory is unknown):
// how the kit names an input to an implementation, so that a command that changes
// directory first (`cd / && decoder {file}`) still finds it.
std::string AbsoluteInputPath(const std::string& file);

// Sets `r`'s exit_code or signal from a wait status.
void SetWaitStatus(CommandOutcome& r, int status);

// `command` with every "{file}" replaced by the shell-quoted absolute path of `file`: how
// corpus check and corpus fuzz run an implementation on one input.
std::string SubstituteFile(const std::string& command, const std::string& file);

}  // namespace mpo::corpus
