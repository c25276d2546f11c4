#include "tools/events/tail_process.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <utility>

#include "core/process/spawn.h"
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
  auto image = process::ExecImage::Make(argv, env);
  if (!image.ok()) return image.status();
  const process::SpawnOptions options{
      .gated = !ring_dir.empty(),
      .failure_prefix = "memprof-oracle: events record: cannot run " + argv[0] + ": "};
  // With `ring_dir`, a pid whose ring file already exists there (an earlier process of
  // the same pid preserved it) is not used: that child is dropped before exec, and
  // another is forked.
  constexpr int kAttempts = 16;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    // Spawned before any InterruptGuard: the program gets SIGINT as our caller gave it.
    auto spawned = process::Spawn(*image, options);
    if (!spawned.ok()) {
      Status failed = spawned.status();
      return std::move(failed).WithField("PROG");
    }
    const pid_t pid = spawned->pid();
    char path[4096];
    struct stat st {};
    const bool taken = !ring_dir.empty() && FormatRingPath(ring_dir, pid, path, sizeof path) &&
                       ::lstat(path, &st) == 0;
    if (!taken) {
      const int exec_error = spawned->Exec();
      if (exec_error >= 0) {
        ChildProcess child(pid);
        child.exec_failed_ = exec_error != 0;
        return child;
      }
    }
    spawned->Drop();
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
