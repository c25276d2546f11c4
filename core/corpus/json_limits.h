// Parsing JSON that anyone may have written (an implementation's output, a corpus file):
// the nesting depth is checked before the parse, so no recursive walk of the document
// (comparison, printing, nlohmann's own dump) can overflow the stack, and no exception
// leaves the parse.
#pragma once

#include <cstddef>
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
// reason and byte offset; kResourceExhausted if memory runs out. Never throws.
Result<nlohmann::json> ParseJsonBounded(std::string_view text,
                                        std::size_t max_depth = kMaxJsonDepth);

}  // namespace mpo::corpus
