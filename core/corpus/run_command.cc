#include "core/corpus/run_command.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "core/base/unique_fd.h"

namespace mpo::corpus {
namespace {

using Clock = std::chrono::steady_clock;

// How long output may still arrive after the implementation exited while a descendant
// keeps its stdout open: long enough for a pipe that is being drained, short enough
// that a forgotten background child costs nothing noticeable.
constexpr auto kGrace = std::chrono::milliseconds(100);

Status IoError(const char* what) {
  return Status(ErrorCode::kIo, std::string(what) + ": " + std::strerror(errno))
      .WithField("impl command");
}

void SleepMs(long ms) {
  timespec ts{0, ms * 1000000L};
  ::nanosleep(&ts, nullptr);
}

// The supervisor's children as the kernel lists them (Linux's
// /proc/<pid>/task/<tid>/children); `kill_each` is called on every pid. Uses only
// system calls: this runs in a forked child of a possibly multi-threaded program.
template <class F>
void ForEachChild(F kill_each) {
  const int fd = ::open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[4096];
  long pid = 0;
  bool in_number = false;
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] >= '0' && buf[i] <= '9') {
        pid = pid * 10 + (buf[i] - '0');
        in_number = true;
      } else if (in_number) {
        kill_each(static_cast<pid_t>(pid));
        pid = 0;
        in_number = false;
      }
    }
  }
  if (in_number) kill_each(static_cast<pid_t>(pid));
  ::close(fd);
}

// Kills the implementation's process group and every process reparented to the
// supervisor (it is a subreaper, so descendants that left the group with setsid land
// here when their parent dies), until the supervisor has no child left.
void KillEverything(pid_t impl) {
  ::kill(-impl, SIGKILL);
  for (int round = 0; round < 10000; ++round) {
    ForEachChild([](pid_t p) { ::kill(p, SIGKILL); });
    int status = 0;
    pid_t w;
    while ((w = ::waitpid(-1, &status, WNOHANG)) > 0) {
    }
    if (w < 0 && errno == ECHILD) return;
    SleepMs(1);
  }
}

// The supervisor process: starts the implementation in a new session, reports its wait
// status on `report`, and kills everything it started when `control` is closed (the
// kit is done with the case, timed out, or died).
[[noreturn]] void Supervise(const char* command, int out_w, int err_w, int report_w,
                            int control_r) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  ::signal(SIGPIPE, SIG_IGN);  // a vanished kit must not kill us before the clean-up
  const pid_t impl = ::fork();
  if (impl < 0) ::_exit(126);
  if (impl == 0) {
    ::setsid();
    ::close(report_w);
    ::close(control_r);
    const pid_t sh = ::fork();
    if (sh < 0) ::_exit(126);
    if (sh == 0) {
      ::signal(SIGPIPE, SIG_DFL);
      const int devnull = ::open("/dev/null", O_RDWR);
      if (devnull >= 0) ::dup2(devnull, 0);
      ::dup2(out_w, 1);
      ::dup2(err_w, 2);
      ::close(out_w);
      ::close(err_w);
      ::execl("/bin/sh", "sh", "-c", command, static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // The command's parent is this process, not the supervisor: a command that kills its
    // parent ($PPID) ends only this one, which the supervisor then sees as the command's
    // death by that signal; the command itself is reparented to the supervisor (a
    // subreaper) and killed with the rest. This ends as the command does.
    ::close(out_w);
    ::close(err_w);
    int st = 0;
    while (::waitpid(sh, &st, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(st)) ::_exit(WEXITSTATUS(st));
    const int sig = WIFSIGNALED(st) ? WTERMSIG(st) : SIGKILL;
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    ::signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    ::sigprocmask(SIG_UNBLOCK, &one, nullptr);
    ::kill(::getpid(), sig);
    ::_exit(128 + sig);
  }
  // The kit kills the command's process group itself if this supervisor dies.
  (void)!::write(report_w, &impl, sizeof impl);
  // From here on only the implementation and its descendants hold them.
  ::close(out_w);
  ::close(err_w);
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, impl, 0));
  bool reported = false;
  while (true) {
    pollfd p[2] = {{control_r, POLLIN, 0}, {pidfd, POLLIN, 0}};
    const bool watch_impl = !reported && pidfd >= 0;
    // Without pidfd (old kernels), look at the implementation every 5 ms.
    const int n = ::poll(p, watch_impl ? 2 : 1, reported || pidfd >= 0 ? -1 : 5);
    if (n < 0 && errno != EINTR) break;
    if (n > 0 && p[0].revents != 0) break;  // the kit closed the control pipe
    if (!reported) {
      int status = 0;
      const pid_t w = ::waitpid(impl, &status, WNOHANG);
      if (w == impl) {
        (void)!::write(report_w, &status, sizeof status);
        reported = true;
      }
    }
  }
  KillEverything(impl);
  ::_exit(0);
}

// Appends to the stderr tail, dropping its oldest bytes beyond kStderrTail.
void KeepTail(CommandOutcome& r, const char* data, std::size_t n) {
  if (n >= kStderrTail) {
    r.err_truncated = r.err_truncated || n > kStderrTail || !r.err.empty();
    r.err.assign(data + n - kStderrTail, kStderrTail);
    return;
  }
  r.err.append(data, n);
  if (r.err.size() > kStderrTail) {
    r.err.erase(0, r.err.size() - kStderrTail);
    r.err_truncated = true;
  }
}

