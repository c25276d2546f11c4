#include "tools/exit_code.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace mpo::tools {
namespace {
int g_exit_code = kExitOk;
}  // namespace

void SetExitCode(int code) { g_exit_code = code; }
int ExitCode() { return g_exit_code; }

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case ErrorCode::kOk: return kExitOk;
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kIo:
    case ErrorCode::kNotFound: return kExitUsage;
    default: return kExitBadInput;
  }
}

void ReportError(const std::string& context, const Status& status) {
  std::fprintf(stderr, "memprof-oracle: %s: %s\n", context.c_str(), status.ToString().c_str());
  SetExitCode(ExitCodeFor(status));
}

bool StdoutFailed() { return std::ferror(stdout) != 0; }

int FinishStdout(int code) {
  // A sticky error from an earlier write leaves no errno behind; fflush/fclose may.
  errno = 0;
  const bool earlier = std::ferror(stdout) != 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int flush_errno = errno;
  const bool closed = std::fclose(stdout) == 0;
  const int close_errno = errno;
  if (!earlier && flushed && closed) return code;
  const int err = !flushed ? flush_errno : (!closed ? close_errno : 0);
  std::fprintf(stderr, "memprof-oracle: stdout: write error%s%s\n", err != 0 ? ": " : "",
               err != 0 ? std::strerror(err) : "");
  return kExitUsage;
}

}  // namespace mpo::tools
