#include "tools/exit_code.h"

#include <cstdio>

namespace mpo::tools {
namespace {
int g_exit_code = kExitOk;
}  // namespace

void SetExitCode(int code) { g_exit_code = code; }
int ExitCode() { return g_exit_code; }

void ReportError(const std::string& context, const Status& status) {
  std::fprintf(stderr, "memprof-oracle: %s: %s\n", context.c_str(), status.ToString().c_str());
  const bool usage =
      status.code() == ErrorCode::kInvalidArgument || status.code() == ErrorCode::kIo;
  SetExitCode(usage ? kExitUsage : kExitBadInput);
}

}  // namespace mpo::tools
