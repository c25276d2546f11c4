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

// The pid in a ring file's name, `[DIR/]<pid>.events` as OCaml names it, when that part
// is a valid PID; `fallback` for any other name (`x.events`, `named.ocaml-5.3.events`).
// For a ring that lost its ring_start (it wrapped), the name is where its pid remains.
std::int64_t PidOfRingFileName(const std::string& path, std::int64_t fallback);

}  // namespace mpo::tools
