// Parsing JSON that anyone may have written (an implementation's output, a corpus file):
// the nesting depth is checked before the parse, so no recursive walk of the document
// (comparison, printing, nlohmann's own dump) can overflow the stack, and no exception
// leaves the parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/base/status.h"

namespace mpo::corpus {

// Deeper documents are refused. Every document the reference decoder prints is at most
// 5 levels deep; 512 leaves any sane implementation's formatting choices room.
inline constexpr std::size_t kMaxJsonDepth = 512;

// The deepest nesting of arrays and objects in `text` (brackets inside strings do not
// count), scanning no further once it exceeds `limit`. Linear, no allocation.
std::size_t NestingDepth(std::string_view text, std::size_t limit);

// One JSON document. kCorrupt with "nested deeper than N levels" or the parser's
// reason and byte offset; kResourceExhausted with "holds more than N values" when the
// document has more than `max_values` values (counted without building it, so a huge
// document costs no memory), or if memory runs out. Never throws.
Result<nlohmann::json> ParseJsonBounded(std::string_view text,
                                        std::size_t max_depth = kMaxJsonDepth,
                                        std::size_t max_values = SIZE_MAX);

// The number of values in one JSON document, which is checked as ParseJsonBounded
// checks it (the same errors) but never built: validating costs no allocation per value.
Result<std::size_t> CountJsonValues(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

// The number of values (scalars, arrays and objects, at every level) in `j`; no
// recursion.
std::size_t CountValues(const nlohmann::json& j);

}  // namespace mpo::corpus
