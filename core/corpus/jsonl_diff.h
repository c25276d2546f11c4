// Comparing a decoder's JSON Lines stream with the expected one (schema 2, SCHEMA.md
// "corpus check"): line by line, each line semantically (json_diff.h); the last line
// must be the end line {"kind":"end_of_stream",...}; when the expected end line carries an error,
// only the header line and the end line's "error" member are compared, since streaming
// decoders may get further or less far before they stop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace mpo::corpus {

struct ExpectedStream {
  std::vector<nlohmann::json> lines;  // header, records, end line
  bool expects_error = false;         // the end line's "error" is not null
  std::size_t values = 0;             // JSON values in all lines (json_limits.h)
};

// An expected file: every line one JSON value, nested at most kMaxJsonDepth deep, the
// last one an end line. kCorrupt naming the line otherwise; never throws but on OOM.
Result<ExpectedStream> ParseExpectedStream(std::string_view text);

enum class CompareMode : std::uint8_t {
  // The oracle's own stream: as above.
  kExact,
  // A real implementation's verdict (`corpus check --as REFERENCE`, VERDICTS.md): the
  // header and every record must match, also before an error, and the end line's error
  // must be null exactly where the expected one is; the error object's contents and the
  // end line's count are not compared (each reference words its own errors), and
  // `skipped_packet` records are left out on both sides (the real readers skip silently).
  kVerdict,
};

// Why `got` (a decoder's whole stdout) does not match, or "" when it does. Lines are
// parsed one at a time, so memory stays near the longest line's; an output with more
// JSON values than 4 times the expected stream's (at least 2^20) cannot match and is
// refused once it passes that count, before it is built.
std::string CompareStream(const ExpectedStream& expected, std::string_view got,
                          CompareMode mode = CompareMode::kExact);

}  // namespace mpo::corpus
