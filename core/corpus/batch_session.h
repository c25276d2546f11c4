// The batch protocol: one long-lived implementation process decodes many inputs, so that
// the kit does not pay a process start per case or per mutant.
//
// The kit writes one absolute path per line to the command's stdin. For each, the
// command prints the path's stream (exactly what it prints when run on that one file)
// followed by the end line
//   {"kind":"batch_end","exit":N}
// where N is the exit code a one-file run would have had (0 accepted, 1 rejected), and
// flushes its stdout. It exits when its stdin ends. A command that breaks the protocol
// (exits, prints a malformed end line, passes the time limit or the output cap before
// its end line) fails that input only: it is stopped, with everything it started, and
// started again for the next one.
// Threading: one session per thread; starts processes without forking the caller.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/corpus/run_command.h"
#include "core/corpus/supervised_process.h"

namespace mpo::corpus {

inline constexpr std::string_view kBatchEndKind = "batch_end";

class BatchSession {
 public:
  explicit BatchSession(std::string command) : command_(std::move(command)) {}
  ~BatchSession() { Stop(); }
  BatchSession(const BatchSession&) = delete;
  BatchSession& operator=(const BatchSession&) = delete;

  // Sends `file` (made absolute) and reads its stream up to the end line. The outcome is
  // a one-file run's: `exit_code` from the end line; `timed_out`, `out_truncated`,
  // `signal`, `exit_code` of the process itself or `protocol_error` when it broke the
  // protocol. kIo only when the command cannot be started at all.
  Result<CommandOutcome> Run(const std::string& file, double timeout_seconds,
                             std::size_t max_output);

  // How many times the command was started (1 while it keeps to the protocol).
  std::size_t starts() const { return starts_; }

 private:
  Result<CommandOutcome> RunOnce(const std::string& file, double timeout_seconds,
                                 std::size_t max_output);
  void Stop();

  std::string command_;
  std::optional<SupervisedProcess> proc_;
  std::string pending_;  // stdout bytes read past the last end line
  std::size_t starts_ = 0;
};

// The exit code an end line carries, or nullopt when `line` is not one (it is a record).
// A line that names the kind but is malformed is an error naming what is wrong.
std::optional<Result<int>> ParseBatchEnd(std::string_view line);

}  // namespace mpo::corpus
