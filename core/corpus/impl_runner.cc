#include "core/corpus/impl_runner.h"

#include <cstdio>
#include <string_view>

namespace mpo::corpus {

Status ValidateImplCommand(const ImplCommand& c) {
  const bool names_file = c.command.find("{file}") != std::string::npos;
  if (!c.batch && !names_file)
    return Status(ErrorCode::kInvalidArgument,
                  "the command has no {file} placeholder (a command that reads paths on its "
                  "stdin takes --batch)")
        .WithField("--impl");
  if (c.batch && names_file)
    return Status(ErrorCode::kInvalidArgument,
                  "with --batch the command reads one path per line on its stdin: it takes no "
                  "{file}")
        .WithField("--impl");
  if (c.max_output_bytes == 0)
    return Status(ErrorCode::kInvalidArgument, "the output limit must be positive")
        .WithField("--max-output-mib");
  return Status::Ok();
}

Result<CommandOutcome> ImplRunner::Run(const std::string& file) {
  if (batch_) return batch_->Run(file, c_.timeout_seconds, c_.max_output_bytes);
  return RunCommand(SubstituteFile(c_.command, file), c_.timeout_seconds, c_.max_output_bytes);
}

// The end of a command's stderr as a report shows it: the last kStderrLines lines within
// kStderrBytes, terminal control characters made visible.
std::string StderrTail(const CommandOutcome& run) {
  std::string_view err = run.err;
  bool cut = run.err_truncated;
  while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.remove_suffix(1);
  if (err.size() > kStderrBytes) {
    err = err.substr(err.size() - kStderrBytes);
    cut = true;
  }
  // After the kStderrLines-th newline from the end, if there is one.
  std::size_t start = 0, pos = err.size();
  for (std::size_t i = 0; i < kStderrLines; ++i) {
    const auto nl = pos == 0 ? std::string_view::npos : err.rfind('\n', pos - 1);
    if (nl == std::string_view::npos) break;
    pos = nl;
    if (i + 1 == kStderrLines) {
      start = nl + 1;
      cut = true;
    }
  }
  std::string out = cut ? "...\n" : "";
  for (char c : err.substr(start))
    out += (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? '?' : c;
  return err.empty() ? std::string() : out;
}

std::string DescribeBrokenRun(const CommandOutcome& run, const ImplCommand& c) {
  if (run.timed_out) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", c.timeout_seconds);
    return std::string("timed out after ") + seconds + " s" +
           (c.batch ? " without its end line" : "");
  }
  if (run.supervisor_died)
    return "the command killed the kit's supervisor process; everything it started was killed";
  std::string out;
  if (run.signal != 0) out = "killed by signal " + std::to_string(run.signal);
  if (!run.protocol_error.empty()) {
    if (!out.empty())
      out += ", ";
    else if (run.exit_code >= 0 && c.batch)
      out = "exit code " + std::to_string(run.exit_code) + ", ";
    out += "batch protocol: " + run.protocol_error;
  }
  return out;
}

}  // namespace mpo::corpus
