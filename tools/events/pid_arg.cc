#include "tools/events/pid_arg.h"

#include <sys/types.h>

#include <limits>
#include <string_view>

namespace mpo::tools {

Result<std::int64_t> ParsePid(const std::string& text) {
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<pid_t>::max());
  std::uint64_t v = 0;
  bool ok = !text.empty() && text.size() <= 19;  // 19 digits cannot overflow
  for (const char c : text) {
    if (c < '0' || c > '9') ok = false;
    if (ok) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (!ok || v == 0 || v > kMax) {
    return Status(
               ErrorCode::kInvalidArgument,
               "not a process id: '" + text + "' (an integer in [1, " + std::to_string(kMax) + "])")
        .WithField("PID");
  }
  return static_cast<std::int64_t>(v);
}

std::int64_t PidOfRingFileName(const std::string& path, std::int64_t fallback) {
  constexpr std::string_view kSuffix = ".events";
  const std::size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.size() <= kSuffix.size() ||
      std::string_view(name).substr(name.size() - kSuffix.size()) != kSuffix) {
    return fallback;
  }
  auto pid = ParsePid(name.substr(0, name.size() - kSuffix.size()));
  return pid.ok() ? *pid : fallback;
}

}  // namespace mpo::tools
