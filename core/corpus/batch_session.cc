#include "core/corpus/batch_session.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <nlohmann/json.hpp>

#include "core/corpus/json_limits.h"

namespace mpo::corpus {
namespace {

using Clock = std::chrono::steady_clock;

// Output that may still be in the pipe when the command is seen to have exited.
constexpr auto kGrace = std::chrono::milliseconds(100);

// Writes all of `data` to the non-blocking pipe `fd` by `deadline`. SIGPIPE is blocked
// meanwhile (the program's policy would end the kit on it) and a pending one consumed:
// a command that died only fails its input. False if it could not.
bool WriteAll(int fd, std::string_view data, Clock::time_point deadline) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  bool ok = true;
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    const auto now = Clock::now();
    if (n < 0 && errno == EAGAIN && now < deadline) {
      pollfd p{fd, POLLOUT, 0};
      const auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
      ::poll(&p, 1, static_cast<int>(std::min<long long>(ms, 1000)));
      continue;
    }
    ok = false;
    break;
  }
  if (!ok && errno == EPIPE) {
    const timespec zero{0, 0};
    ::sigtimedwait(&pipe_set, nullptr, &zero);
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

}  // namespace

std::optional<Result<int>> ParseBatchEnd(std::string_view line) {
  // Only a line naming the kind is parsed: records are parsed once, by the comparison.
  if (line.find("\"batch_end\"") == std::string_view::npos) return std::nullopt;
  auto j = ParseJsonBounded(line);
  if (!j.ok() || !j->is_object()) return std::nullopt;
  const auto kind = j->find("kind");
  if (kind == j->end() || !kind->is_string() || kind->get<std::string>() != kBatchEndKind)
    return std::nullopt;
  const auto exit = j->find("exit");
  if (exit == j->end() || !exit->is_number_integer() || exit->get<std::int64_t>() < 0 ||
      exit->get<std::int64_t>() > 255 || j->size() != 2)
    return Result<int>(
        Status(ErrorCode::kCorrupt,
               "an end line must be {\"kind\":\"batch_end\",\"exit\":N} with N in [0, 255], got " +
                   std::string(line.substr(0, 200)))
            .WithField("batch end line"));
  return Result<int>(static_cast<int>(exit->get<std::int64_t>()));
}

void BatchSession::Stop() {
  if (proc_) StopSupervised(*proc_);
  proc_.reset();
  pending_.clear();
}

Result<CommandOutcome> BatchSession::Run(const std::string& file, double timeout_seconds,
                                         std::size_t max_output) {
  // A command may end after an end line (one that serves one input per process, or one
  // killed meanwhile): that is seen only when the next input finds it gone. Such a run,
  // with nothing printed for the input, is tried once more on a fresh process.
  const bool reused = proc_.has_value();
  auto r = RunOnce(file, timeout_seconds, max_output);
  if (reused && r.ok() && !proc_ && r->out.empty() && pending_.empty() &&
      (r->exit_code >= 0 || r->signal != 0) && !r->timed_out && !r->supervisor_died)
    return RunOnce(file, timeout_seconds, max_output);
  return r;
}

Result<CommandOutcome> BatchSession::RunOnce(const std::string& file, double timeout_seconds,
                                             std::size_t max_output) {
  CommandOutcome r;
  const std::string path = AbsoluteInputPath(file);
  if (path.find('\n') != std::string::npos) {
    r.protocol_error = "the input's path holds a newline, which the batch protocol cannot send";
    return r;
  }
  if (!proc_) {
    auto started = StartSupervised(command_, /*stdin_pipe=*/true);
    if (!started.ok()) return started.status();
    proc_.emplace(std::move(*started));
    ++starts_;
    if (::fcntl(proc_->in_w.get(), F_SETFL, O_NONBLOCK) != 0) {
      Stop();
      return ImplIoError("fcntl");
    }
  }
  SupervisedProcess& proc = *proc_;
  // Whatever it wrote to stderr after the previous end line belongs to no input.
  std::string discarded;
  bool discarded_cut = false;
  bool err_open = DrainStderr(proc.err_r.get(), discarded, discarded_cut, 16);

  const auto deadline =
      Clock::now() + std::chrono::microseconds(static_cast<long long>(timeout_seconds * 1e6));
  bool stop = false, done = false;
  // Takes complete lines from pending_: records into r.out, up to the end line.
  auto consume = [&] {
    std::size_t pos = 0;
    while (!done) {
      const std::size_t nl = pending_.find('\n', pos);
      if (nl == std::string::npos) break;
      std::string_view line(pending_.data() + pos, nl - pos);
      pos = nl + 1;
      if (auto end = ParseBatchEnd(line)) {
        done = true;
        if (end->ok()) {
          r.exit_code = **end;
        } else {
          r.protocol_error = end->status().message();
          stop = true;
        }
        break;
      }
      if (r.out.size() + line.size() + 1 > max_output) {
        r.out_truncated = true;
        done = stop = true;
        break;
      }
      r.out.append(line);
      r.out += '\n';
    }
    pending_.erase(0, pos);
    if (!done && pending_.size() > max_output) {
      r.out_truncated = true;
      done = stop = true;
    }
  };
  if (!pending_.empty()) {
    // Read with the previous end line: printed before it was sent this input.
    r.protocol_error =
        "the command printed after its end line, before it was sent the next "
        "input: " +
        pending_.substr(0, 80);
    Stop();
    return r;
  }
  if (!WriteAll(proc.in_w.get(), path + "\n", deadline)) {
    // The command stopped reading: it exited or hangs. Its status tells which below.
    stop = true;
  }
  bool out_open = true, exited = false;
  int status = 0;
  Clock::time_point exited_at{}, closed_at{};
  char buf[1 << 16];
  while (!done) {
    const auto now = Clock::now();
    if (exited && (!out_open || now - exited_at >= kGrace)) break;
    if (now >= deadline) {
      r.timed_out = !exited;
      break;
    }
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
    pollfd p[3] = {{exited ? -1 : proc.report_r.get(), POLLIN, 0},
                   {out_open ? proc.out_r.get() : -1, POLLIN, 0},
                   {err_open ? proc.err_r.get() : -1, POLLIN, 0}};
    const int n =
        ::poll(p, 3, static_cast<int>(std::min<long long>(ms, exited || !out_open ? 10 : 1000)));
    if (n < 0 && errno != EINTR) {
      Stop();
      return ImplIoError("poll");
    }
    if (n < 0) continue;
    if (p[2].revents != 0) err_open = DrainStderr(proc.err_r.get(), r.err, r.err_truncated, 1);
    if (p[1].revents != 0) {
      const ssize_t got = ::read(proc.out_r.get(), buf, sizeof buf);
      if (got < 0 && errno != EINTR && errno != EAGAIN) {
        Stop();
        return ImplIoError("read impl output");
      }
      if (got == 0) {
        out_open = false;
        closed_at = Clock::now();
      }
      if (got > 0) {
        pending_.append(buf, static_cast<std::size_t>(got));
        consume();
      }
    }
    if (p[0].revents != 0 && !exited) {
      const int got = ReadReport(proc, status);
      if (got == 1) {
        exited = true;
        exited_at = Clock::now();
      } else if (got == 0) {
        r.supervisor_died = true;
        break;
      }
    }
    if (!out_open && !exited && !done && Clock::now() - closed_at >= kGrace) {
      // Its stdout is closed but it runs on: it can never send the end line.
      r.protocol_error = "the command closed its stdout before its end line";
      break;
    }
  }
  if (!done || stop || exited || !out_open) {
    // Everything it started is dead once the supervisor is: what it wrote to stderr is
    // in the pipe.
    StopSupervised(proc);
    if (err_open) DrainStderr(proc.err_r.get(), r.err, r.err_truncated, 64);
    Stop();
  }
  if (exited && !done) {
    SetWaitStatus(r, status);
    if (r.protocol_error.empty()) r.protocol_error = "the command exited before its end line";
  } else if (!done && r.protocol_error.empty() && !r.timed_out && !r.supervisor_died &&
             !r.out_truncated) {
    r.protocol_error = "the command stopped reading its input";
  }
  return r;
}

}  // namespace mpo::corpus
