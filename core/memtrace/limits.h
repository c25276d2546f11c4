// Resource budgets for decoding one memtrace trace.
//
// A few bytes of a valid trace can stand for a great deal of work: a common prefix lets
// every event repeat a backtrace of a million entries, every domain keeps its own
// backtrace, and a location event may name a 60 KB filename 255 times. Each budget below
// bounds one such expansion; passing it is a typed kResourceExhausted error that names
// the budget and the command-line option raising it, never unbounded memory or time.
// The defaults admit every real trace we know by a wide margin (the deepest: 10 k
// entries per backtrace, 10 M entries over a 2 MB trace).
#pragma once

#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace mpo::memtrace {

struct Limits {
  // Backtrace entries delivered over the whole trace (the sum of every event's
  // backtrace length): bounds the work and output of whoever walks the backtraces.
  std::uint64_t max_frames = std::uint64_t{1} << 25;
  // Backtrace entries held at once: every domain's current backtrace together, the
  // stack tree `folded` builds, and the frames of the analyses' site keys together.
  std::uint64_t max_held_frames = std::uint64_t{1} << 22;
  // Bytes of location strings materialised (each location code once; in the analyses,
  // every site's own copy of its names, however often one name repeats).
  std::uint64_t max_location_bytes = std::uint64_t{1} << 26;
  // Bytes of location text written out (dump_trace lines, folded stacks), where each
  // backtrace entry repeats its location's text.
  std::uint64_t max_output_bytes = std::uint64_t{1} << 31;
};

// The kResourceExhausted error for a passed budget: "<what> exceeds the limit of
// <limit> (raise it with <option>)".
inline Status LimitExceeded(const std::string& what, std::uint64_t limit,
                            const std::string& option) {
  return Status(ErrorCode::kResourceExhausted, what + " exceeds the limit of " +
                                                   std::to_string(limit) + " (raise it with " +
                                                   option + ")")
      .WithField("limit: " + option);
}

}  // namespace mpo::memtrace
