// Comparing a decoder's JSON Lines stream with the expected one (schema 2, SCHEMA.md
// "corpus check"): line by line, each line semantically (json_diff.h); the last line
// must be the end line {"kind":"end_of_stream",...}; when the expected end line carries an error,
// only the header line and the end line's "error" member are compared, since streaming
// decoders may get further or less far before they stop. A failure names the first
// differing member by its JSON Pointer, and what the decoder printed where a line is
// missing or extra.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace mpo::corpus {

// An expected stream: each line as written, parsed the first time it is needed (an output
// line with the same bytes needs no parsing, so a decoder printing the canonical form,
// the common case, is compared at the speed of memcmp). The parse cache makes a const
// stream unsafe to share between threads.
class ExpectedStream {
 public:
  std::size_t size() const { return texts_.size(); }
  std::string_view text(std::size_t k) const { return texts_[k]; }
  // Line k (header, records, end line), as a value.
  const nlohmann::json& line(std::size_t k) const;
  const nlohmann::json& front() const { return line(0); }
  const nlohmann::json& back() const { return line(size() - 1); }

  bool expects_error = false;  // the end line's "error" is not null
  std::size_t values = 0;      // JSON values in all lines (json_limits.h)

 private:
  friend Result<ExpectedStream> ParseExpectedStream(std::string_view text);
  std::vector<std::string> texts_;
  mutable std::vector<std::optional<nlohmann::json>> parsed_;
};

// An expected file: every line one JSON value, nested at most kMaxJsonDepth deep, the
// last one an end line. kCorrupt naming the line otherwise; never throws but on OOM.
Result<ExpectedStream> ParseExpectedStream(std::string_view text);

enum class CompareMode : std::uint8_t {
  // The oracle's own stream, its error object included (`corpus check --exact-errors`).
  kExact,
  // As kExact, but of a rejection only the error's class, its "code", is compared: the
  // `check` wording and the offsets are the oracle's own (`corpus check`'s default).
  kStrict,
  // A real implementation's verdict (`corpus check --as REFERENCE`, VERDICTS.md): the
  // header and every record must match, also before an error, and the end line's error
  // must be null exactly where the expected one is; the error object's contents and the
  // end line's count are not compared (each reference words its own errors), and
  // `skipped_packet` records are left out on both sides (the real readers skip silently).
  kVerdict,
};

// A member left out of the comparison on both sides, in every line: a JSON Pointer
// (RFC 6901) such as "/info/pid" or "/error/offset", where a token "#" also stands for
// every index of an array ("/backtrace/#").
struct IgnoredField {
  std::string pointer;              // as given
  std::vector<std::string> tokens;  // unescaped
};

// kInvalidArgument naming the pointer when it is not one (empty, no leading '/', a '~'
// not followed by 0 or 1).
Result<IgnoredField> ParseIgnoredField(std::string_view pointer);

// Why `got` (a decoder's whole stdout) does not match, or "" when it does. Lines are
// parsed one at a time, so memory stays near the longest line's; an output with more
// JSON values than 4 times the expected stream's (at least 2^20) cannot match and is
// refused once it passes that count, before it is built. A stream without its end line
// is incomplete; its lines are still compared up to there, and the first difference
// among them is reported before the missing end line.
std::string CompareStream(const ExpectedStream& expected, std::string_view got,
                          CompareMode mode = CompareMode::kExact,
                          std::span<const IgnoredField> ignored = {});

}  // namespace mpo::corpus
