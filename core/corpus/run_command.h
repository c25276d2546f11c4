// Runs a shell command with a time limit and collects its standard output.
// Threading: forks; call from one thread at a time.
#pragma once

#include <string>

#include "core/base/status.h"

namespace mpo::corpus {

struct CommandOutcome {
  bool timed_out = false;
  int exit_code = -1;  // valid when the process exited
  int signal = 0;      // the signal that ended it, or 0
  std::string out;     // stdout, capped at `max_output` bytes
  bool out_truncated = false;
};

// `/bin/sh -c command`, stdin from /dev/null, stderr discarded. On time-out the whole
// process group is killed. kIo when the process cannot be started.
Result<CommandOutcome> RunCommand(const std::string& command, double timeout_seconds,
                                  std::size_t max_output = std::size_t{256} << 20);

// `s` quoted for /bin/sh ('...' with embedded quotes escaped).
std::string ShellQuote(const std::string& s);

}  // namespace mpo::corpus
