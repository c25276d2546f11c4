#include "core/corpus/supervisor.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>

#include "core/process/spawn.h"

namespace mpo::corpus::supervisor {
namespace {

void SleepMs(long ms) {
  timespec ts{0, ms * 1000000L};
  ::nanosleep(&ts, nullptr);
}

// The supervisor's children as the kernel lists them (Linux's
// /proc/<pid>/task/<tid>/children); `kill_each` is called on every pid.
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
// reparented to the supervisor (a subreaper), is killed with the rest. The command
// starts by posix_spawn; a command that cannot start ends this process with 127.
[[noreturn]] void RunCommandAsChild(const process::ExecImage& shell, int in_r, int out_w,
                                    int err_w) {
  pid_t sh = -1;
  const int error = process::PosixSpawn(shell,
                                        {.in = in_r >= 0 ? in_r : process::ChildStdio::kDevNull,
                                         .out = out_w,
                                         .err = err_w,
                                         .default_sigpipe = true},
                                        sh);
  if (error != 0) ::_exit(127);
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

// Starts the implementation in a new session, reports its wait status on `report`, and
// kills everything it started when `control` is closed. The command's parent is a fork:
// this process is small (a fresh exec, not the kit), so the copy costs little, and that
// parent must run code of its own (RunCommandAsChild).
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

// Closes every descriptor from `first` on. The kit's pipes are close-on-exec, but not
// every descriptor a multi-threaded kit holds is: a pipe of another case's, held here,
// would never see end of file.
void CloseFrom(unsigned first) {
  if (::syscall(SYS_close_range, first, ~0u, 0) == 0) return;
  // Kernels before 5.9: one by one, as far as descriptors can go.
  const long open_max = ::sysconf(_SC_OPEN_MAX);
  const unsigned last =
      open_max > 0 && open_max < (1L << 20) ? static_cast<unsigned>(open_max) - 1 : (1u << 20) - 1;
  for (unsigned fd = first; fd <= last; ++fd) ::close(static_cast<int>(fd));
}

bool IsPipe(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

}  // namespace

bool IsSupervisorStart(int argc, char** argv) {
  return argc >= 2 && argv[0] != nullptr && argv[1] != nullptr &&
         std::strcmp(argv[0], kArgv0) == 0 && std::strcmp(argv[1], kMarker) == 0;
}

void Run(int argc, char** argv) {
  const bool known =
      argc == 4 && (std::strcmp(argv[2], kStdinPipe) == 0 || std::strcmp(argv[2], kStdinNull) == 0);
  const bool stdin_pipe = known && std::strcmp(argv[2], kStdinPipe) == 0;
  const bool pipes = IsPipe(kReport) && IsPipe(kControl) && IsPipe(kOut) && IsPipe(kErr) &&
                     (!stdin_pipe || IsPipe(kIn));
  if (!known || !pipes) {
    static constexpr char kWhy[] =
        "memprof-oracle: the conformance kit's internal supervisor, started by `corpus "
        "check` and `corpus fuzz` only\n";
    (void)!::write(2, kWhy, sizeof kWhy - 1);
    ::_exit(2);
  }
  CloseFrom(stdin_pipe ? kFirstFree : kIn);
  // Else ps would show the name of the file exec'd: "exe".
  ::prctl(PR_SET_NAME, kProcessName);
  const process::ExecImage shell = process::ExecImage::Command(argv[3]);
  Supervise(shell, stdin_pipe ? kIn : -1, kOut, kErr, kReport, kControl);
}

}  // namespace mpo::corpus::supervisor