// Reads what the stderr pipe holds now (non-blocking), at most `reads` times so that a
// command writing without pause cannot hold the kit past its deadline; false at end of
// file or error.
bool ReadStderr(int fd, CommandOutcome& r, char* buf, std::size_t size, int reads) {
  while (reads-- > 0) {
    const ssize_t got = ::read(fd, buf, size);
    if (got > 0) {
      KeepTail(r, buf, static_cast<std::size_t>(got));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    return got < 0 && errno == EAGAIN;
  }
  return true;
}

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
  int out[2], report[2], control[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return IoError("pipe");
  UniqueFd out_r(out[0]), out_w(out[1]);
  int err[2];
  if (::pipe2(err, O_CLOEXEC) != 0) return IoError("pipe");
  UniqueFd err_r(err[0]), err_w(err[1]);
  // Only the kit's end: the command's stderr stays a blocking pipe.
  if (::fcntl(err_r.get(), F_SETFL, O_NONBLOCK) != 0) return IoError("fcntl");
  if (::pipe2(report, O_CLOEXEC) != 0) return IoError("pipe");
  UniqueFd report_r(report[0]), report_w(report[1]);
  if (::pipe2(control, O_CLOEXEC) != 0) return IoError("pipe");
  UniqueFd control_r(control[0]), control_w(control[1]);
  const pid_t supervisor = ::fork();
  if (supervisor < 0) return IoError("fork");
  if (supervisor == 0) {
    // O_CLOEXEC would drop this in the implementation only: close the kit's ends here.
    ::close(out_r.get());
    ::close(err_r.get());
    ::close(report_r.get());
    ::close(control_w.get());
    // The implementation's stdout must not be close-on-exec; and no other copy of the
    // write end may stay open here, or the kit would never see end of file.
    // Both above 2, so that neither is overwritten while the other becomes fd 1 or 2.
    const int stdout_w = ::fcntl(out_w.get(), F_DUPFD, 3);
    const int stderr_w = ::fcntl(err_w.get(), F_DUPFD, 3);
    ::close(out_w.get());
    ::close(err_w.get());
    Supervise(command.c_str(), stdout_w, stderr_w, report_w.get(), control_r.get());
  }
  out_w.Reset();
  err_w.Reset();
  report_w.Reset();
  control_r.Reset();

  CommandOutcome r;
  const auto deadline =
      Clock::now() + std::chrono::microseconds(static_cast<long long>(timeout_seconds * 1e6));
  bool out_open = true, err_open = true, reported = false, supervisor_gone = false;
  int impl_status = 0;
  pid_t impl = 0;                   // the command's process group, once the supervisor has said it
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
    pollfd p[3] = {{report_r.get(), POLLIN, 0},
                   {out_open ? out_r.get() : -1, POLLIN, 0},
                   {err_open ? err_r.get() : -1, POLLIN, 0}};
    const int n =
        ::poll(p, supervisor_gone ? 0 : 3, static_cast<int>(std::min<long long>(wait_ms, 1000)));
    if (n < 0 && errno != EINTR) return IoError("poll");
    if (n <= 0) continue;
    if (p[2].revents != 0) err_open = ReadStderr(err_r.get(), r, buf, sizeof buf, 1);
    if (p[1].revents != 0) {
      const ssize_t got = ::read(out_r.get(), buf, sizeof buf);
      if (got < 0 && errno != EINTR && errno != EAGAIN) return IoError("read impl output");
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
    if (p[0].revents != 0 && impl == 0) {
      const ssize_t got = ::read(report_r.get(), &impl, sizeof impl);
      if (got != static_cast<ssize_t>(sizeof impl)) impl = 0;
      if (got == 0) {
        supervisor_gone = true;
        out_open = false;
      }
    } else if (p[0].revents != 0 && !reported) {
      const ssize_t got = ::read(report_r.get(), &impl_status, sizeof impl_status);
      if (got == static_cast<ssize_t>(sizeof impl_status)) {
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
  control_w.Reset();
  int sup_status = 0;
  while (::waitpid(supervisor, &sup_status, 0) < 0 && errno == EINTR) {
  }
  // Everything the command started is dead: what it wrote to stderr is in the pipe (a
  // few pipe buffers at most).
  if (err_open) ReadStderr(err_r.get(), r, buf, sizeof buf, 64);
  if (!reported && impl != 0) {
    // The implementation may have exited just as we stopped waiting.
    const ssize_t got = ::read(report_r.get(), &impl_status, sizeof impl_status);
    reported = got == static_cast<ssize_t>(sizeof impl_status);
  }
  if (!reported) {
    if (impl == 0 && !r.timed_out && !r.out_truncated)
      return Status(ErrorCode::kIo, "the supervisor of the command did not start it")
          .WithField("impl command");
    // The supervisor was killed (by the command, or by anyone): its clean-up is done
    // here, on the command's process group, and the case fails.
    if (impl != 0) ::kill(-impl, SIGKILL);
    if (err_open) ReadStderr(err_r.get(), r, buf, sizeof buf, 64);
    if (!r.timed_out && !r.out_truncated) r.supervisor_died = true;
    return r;
  }
  r.timed_out = false;
  if (WIFEXITED(impl_status)) r.exit_code = WEXITSTATUS(impl_status);
  if (WIFSIGNALED(impl_status)) r.signal = WTERMSIG(impl_status);
  return r;
}

std::string SubstituteFile(const std::string& command, const std::string& file) {
  // Absolute, so that a command that changes directory first (`cd / && decoder {file}`)
  // still finds the case; the path as given where the working directory is unknown.
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(file, ec);
  const std::string path = ec ? file : absolute.lexically_normal().string();
  const std::string key = "{file}";
  std::string out;
  std::size_t pos = 0;
  for (std::size_t at; (at = command.find(key, pos)) != std::string::npos; pos = at + key.size())
    out += command.substr(pos, at - pos) + ShellQuote(path);
  return out + command.substr(pos);
}

}  // namespace mpo::corpus
