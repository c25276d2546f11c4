// Compact JSON text, appended to a std::string: the one way the decoded views (schema 2,
// core/corpus/SCHEMA.md) write strings and numbers, so every command prints them alike.
//
// Strings: valid UTF-8 in, valid UTF-8 out. A string that is valid UTF-8 is written as a
// JSON string (", \ and control characters escaped, everything else as is); one that is
// not is written as the object {"hex":"<lower-case hex of its bytes>"}, byte-exact and
// marked, never re-encoded. Integers are written in full (also beyond 2^53); doubles as
// the shortest text that reads back to the same value (non-finite values as null).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mpo::json_text {

// Whether `bytes` is well-formed UTF-8 (no overlong forms, surrogates or code points
// above U+10FFFF).
bool IsValidUtf8(std::string_view bytes);

void AppendString(std::string& out, std::string_view bytes);
void AppendUint(std::string& out, std::uint64_t v);
void AppendInt(std::string& out, std::int64_t v);
void AppendDouble(std::string& out, double v);
// Lower-case hex of every byte, no quotes.
void AppendHexBytes(std::string& out, std::string_view bytes);
// `v` as a quoted lower-case hex string without 0x ("1f"): how location codes are named.
void AppendHexCode(std::string& out, std::uint64_t v);

}  // namespace mpo::json_text
