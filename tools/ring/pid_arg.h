// The PID argument of `events dump/tail/stats DIR PID`.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace mpo::tools {

// Decimal digits only, in [1, the largest pid_t]. 0 and negative values name process
// groups for kill() (`kill(0, 0)` always succeeds, so `tail DIR 0` never ended), and
// larger values were truncated by the cast to pid_t. kInvalidArgument (field "PID")
// otherwise.
Result<std::int64_t> ParsePid(const std::string& text);

}  // namespace mpo::tools
