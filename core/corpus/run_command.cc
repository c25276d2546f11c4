#include "core/corpus/run_command.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

namespace mpo::corpus {
namespace {

// Closes an fd when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Reset(); }
  int get() const { return fd_; }
  void Reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

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
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return Status(ErrorCode::kIo, std::string("pipe: ") + std::strerror(errno));
  Fd read_end(fds[0]), write_end(fds[1]);
  const pid_t pid = ::fork();
  if (pid < 0) return Status(ErrorCode::kIo, std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);
    const int devnull = ::open("/dev/null", O_RDWR);
    if (devnull >= 0) {
      ::dup2(devnull, 0);
      ::dup2(devnull, 2);
    }
    ::dup2(write_end.get(), 1);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // both sides, whichever runs first
  write_end.Reset();
  CommandOutcome r;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000));
  char buf[1 << 16];
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      r.timed_out = true;
      break;
    }
    pollfd p{read_end.get(), POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    const ssize_t got = ::read(read_end.get(), buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // EOF: every writer closed stdout
    const std::size_t keep =
        std::min<std::size_t>(static_cast<std::size_t>(got), max_output - r.out.size());
    r.out.append(buf, keep);
    if (keep < static_cast<std::size_t>(got)) r.out_truncated = true;
  }
  if (r.timed_out) ::kill(-pid, SIGKILL);
  int status = 0;
  // The shell may have exited while a child keeps stdout open: wait with the deadline.
  while (true) {
    const pid_t w = ::waitpid(pid, &status, r.timed_out ? 0 : WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return r;
    if (w == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        r.timed_out = true;
        ::kill(-pid, SIGKILL);
      } else {
        ::usleep(1000);
      }
    }
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace mpo::corpus
