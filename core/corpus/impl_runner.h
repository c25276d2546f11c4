// How the kit runs an implementation on one input: a new process per input
// (run_command.h, the command names the input with {file}) or one long-lived process fed
// paths on its stdin (batch_session.h, the command takes no {file}). `corpus check` and
// `corpus fuzz` hold one runner for their whole run.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/corpus/batch_session.h"
#include "core/corpus/run_command.h"

namespace mpo::corpus {

struct ImplCommand {
  std::string command;
  bool batch = false;
  double timeout_seconds = 20;
  std::size_t max_output_bytes = kDefaultMaxOutput;
};

// A one-file command must name its input ({file}); a batch command must not (its inputs
// come on stdin). kInvalidArgument, field "--impl", otherwise.
Status ValidateImplCommand(const ImplCommand& c);

class ImplRunner {
 public:
  explicit ImplRunner(ImplCommand c) : c_(std::move(c)) {
    if (c_.batch) batch_.emplace(c_.command);
  }
  // The implementation's outcome on `file`; kIo only when it cannot be started.
  Result<CommandOutcome> Run(const std::string& file);
  const ImplCommand& command() const { return c_; }

 private:
  ImplCommand c_;
  std::optional<BatchSession> batch_;
};

// Why an outcome is not a clean exit, for a report: "timed out after 20 s", "killed by
// signal 9", the batch protocol's complaint, ...; "" when the command exited (or, in
// batch mode, sent its end line) without breaking a rule. The exit code itself is left
// to the caller, which knows which codes the input allows.
std::string DescribeBrokenRun(const CommandOutcome& run, const ImplCommand& c);

// The end of a command's stderr as a report shows it: its last kStderrLines lines within
// kStderrBytes ("...\n" first when cut), control characters but tabs shown as '?'; ""
// when it printed none.
std::string StderrTail(const CommandOutcome& run);

inline constexpr std::size_t kStderrLines = 20, kStderrBytes = 2048;

}  // namespace mpo::corpus
