#include "tools/events/tail_process.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <utility>

#include "tools/events/tail_interrupt.h"

namespace mpo::tools {

bool ProcessAlive(std::int64_t pid) {
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

namespace {

// Writes "<dir>/<pid>.events" into `buf`; false if it does not fit.
bool FormatRingPath(const std::string& dir, pid_t pid, char* buf, std::size_t size) {
  char digits[24];
  std::size_t n = 0;
  auto v = static_cast<unsigned long>(pid);
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0 && n < sizeof digits);
  constexpr char kSuffix[] = ".events";
  const std::size_t len = dir.size() + 1 + n + sizeof kSuffix;  // kSuffix counts the NUL
  if (len > size) return false;
  std::size_t at = 0;
  for (const char c : dir) buf[at++] = c;
  buf[at++] = '/';
  while (n > 0) buf[at++] = digits[--n];
  std::memcpy(buf + at, kSuffix, sizeof kSuffix);
  return true;
}

}  // namespace

Result<ChildProcess> ChildProcess::Spawn(
    const std::vector<std::string>& argv,
    const std::vector<std::pair<std::string, std::string>>& env, const std::string& ring_dir) {
  if (argv.empty() || argv[0].empty()) {
    return Status(ErrorCode::kInvalidArgument, "no program to run").WithField("PROG");
  }
  // Everything the child needs is built before fork: between fork and exec only
  // async-signal-safe calls are allowed.
  std::map<std::string, std::string> vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [name, value] : env) vars[name] = value;
  std::vector<std::string> env_strings;
  env_strings.reserve(vars.size());
  for (const auto& [name, value] : vars) {
    std::string entry = name;
    entry += '=';
    entry += value;
    env_strings.push_back(std::move(entry));
  }
  std::vector<char*> envp;
  envp.reserve(env_strings.size() + 1);
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  argp.reserve(args.size() + 1);
  for (std::string& s : args) argp.push_back(s.data());
  argp.push_back(nullptr);
  const std::string failure = "memprof-oracle: events record: cannot run " + argv[0] + ": ";

  std::fflush(nullptr);  // nothing buffered is written twice
  // With `ring_dir`, a pid whose ring file already exists there (an earlier process of
  // the same pid preserved it) is not used: that child exits before exec, and another is
  // forked. The child waits for the parent's word on a socket (send() with MSG_NOSIGNAL,
  // so a child killed meanwhile cannot end the parent with SIGPIPE).
  constexpr int kAttempts = 16;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    int go[2] = {-1, -1};
    if (!ring_dir.empty() && ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) != 0) {
      return Status(ErrorCode::kIo, std::string("socketpair: ") + std::strerror(errno))
          .WithField("PROG");
    }
    // Spawned before any InterruptGuard: the program gets SIGINT as our caller gave it.
    const pid_t pid = ::fork();
    if (pid < 0) {
      const int err = errno;
      if (go[0] >= 0) {
        ::close(go[0]);
        ::close(go[1]);
      }
      return Status(ErrorCode::kIo, std::string("fork: ") + std::strerror(err)).WithField("PROG");
    }
    if (pid == 0) {
      if (go[0] >= 0) {
        ::close(go[1]);
        char word = 0;
        ssize_t r;
        do {
          r = ::read(go[0], &word, 1);
        } while (r < 0 && errno == EINTR);
        if (r != 1) ::_exit(0);  // not this pid
      }
      // go[0] is close-on-exec: the parent reads end-of-file when exec succeeded.
      ::execvpe(argp[0], argp.data(), envp.data());
      const int error = errno;
      const char* reason = std::strerror(error);
      (void)!::write(2, failure.data(), failure.size());
      (void)!::write(2, reason, std::strlen(reason));
      (void)!::write(2, "\n", 1);
      if (go[0] >= 0) (void)!::write(go[0], "x", 1);
      // As a shell: 127 when there is no such program, 126 when it cannot be run.
      ::_exit(error == ENOENT || error == ENOTDIR ? 127 : 126);
    }
    if (go[0] < 0) return ChildProcess(pid);
    ::close(go[0]);
    char path[4096];
    struct stat st {};
    const bool taken = FormatRingPath(ring_dir, pid, path, sizeof path) && ::lstat(path, &st) == 0;
    if (!taken && ::send(go[1], "g", 1, MSG_NOSIGNAL) == 1) {
      // One byte: exec failed (the child said why on stderr); end-of-file: it succeeded.
      char word = 0;
      ssize_t r;
      do {
        r = ::read(go[1], &word, 1);
      } while (r < 0 && errno == EINTR);
      ::close(go[1]);
      ChildProcess child(pid);
      child.exec_failed_ = r == 1;
      return child;
    }
    ::close(go[1]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  return Status(ErrorCode::kIo, "every process started had a ring of the same pid already in " +
                                    ring_dir + "; not replacing them")
      .WithField("--out");
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(other.pid_),
      reaped_(other.reaped_),
      status_(other.status_),
      exec_failed_(other.exec_failed_) {
  other.pid_ = -1;
  other.reaped_ = true;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !reaped_) (void)Running();
}

bool ChildProcess::Running() {
  if (reaped_ || pid_ <= 0) return false;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    reaped_ = true;
    status_ = status;
    return false;
  }
  // r < 0 (ECHILD): someone else reaped it; it is not running either way.
  if (r < 0 && errno != EINTR) {
    reaped_ = true;
    status_ = 0;
    return false;
  }
  return true;
}

void ChildProcess::Wait() {
  while (!reaped_ && pid_ > 0) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, 0);
    if (r == pid_) {
      reaped_ = true;
      status_ = status;
    } else if (r < 0 && errno != EINTR) {
      reaped_ = true;
    }
  }
}

void ChildProcess::Signal(int sig) {
  if (!reaped_ && pid_ > 0) ::kill(pid_, sig);
}

void ChildProcess::Terminate(double grace_ms, int sig) {
  Signal(sig);
  constexpr double kStepMs = 20;
  // A plain sleep: after a Ctrl-C InterruptibleSleep no longer waits, and the program
  // would lose its grace period.
  const timespec step{0, static_cast<long>(kStepMs * 1e6)};
  for (double waited = 0; waited < grace_ms && Running(); waited += kStepMs) {
    ::nanosleep(&step, nullptr);
  }
  if (Running()) Signal(SIGKILL);
  Wait();
}

int ChildProcess::ShellStatus() const {
  if (WIFEXITED(status_)) return WEXITSTATUS(status_);
  if (WIFSIGNALED(status_)) return 128 + WTERMSIG(status_);
  return 1;
}

std::string ChildProcess::Describe() const {
  if (WIFSIGNALED(status_)) {
    const int sig = WTERMSIG(status_);
    const char* name = ::sigabbrev_np(sig);
    return "was killed by signal " + std::to_string(sig) +
           (name != nullptr ? std::string(" (SIG") + name + ")" : std::string());
  }
  return "exited with status " + std::to_string(ShellStatus());
}

}  // namespace mpo::tools
