// Temporary files and folders that must not outlive the process, whatever ends it. A
// fixed table of paths, filled without allocating in the handler's way: the handler of a
// termination signal removes every path registered by this process (a file, or a folder
// with what is in it), then re-raises the signal with its default action, so the exit
// status still names the signal. Only async-signal-safe calls run in the handler.
//
//   io::InstallSignalPolicy();                          // once, first thing in main
//   io::ScopedCleanup guard(temp, io::CleanupKind::kFile);
//   ... ::rename(temp, target); guard.Release();        // nothing left to remove
#pragma once

#include <signal.h>

#include <string>

namespace mpo::io {

enum class CleanupKind { kFile, kTree };

// The program's one signal policy; idempotent.
// - SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2: registered paths are
//   removed, then the signal ends the process as it would have. A signal the process was
//   started with ignored (nohup, a background job) stays ignored.
// - SIGPIPE (a reader closed stdout, as `| head` does): the same, always; the command
//   ends at once, silently, with status 141 like cat or grep.
// - SIGXFSZ (a write past `ulimit -f`): caught and ignored, so the write fails with EFBIG
//   and becomes a typed I/O error instead of killing the process.
// Handlers, unlike SIG_IGN, are reset to the default by exec, so the programs the tools
// run start with the default dispositions.
void InstallSignalPolicy();

// A registration in the table: the path is removed if a termination signal arrives while
// this lives (in the process that registered it: a forked child never removes its
// parent's files). Best effort: a path longer than PATH_MAX or a full table (64 entries)
// is not registered, and registered() says so. Destroying or releasing only unregisters;
// removing the path in the ordinary course is the owner's job.
class ScopedCleanup {
 public:
  ScopedCleanup() = default;
  ScopedCleanup(const std::string& path, CleanupKind kind);
  ScopedCleanup(ScopedCleanup&& other) noexcept;
  ScopedCleanup& operator=(ScopedCleanup&& other) noexcept;
  ScopedCleanup(const ScopedCleanup&) = delete;
  ScopedCleanup& operator=(const ScopedCleanup&) = delete;
  ~ScopedCleanup() { Release(); }

  void Release();
  bool registered() const { return slot_ >= 0; }

 private:
  int slot_ = -1;
};

// Blocks the termination signals in this thread while it lives, so that a file created
// and registered inside the scope is never left unregistered by a signal in between.
class TerminationSignalsBlocked {
 public:
  TerminationSignalsBlocked();
  ~TerminationSignalsBlocked();
  TerminationSignalsBlocked(const TerminationSignalsBlocked&) = delete;
  TerminationSignalsBlocked& operator=(const TerminationSignalsBlocked&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace mpo::io
