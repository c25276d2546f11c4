// The supervisor program of supervised_process.h: what runs in the process the kit starts
// per implementation run. The kit starts it by posix_spawn of its own executable with the
// argv below, so no copy of the kit's (large) address space is ever made; the check that
// diverts such a start here runs before main (supervised_process.cc), so every program
// that links StartSupervised, tests included, can be its own supervisor.
//
// Its descriptors are fixed: the kit's posix_spawn puts the pipes there.
#pragma once

namespace mpo::corpus::supervisor {

inline constexpr const char* kArgv0 = "memprof-oracle-supervisor";
// What ps shows (15 bytes at most, no space: /proc/PID/stat stays easy to split).
inline constexpr const char* kProcessName = "mpo-supervisor";
// argv[1]: what tells a supervisor start from a user's command line.
inline constexpr const char* kMarker = "--internal-supervisor-of-the-conformance-kit";
// argv[2]: whether the command's stdin is the pipe on kIn, or /dev/null.
inline constexpr const char* kStdinPipe = "stdin-pipe";
inline constexpr const char* kStdinNull = "stdin-null";
// argv[3] is the command, argv[4] the end.

inline constexpr int kReport = 3;   // write end: the command's pid, then its wait status
inline constexpr int kControl = 4;  // read end: end of file means kill everything
inline constexpr int kOut = 5;      // the command's stdout
inline constexpr int kErr = 6;      // its stderr
inline constexpr int kIn = 7;       // its stdin, with kStdinPipe
inline constexpr int kFirstFree = 8;

// Whether argv is a supervisor start (argv[0] and argv[1] as above).
bool IsSupervisorStart(int argc, char** argv);

// Runs the supervisor and exits: 0 once everything it started is dead, 2 when started by
// hand (its descriptors are not the kit's pipes). Kills the command's process group and
// everything reparented to it when the control pipe ends.
[[noreturn]] void Run(int argc, char** argv);

}  // namespace mpo::corpus::supervisor
