// Small valid traces that stand for a great deal of work ("bombs"), for the limit
// tests, the bomb benchmark and the fuzz seeds. Each is built from raw packets (the
// writer never produces such traces: it truncates backtraces at 4096 bytes and replaces
// large locations by the unknown one), and each decodes without error when the
// budgets are large enough.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mpo::memtrace::bombs {

// One backtrace of `depth` entries (self-predicting hitN codewords, 3 bytes per 256
// entries), then `repeats` short allocs that reuse all of it through common_prefix.
std::vector<std::uint8_t> DeepBacktrace(std::uint32_t depth, std::uint32_t repeats);
// v3: `domains` domains, each with one backtrace of `depth` entries.
std::vector<std::uint8_t> ManyDomains(std::uint32_t domains, std::uint32_t depth);
// `codes` location codes whose 255 frames all name one `filename_bytes`-long filename
// (stored once, then MTF hits), each used by one alloc.
std::vector<std::uint8_t> LongLocations(std::uint32_t codes, std::uint32_t filename_bytes);
// `steps` allocs, each backtrace one entry (a new code) longer than the previous one.
std::vector<std::uint8_t> Staircase(std::uint32_t steps);
// Allocs at extreme times: start at INT64_MIN + 1, then a gap of more than 2^63 us,
// then events up to INT64_MAX (written by the project's writer).
std::vector<std::uint8_t> ExtremeTimes();

struct Named {
  std::string name;
  std::vector<std::uint8_t> bytes;
};
// The hostile bombs at the sizes first reported (12 KB, 256 domains, 179 KB, 60 KB),
// plus the extreme-time trace.
std::vector<Named> IssueBombs();

}  // namespace mpo::memtrace::bombs
