#include "core/corpus/supervised_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <vector>

#include "core/corpus/run_command.h"
#include "core/process/spawn.h"

namespace mpo::corpus {
namespace {

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
  if (impl > 0) ::kill(-impl, SIGKILL);
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

// The command's parent, in the command's new session: it runs the command (`shell`) and
// ends as the command does (its exit status, or its death by the same signal, without
// a core file). Being the command's $PPID, it is what a command that kills its parent
// kills: the supervisor then sees the command's death by that signal, and the command,
// reparented to the supervisor (a subreaper), is killed with the rest.
[[noreturn]] void RunCommandAsChild(const process::ExecImage& shell, int in_r, int out_w,
                                    int err_w) {
  const pid_t sh = ::fork();
  if (sh < 0) ::_exit(126);
  if (sh == 0) {
    (void)process::ExecInChild(shell, {.in = in_r >= 0 ? in_r : process::ChildStdio::kDevNull,
                                       .out = out_w,
                                       .err = err_w,
                                       .default_sigpipe = true});
    ::_exit(127);
  }
  if (in_r >= 0) ::close(in_r);
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

// The supervisor process: starts the implementation in a new session, reports its wait
// status on `report`, and kills everything it started when `control` is closed.
[[noreturn]] void Supervise(const process::ExecImage& shell, int in_r, int out_w, int err_w,
                            int report_w, int control_r) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  ::signal(SIGPIPE, SIG_IGN);  // a vanished kit must not kill us before the clean-up
  const pid_t impl = ::fork();
  if (impl < 0) ::_exit(126);
  if (impl == 0) {
    ::setsid();
    ::close(report_w);
    ::close(control_r);
    RunCommandAsChild(shell, in_r, out_w, err_w);
  }
  // The kit kills the implementation's group itself should this process be killed.
  (void)!::write(report_w, &impl, sizeof impl);
  // From here on only the implementation and its descendants hold them.
  if (in_r >= 0) ::close(in_r);
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

// Closes every descriptor above 2 but the `keep` ones (-1 entries ignored). A supervisor
// is forked, never exec'd: without this it would hold every pipe the kit had open at the
// fork, among them the ends of other supervisors' pipes when the kit runs several cases
// at once, and none of those would ever see end of file. System calls only.
void CloseAllBut(int (&keep)[5]) {
  // Ascending, so the gaps between them are the ranges to close.
  for (int i = 1; i < 5; ++i)
    for (int j = i; j > 0 && keep[j - 1] > keep[j]; --j) {
      const int t = keep[j];
      keep[j] = keep[j - 1];
      keep[j - 1] = t;
    }
  auto close_range = [](unsigned lo, unsigned hi) {
    if (lo > hi) return;
    if (::syscall(SYS_close_range, lo, hi, 0) == 0) return;
    // Kernels before 5.9: one by one, as far as descriptors can go.
    const long open_max = ::sysconf(_SC_OPEN_MAX);
    const unsigned last = open_max > 0 && open_max < (1L << 20)
                              ? static_cast<unsigned>(open_max) - 1
                              : (1u << 20) - 1;
    for (unsigned fd = lo; fd <= hi && fd <= last; ++fd) ::close(static_cast<int>(fd));
  };
  unsigned next = 3;
  for (int fd : keep) {
    if (fd < static_cast<int>(next)) continue;
    close_range(next, static_cast<unsigned>(fd) - 1);
    next = static_cast<unsigned>(fd) + 1;
  }
  close_range(next, ~0u);
}

// The kit's side: the supervisors started and not yet reaped. The kit is a subreaper, so
// when a supervisor is killed from outside, its descendants become the kit's children;
// every child of the kit that is not a registered supervisor is such an orphan. The lock
// is held across fork and registration, so an orphan hunt never sees a supervisor that is
// not registered yet. A plain std::mutex, not the sync layer's (core/sync): nothing is
// shared without it, so there is no ordering for a model to check.
std::mutex registry_mutex;
std::set<pid_t> live_supervisors;

// Every child of this process: a child belongs to the thread that forked it, and orphans
// to whichever thread the kernel chose, so each thread's list is read.
std::vector<pid_t> KitChildren() {
  std::vector<pid_t> children;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream in(task.path() / "children");
    long pid = 0;
    while (in >> pid) children.push_back(static_cast<pid_t>(pid));
  }
  return children;
}

// Kills and reaps every child of the kit but the live supervisors (their statuses are
// their StopSupervised's), until none is left: an orphan's own children come to the kit
// only once it has died. Called with registry_mutex held.
void KillOrphans() {
  for (int round = 0; round < 10000; ++round) {
    bool any = false;
    for (pid_t p : KitChildren()) {
      if (live_supervisors.count(p) != 0) continue;
      any = true;
      ::kill(p, SIGKILL);
      int status = 0;
      ::waitpid(p, &status, WNOHANG);
    }
    if (!any) return;
    SleepMs(1);
  }
}

// A copy of `fd` numbered 3 or above, not close-on-exec (-1 for -1).
int DupAbove2(int fd) { return fd < 0 ? -1 : ::fcntl(fd, F_DUPFD, 3); }

}  // namespace

Status ImplIoError(const char* what) {
  return Status(ErrorCode::kIo, std::string(what) + ": " + std::strerror(errno))
      .WithField("impl command");
}

Result<SupervisedProcess> StartSupervised(const std::string& command, bool stdin_pipe) {
  // Built here: the supervisor is a forked child of a possibly multi-threaded kit, which
  // may not allocate.
  const process::ExecImage shell = process::ExecImage::Command(command);
  int fds[2];
  UniqueFd in_r, in_w;
  if (stdin_pipe) {
    if (::pipe2(fds, O_CLOEXEC) != 0) return ImplIoError("pipe");
    in_r = UniqueFd(fds[0]);
    in_w = UniqueFd(fds[1]);
  }
  if (::pipe2(fds, O_CLOEXEC) != 0) return ImplIoError("pipe");
  UniqueFd out_r(fds[0]), out_w(fds[1]);
  if (::pipe2(fds, O_CLOEXEC) != 0) return ImplIoError("pipe");
  UniqueFd err_r(fds[0]), err_w(fds[1]);
  // Only the kit's end: the command's stderr stays a blocking pipe.
  if (::fcntl(err_r.get(), F_SETFL, O_NONBLOCK) != 0) return ImplIoError("fcntl");
  if (::pipe2(fds, O_CLOEXEC) != 0) return ImplIoError("pipe");
  UniqueFd report_r(fds[0]), report_w(fds[1]);
  if (::pipe2(fds, O_CLOEXEC) != 0) return ImplIoError("pipe");
  UniqueFd control_r(fds[0]), control_w(fds[1]);
  // Orphans of a killed supervisor come to the kit, which kills them (StopSupervised).
  static const bool subreaper = ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
  (void)subreaper;
  std::unique_lock registry(registry_mutex);
  const pid_t supervisor = ::fork();
  if (supervisor < 0) return ImplIoError("fork");
  if (supervisor == 0) {
    // O_CLOEXEC would drop these in the implementation only: close the kit's ends here.
    ::close(out_r.get());
    ::close(err_r.get());
    ::close(report_r.get());
    ::close(control_w.get());
    if (in_w.valid()) ::close(in_w.get());
    // The implementation's ends must not be close-on-exec, and no other copy of a write
    // end may stay open here, or the kit would never see end of file. All above 2, so
    // that none is overwritten while another becomes fd 0, 1 or 2.
    const int stdin_r = DupAbove2(in_r.get());
    const int stdout_w = DupAbove2(out_w.get());
    const int stderr_w = DupAbove2(err_w.get());
    if (in_r.valid()) ::close(in_r.get());
    ::close(out_w.get());
    ::close(err_w.get());
    int keep[5] = {stdin_r, stdout_w, stderr_w, report_w.get(), control_r.get()};
    CloseAllBut(keep);
    Supervise(shell, stdin_r, stdout_w, stderr_w, report_w.get(), control_r.get());
  }
  live_supervisors.insert(supervisor);
  registry.unlock();
  report_w.Reset();
  control_r.Reset();
  out_w.Reset();
  err_w.Reset();
  in_r.Reset();
  SupervisedProcess p;
  p.supervisor = supervisor;
  pid_t impl = -1;
  ssize_t got;
  while ((got = ::read(report_r.get(), &impl, sizeof impl)) < 0 && errno == EINTR) {
  }
  p.impl = got == static_cast<ssize_t>(sizeof impl) ? impl : -1;
  p.in_w = std::move(in_w);
  p.out_r = std::move(out_r);
  p.err_r = std::move(err_r);
  p.report_r = std::move(report_r);
  p.control_w = std::move(control_w);
  return p;
}

void StopSupervised(SupervisedProcess& p) {
  p.in_w.Reset();
  p.control_w.Reset();
  if (p.supervisor <= 0) return;
  // Waited for without reaping, then reaped under the lock: its pid cannot be reused (and
  // registered again) before it leaves the registry.
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(p.supervisor), &info, WEXITED | WNOWAIT) < 0 &&
         errno == EINTR) {
  }
  std::lock_guard registry(registry_mutex);
  int status = 0;
  while (::waitpid(p.supervisor, &status, 0) < 0 && errno == EINTR) {
  }
  live_supervisors.erase(p.supervisor);
  p.supervisor = -1;
  // A supervisor that ended on its own exit(0) has killed everything. One killed from
  // outside has not: its group is killed here, and whatever left the group was
  // reparented to the kit (a subreaper) and is killed as the supervisor would have.
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (p.impl > 0) ::kill(-p.impl, SIGKILL);
  KillOrphans();
}

int ReadReport(SupervisedProcess& p, int& status) {
  if (!p.report_r.valid()) return 0;
  const ssize_t got = ::read(p.report_r.get(), &status, sizeof status);
  if (got == static_cast<ssize_t>(sizeof status)) return 1;
  return got == 0 ? 0 : -1;
}

void KeepTail(std::string& tail, bool& cut, const char* data, std::size_t n, std::size_t cap) {
  if (n >= cap) {
    cut = cut || n > cap || !tail.empty();
    tail.assign(data + n - cap, cap);
    return;
  }
  tail.append(data, n);
  if (tail.size() > cap) {
    tail.erase(0, tail.size() - cap);
    cut = true;
  }
}

bool DrainStderr(int fd, std::string& tail, bool& cut, int reads) {
  char buf[1 << 16];
  while (reads-- > 0) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got > 0) {
      KeepTail(tail, cut, buf, static_cast<std::size_t>(got), kStderrTail);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    return got < 0 && errno == EAGAIN;
  }
  return true;
}

}  // namespace mpo::corpus
