// Starts an implementation's command under a supervisor process that leaves nothing of it
// behind: the part run_command.h (one run per input) and batch_session.h (one long-lived
// process for many inputs) share.
//
// The supervisor is a child subreaper: the command runs in a new session of its own, and
// descendants that start sessions of their own are reparented to the supervisor. It
// reports the command's wait status on `report` as soon as the command exits, and when
// the kit closes `control` (done, timed out, or dead) it kills the command's process
// group and every process reparented to it, then exits.
//
// Why the supervisor is a fresh program (supervisor.h), started by posix_spawn of the
// kit's own executable, and not a fork of the kit: fork copies the page tables of the
// whole kit, a cost that grows with the kit's memory and, with several workers, makes
// them queue on the kit's memory-map lock, so one start per case made `-j 2` no faster
// than `-j 1`. posix_spawn shares the kit's memory until the exec, and the exec'd
// supervisor is small, so its own fork (the command's parent) and posix_spawn (the
// command) cost little. /proc/self/exe with an argv marker needs no second binary to
// install or find; the marker is checked before main, so test programs qualify too.
// Threading: any thread; a lock orders the starts and the reaping of supervisors.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

#include "core/base/status.h"
#include "core/base/unique_fd.h"

namespace mpo::corpus {

struct SupervisedProcess {
  pid_t supervisor = -1;
  pid_t impl = -1;    // the command's process (and group); -1 if it could not start
  UniqueFd in_w;      // the command's stdin (invalid: the command reads /dev/null)
  UniqueFd out_r;     // its stdout
  UniqueFd err_r;     // its stderr, non-blocking on the kit's side
  UniqueFd report_r;  // the command's wait status (an int) once it has exited
  UniqueFd control_w;
};

// `/bin/sh -c command` (without the shell when it would only run one program:
// process::ExecImage::Command); with `stdin_pipe` the kit writes the command's stdin through
// `in_w`. kIo (field "impl command") when a pipe or the supervisor's start fails.
Result<SupervisedProcess> StartSupervised(const std::string& command, bool stdin_pipe);

// Closes the control pipe (the supervisor kills everything the command started) and
// waits for the supervisor. If the supervisor was killed from outside (the command may
// kill its parent), the kit kills the command's group and every orphan of it that was
// reparented to the kit. Idempotent.
void StopSupervised(SupervisedProcess& p);

// Reads the wait status the supervisor reported: 1 read, 0 the supervisor is gone
// without one, -1 nothing yet (or an error).
int ReadReport(SupervisedProcess& p, int& status);

// Appends to a stderr tail of at most `cap` bytes, dropping its oldest bytes; `cut` is
// set once bytes were dropped.
void KeepTail(std::string& tail, bool& cut, const char* data, std::size_t n, std::size_t cap);

// Reads what the non-blocking stderr pipe `fd` holds now into a tail of kStderrTail
// bytes, at most `reads` times so that a command writing without pause cannot hold the
// kit past its deadline; false at end of file or error.
bool DrainStderr(int fd, std::string& tail, bool& cut, int reads);

Status ImplIoError(const char* what);

}  // namespace mpo::corpus
