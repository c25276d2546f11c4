#include "tools/numeric_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace mpo::tools {

CLI::Validator UnsignedIn(std::uint64_t lo, std::uint64_t hi) {
  const std::string range =
      "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
          return "'" + text + "' is not " + range;
        }
        errno = 0;
        const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
        if (errno == ERANGE || v < lo || v > hi) return "'" + text + "' is not " + range;
        return std::string();
      },
      range);
}

CLI::Validator FiniteIn(double lo, double hi, double tick) {
  const std::string range =
      "a finite number in [" + CLI::detail::to_string(lo) + ", " + CLI::detail::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, tick, range](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
        const bool underflow = errno == ERANGE && v == 0;
        const bool whole = end != nullptr && *end == '\0';
        // Overflow gives ±HUGE_VAL (not finite); underflow to zero would turn a tiny
        // duration into "no limit".
        if (!whole || !std::isfinite(v) || v < lo || v > hi) {
          return "'" + text + "' is not " + range;
        }
        if (underflow) return "'" + text + "' rounds to zero; it is not " + range;
        if (v != 0 && std::fabs(v) < tick) {
          return "'" + text + "' is below the smallest step of " + CLI::detail::to_string(tick) +
                 "; it is not " + range;
        }
        return std::string();
      },
      range);
}

CLI::Validator SecondsIn(double lo, double hi) { return FiniteIn(lo, hi, 1e-6); }

CLI::Validator MillisecondsIn(double lo, double hi) { return FiniteIn(lo, hi, 1e-3); }

}  // namespace mpo::tools
