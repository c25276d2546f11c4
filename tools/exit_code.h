// The process exit code chosen by whichever subcommand ran, and the one exit-code policy
// of the program. Subcommands run inside CLI11 callbacks, which cannot return a value;
// they record it here instead.
//
// Policy: 0 success; 1 the input is bad (a typed error was printed); 2 usage or I/O
// problem, including a missing input and a failed write to stdout or to a file (a write
// past `ulimit -f` too). A termination signal ends the process with 128 + N once its
// temporary files are removed; a stdout pipe closed by its reader is SIGPIPE, 141
// (core/io/cleanup_registry.h).
#pragma once

#include <string>

#include "core/base/status.h"

namespace mpo::tools {

inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitUsage = 2;

void SetExitCode(int code);
int ExitCode();

// The exit code a failure with this status gets: kExitUsage for invalid arguments, I/O
// and a missing input (kInvalidArgument, kIo, kNotFound), kExitBadInput for the rest.
int ExitCodeFor(const Status& status);

// Prints "memprof-oracle: <context>: <status>" to stderr and records ExitCodeFor(status).
void ReportError(const std::string& context, const Status& status);

// True once a write to stdout has failed (a full disk, a closed descriptor): long
// outputs check it to stop early instead of computing what nobody can read.
bool StdoutFailed();

// Flushes and closes stdout, checking both (a failed write is often only seen here). On
// failure prints "memprof-oracle: stdout: <reason>" and returns kExitUsage; else `code`.
int FinishStdout(int code);

}  // namespace mpo::tools
