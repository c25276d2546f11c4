// The process exit code chosen by whichever subcommand ran. Subcommands run inside
// CLI11 callbacks, which cannot return a value; they record it here instead.
#pragma once

#include <string>

#include "core/base/status.h"

namespace mpo::tools {

// 0 success; 1 the input is bad (a typed error was printed); 2 usage or I/O problem.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitUsage = 2;

void SetExitCode(int code);
int ExitCode();

// Prints "memprof-oracle: <context>: <status>" to stderr and records the exit code
// that fits the error (kExitUsage for invalid arguments and I/O, kExitBadInput else).
void ReportError(const std::string& context, const Status& status);

}  // namespace mpo::tools
