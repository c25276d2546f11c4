#include "core/corpus/run_command.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>

#include "core/corpus/supervised_process.h"

namespace mpo::corpus {
namespace {

using Clock = std::chrono::steady_clock;

// How long output may still arrive after the implementation exited while a descendant
// keeps its stdout open: long enough for a pipe that is being drained, short enough
// that a forgotten background child costs nothing noticeable.
constexpr auto kGrace = std::chrono::milliseconds(100);

}  // namespace

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

Result<CommandOutcome> RunCommand(const std::string& command, double timeout_seconds,
                                  std::size_t max_output) {
  auto started = StartSupervised(command, /*stdin_pipe=*/false);
  if (!started.ok()) return started.status();
  SupervisedProcess& proc = *started;
  const int out_r = proc.out_r.get(), err_r = proc.err_r.get(), report_r = proc.report_r.get();

  CommandOutcome r;
  const auto deadline =
      Clock::now() + std::chrono::microseconds(static_cast<long long>(timeout_seconds * 1e6));
  bool out_open = true, err_open = true, reported = false, supervisor_gone = false;
  int impl_status = 0;
  Clock::time_point quiet_since{};  // after the implementation exited: last output seen
  char buf[1 << 16];
  while (true) {
    const auto now = Clock::now();
    if (reported && (!out_open || now - quiet_since >= kGrace)) break;
    if (now >= deadline) {
      r.timed_out = !reported;
      break;
    }
    auto wait = deadline - now;
    if (reported) wait = std::min<Clock::duration>(wait, quiet_since + kGrace - now);
    const auto wait_ms = std::chrono::ceil<std::chrono::milliseconds>(wait).count();
    pollfd p[3] = {{report_r, POLLIN, 0},
                   {out_open ? out_r : -1, POLLIN, 0},
                   {err_open ? err_r : -1, POLLIN, 0}};
    const int n =
        ::poll(p, supervisor_gone ? 0 : 3, static_cast<int>(std::min<long long>(wait_ms, 1000)));
    if (n < 0 && errno != EINTR) {
      StopSupervised(proc);
      return ImplIoError("poll");
    }
    if (n <= 0) continue;
    if (p[2].revents != 0) err_open = DrainStderr(err_r, r.err, r.err_truncated, 1);
    if (p[1].revents != 0) {
      const ssize_t got = ::read(out_r, buf, sizeof buf);
      if (got < 0 && errno != EINTR && errno != EAGAIN) {
        StopSupervised(proc);
        return ImplIoError("read impl output");
      }
      if (got == 0) out_open = false;
      if (got > 0) {
        const std::size_t keep =
            std::min<std::size_t>(static_cast<std::size_t>(got), max_output - r.out.size());
        r.out.append(buf, keep);
        if (reported) quiet_since = Clock::now();
        if (keep < static_cast<std::size_t>(got)) {
          r.out_truncated = true;  // stop here: the verdict is known, the rest is waste
          break;
        }
      }
    }
    if (p[0].revents != 0 && !reported) {
      const int got = ReadReport(proc, impl_status);
      if (got == 1) {
        reported = true;
        quiet_since = Clock::now();
      } else if (got == 0) {
        supervisor_gone = true;  // it died without a report: treated as a crash below
        out_open = false;
      }
    }
    if (supervisor_gone) break;
  }
  // Closing the control pipe tells the supervisor to kill everything the case started.
  StopSupervised(proc);
  // Everything the command started is dead: what it wrote to stderr is in the pipe (a
  // few pipe buffers at most).
  if (err_open) DrainStderr(err_r, r.err, r.err_truncated, 64);
  if (!reported) {
    // The implementation may have exited just as we stopped waiting.
    reported = ReadReport(proc, impl_status) == 1;
  }
  if (!reported) {
    // Killed from outside (the command may kill its own parent): the case fails, the
    // run goes on; StopSupervised has killed what the supervisor left behind.
    if (!r.timed_out && !r.out_truncated) r.supervisor_died = true;
    return r;
  }
  r.timed_out = false;
  SetWaitStatus(r, impl_status);
  return r;
}

std::string AbsoluteInputPath(const std::string& file) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(file, ec);
  return ec ? file : absolute.lexically_normal().string();
}

void SetWaitStatus(CommandOutcome& r, int status) {
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
}

std::string SubstituteFile(const std::string& command, const std::string& file) {
  const std::string path = AbsoluteInputPath(file);
  const std::string key = "{file}";
  std::string out;
  std::size_t pos = 0;
  for (std::size_t at; (at = command.find(key, pos)) != std::string::npos; pos = at + key.size())
    out += command.substr(pos, at - pos) + ShellQuote(path);
  return out + command.substr(pos);
}

}  // namespace mpo::corpus
