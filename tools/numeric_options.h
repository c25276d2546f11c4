// Strict validators for numeric command-line options. CLI11 alone converts "-1" for an
// unsigned option by wrapping it to 2^64 - 1, treats "" as 0 and accepts "nan" for a
// double; with these checks each of those is a usage error (exit 2) that names the
// option and its accepted range.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>

namespace mpo::tools {

// A decimal integer (digits only, no sign or spaces) in [lo, hi].
CLI::Validator UnsignedIn(std::uint64_t lo = 0,
                          std::uint64_t hi = std::numeric_limits<std::uint64_t>::max());

// A finite number in [lo, hi] (no "nan", "inf", empty or trailing text). A nonzero
// number too small for a double ("1e-400") is refused rather than read as 0, which many
// options take to mean "no limit"; so is a nonzero value below `tick` in magnitude.
CLI::Validator FiniteIn(double lo, double hi, double tick = 0);

// A duration in seconds, or in milliseconds, in [lo, hi]: FiniteIn with a tick of one
// microsecond, the finest step any timer of the program honours, so that a duration
// option's value is 0 (where 0 has a meaning) or a real, measurable time.
CLI::Validator SecondsIn(double lo, double hi);
CLI::Validator MillisecondsIn(double lo, double hi);

}  // namespace mpo::tools
