// Starting a program: fork and exec in one place, for `events record` (tools/events) and
// the conformance kit's supervisor (core/corpus/supervised_process.h), or posix_spawn where
// the caller needs no code of its own in the child (PosixSpawn).
//
//   auto image = process::ExecImage::Make({"prog", "arg"}, {{"VAR", "1"}});
//   auto child = process::Spawn(*image, {.failure_prefix = "cannot run prog: "});
//   if (child.ok() && child->Exec() != 0) ...  // it said why on stderr, exits 127 or 126
//
// Everything the child needs is built before fork (ExecImage): between fork and exec a
// child of a possibly multi-threaded program may only make async-signal-safe calls, and
// ExecInChild makes nothing else. A program that cannot be executed is reported over a
// close-on-exec channel: end of file there means exec succeeded.
// Threading: forks; call from one thread at a time.
#pragma once

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/base/unique_fd.h"

namespace mpo::process {

using EnvOverrides = std::vector<std::pair<std::string, std::string>>;

struct ChildStdio;

// A program, its arguments and its environment, ready for exec.
class ExecImage {
 public:
  // argv[0] searched in PATH; the current environment with `env` replacing or adding
  // variables. kInvalidArgument (field "PROG") for an empty argv or program name.
  static Result<ExecImage> Make(const std::vector<std::string>& argv, const EnvOverrides& env);
  // `/bin/sh -c command`, in the environment the child has when it execs.
  static ExecImage Shell(const std::string& command);
  // What `/bin/sh -c command` would run, without the shell where that is certain: a
  // command of plain words (letters, digits, `/._-+=:,@%^`, single-quoted strings and
  // backslash-quoted characters; no expansion, redirection, operator or assignment)
  // whose program is an executable file (found in PATH unless it has a `/`) that starts
  // as an ELF or `#!` file. Anything else goes through Shell: the two run the same
  // program with the same arguments, one process start fewer.
  static ExecImage Command(const std::string& command);

  // Moves keep the strings' buffers (a vector's move takes its elements as they are),
  // so the pointer arrays stay valid; a copy would not.
  ExecImage(ExecImage&&) = default;
  ExecImage& operator=(ExecImage&&) = default;
  ExecImage(const ExecImage&) = delete;
  ExecImage& operator=(const ExecImage&) = delete;

  // The file exec'd: "/bin/sh" for Shell, "" for Make (argv[0] searched in PATH).
  const std::string& program() const { return path_; }

  // Execs in this process (call in a forked child): returns only if exec failed, with its
  // errno. Async-signal-safe.
  int Exec() const;

 private:
  friend int PosixSpawn(const ExecImage& image, const ChildStdio& stdio, pid_t& pid);
  ExecImage() = default;
  void Point();

  std::string path_;  // "" : search argv[0] in PATH
  std::vector<std::string> args_, env_;
  std::vector<char*> argp_, envp_;
  bool own_env_ = false;  // else the environment at exec time
};

// The child's standard descriptors. Descriptors given are above 2 (so that setting one
// standard descriptor never overwrites another's source) and are closed once copied.
struct ChildStdio {
  static constexpr int kInherit = -1;
  static constexpr int kDevNull = -2;  // for `in` only
  int in = kInherit, out = kInherit, err = kInherit;
  // SIGPIPE back to its default action; else as inherited (an ignored one stays ignored
  // across exec).
  bool default_sigpipe = false;
};

// In a forked child: sets up the standard descriptors, then execs. Returns only if exec
// failed, with its errno. Async-signal-safe.
int ExecInChild(const ExecImage& image, const ChildStdio& stdio);

// Starts `image` with posix_spawn, which does not copy the caller's address space (fork's
// cost grows with the caller's memory): the standard descriptors as `stdio` says, their
// sources closed in the child only. 0 with `pid` set, or the errno of the failed start, a
// failed exec included.
int PosixSpawn(const ExecImage& image, const ChildStdio& stdio, pid_t& pid);

// The exit status a shell gives a program it cannot run: 127 when there is no such
// program, 126 when it cannot be executed.
int ExecFailureStatus(int error);

struct SpawnOptions {
  ChildStdio stdio = {};
  // In a process group of its own (setpgid); else in the caller's, so that a Ctrl-C at
  // the terminal reaches it as well.
  bool new_process_group = false;
  // The child waits before exec until Exec() (or exits 0 without exec when the caller
  // drops it), so the caller may decide on its pid first.
  bool gated = false;
  // Written to the child's stderr before the reason when exec fails.
  std::string failure_prefix = {};
};

// A forked child, before or after its exec.
class Spawned {
 public:
  pid_t pid() const { return pid_; }
  // Lets a gated child go on, then waits until it has exec'd: 0, or the errno of a failed
  // exec (the child has said why on stderr and exits with ExecFailureStatus). -1 when a
  // gated child could not be told to go on (it is gone already).
  int Exec();
  // A gated child that was not let go on exits 0 without exec; it is reaped here.
  // Nothing for a child that was let go on: its caller waits for it.
  void Drop();

 private:
  friend Result<Spawned> Spawn(const ExecImage& image, const SpawnOptions& options);
  Spawned(pid_t pid, UniqueFd channel, bool gated)
      : pid_(pid), channel_(std::move(channel)), gated_(gated) {}
  pid_t pid_;
  UniqueFd channel_;
  bool gated_;
};

// Forks a child that execs `image`. kIo when the channel or the fork fails. Buffered
// stdio output is flushed first, so that nothing is written twice.
Result<Spawned> Spawn(const ExecImage& image, const SpawnOptions& options);

}  // namespace mpo::process
