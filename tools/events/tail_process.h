// The processes a ring follower watches: any pid (`events tail DIR PID`), or a child it
// started itself (`events record -- PROG ARGS...`), whose exit status it collects.
//
//   auto child = ChildProcess::Spawn({"prog", "arg"}, {{"OCAML_RUNTIME_EVENTS_START", "1"}});
//   while (child->Running()) { ... }
//   child->Wait();  std::printf("%s\n", child->Describe().c_str());  // "exited with status 0"
//
// Started through core/process/spawn.h: a program that cannot be executed is reported
// by the child on stderr, which exits as a shell would: 127 (no such program) or 126
// (not executable). The child stays in our process group, so a Ctrl-C at the terminal
// reaches it as well. Single-threaded use.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/base/status.h"

namespace mpo::tools {

// True while a process with this pid exists (also one we may not signal).
bool ProcessAlive(std::int64_t pid);

class ChildProcess {
 public:
  // Starts argv[0] (searched in PATH) with the current environment, `env` replacing or
  // adding variables. With `ring_dir`, the program never runs under a pid whose
  // `ring_dir/<pid>.events` already exists (an earlier process of the same pid preserved
  // it): that child is dropped before exec and another forked, so such a ring is neither
  // taken for the program's nor removed. kInvalidArgument for an empty argv, kIo if fork
  // fails or every pid tried had a ring there.
  static Result<ChildProcess> Spawn(const std::vector<std::string>& argv,
                                    const std::vector<std::pair<std::string, std::string>>& env,
                                    const std::string& ring_dir = "");

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Reaps the child if it already exited; never kills or waits for a running one.
  ~ChildProcess();

  pid_t pid() const { return pid_; }
  // False once the child has exited (it is then reaped and its status kept).
  bool Running();
  // Blocks until the child exits.
  void Wait();
  // `sig` (SIGTERM unless told), then SIGKILL if it is still running after `grace_ms`;
  // then waits.
  void Terminate(double grace_ms, int sig = SIGTERM);
  void Signal(int sig);
  // After Wait: the status a shell would give: the exit code, or 128 + the signal.
  int ShellStatus() const;
  // "exited with status N" / "was killed by signal N (NAME)".
  std::string Describe() const;
  // The program could not be executed (the child said why on stderr and exited 127 or
  // 126).
  bool ExecFailed() const { return exec_failed_; }

 private:
  explicit ChildProcess(pid_t pid) : pid_(pid) {}
  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  bool exec_failed_ = false;
};

}  // namespace mpo::tools
