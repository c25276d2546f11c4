#include "core/corpus/supervised_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
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
#include "core/corpus/supervisor.h"

namespace mpo::corpus {
namespace {

void SleepMs(long ms) {
  timespec ts{0, ms * 1000000L};
  ::nanosleep(&ts, nullptr);
}

// The kit's side: the supervisors started and not yet reaped. The kit is a subreaper, so
// when a supervisor is killed from outside, its descendants become the kit's children;
// every child of the kit that is not a registered supervisor is such an orphan. The lock
// is held across the spawn and the registration, so an orphan hunt never sees a supervisor that is
// not registered yet. A plain std::mutex, not the sync layer's (core/sync): nothing is
// shared without it, so there is no ordering for a model to check.
std::mutex registry_mutex;
std::set<pid_t> live_supervisors;

// Every child of this process: a child belongs to the thread that started it, and orphans
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

// Moves `fd` above the supervisor's fixed descriptors: posix_spawn's dup2 actions run in
// order, and one must not overwrite another's source. Close-on-exec, as it was.
bool AboveFixed(UniqueFd& fd) {
  if (!fd.valid() || fd.get() >= supervisor::kFirstFree) return true;
  const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, supervisor::kFirstFree);
  if (moved < 0) return false;
  fd = UniqueFd(moved);
  return true;
}

// posix_spawn's attribute objects, destroyed on every path.
struct FileActions {
  posix_spawn_file_actions_t actions;
  int error = ::posix_spawn_file_actions_init(&actions);
  ~FileActions() {
    if (error == 0) ::posix_spawn_file_actions_destroy(&actions);
  }
  FileActions() = default;
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  void Dup(int from, int to) {
    if (error == 0) error = ::posix_spawn_file_actions_adddup2(&actions, from, to);
  }
};

// Diverts a supervisor start (supervisor.h) before main and before any other static
// initializer of the program: this file holds StartSupervised, so every program that can
// start a supervisor holds this too. glibc passes argc and argv to initializers.
__attribute__((constructor(101))) void DivertSupervisorStart(int argc, char** argv, char**) {
  if (supervisor::IsSupervisorStart(argc, argv)) supervisor::Run(argc, argv);
}

}  // namespace

Status ImplIoError(const char* what) {
  return Status(ErrorCode::kIo, std::string(what) + ": " + std::strerror(errno))
      .WithField("impl command");
}

Result<SupervisedProcess> StartSupervised(const std::string& command, bool stdin_pipe) {
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
  if (!AboveFixed(in_r) || !AboveFixed(out_w) || !AboveFixed(err_w) || !AboveFixed(report_w) ||
      !AboveFixed(control_r))
    return ImplIoError("fcntl");
  // The supervisor gets the command's ends and its own, at fixed numbers and without
  // close-on-exec (dup2 clears it); every other descriptor of the kit's is close-on-exec
  // or closed by the supervisor at its start.
  FileActions actions;
  actions.Dup(report_w.get(), supervisor::kReport);
  actions.Dup(control_r.get(), supervisor::kControl);
  actions.Dup(out_w.get(), supervisor::kOut);
  actions.Dup(err_w.get(), supervisor::kErr);
  if (stdin_pipe) actions.Dup(in_r.get(), supervisor::kIn);
  if (actions.error != 0) {
    errno = actions.error;
    return ImplIoError("posix_spawn_file_actions");
  }
  // Pointers into the strings above, which outlive the call.
  std::string argv0 = supervisor::kArgv0, marker = supervisor::kMarker,
              input = stdin_pipe ? supervisor::kStdinPipe : supervisor::kStdinNull,
              command_arg = command;
  char* argv[] = {argv0.data(), marker.data(), input.data(), command_arg.data(), nullptr};
  // Orphans of a killed supervisor come to the kit, which kills them (StopSupervised).
  static const bool subreaper = ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
  (void)subreaper;
  std::unique_lock registry(registry_mutex);
  pid_t supervisor = -1;
  const int error =
      ::posix_spawn(&supervisor, "/proc/self/exe", &actions.actions, nullptr, argv, environ);
  if (error != 0) {
    errno = error;
    return ImplIoError("cannot start the supervisor (/proc/self/exe)");
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
