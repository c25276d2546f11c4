#include "core/corpus/json_limits.h"

#include <new>
#include <string>

namespace mpo::corpus {

std::size_t NestingDepth(std::string_view text, std::size_t limit) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > limit) return deepest;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return deepest;
}

Result<nlohmann::json> ParseJsonBounded(std::string_view text, std::size_t max_depth) {
  if (NestingDepth(text, max_depth) > max_depth)
    return Status(ErrorCode::kCorrupt,
                  "nested deeper than " + std::to_string(max_depth) + " levels");
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based: the byte at which the parser gave up.
    return Status(ErrorCode::kCorrupt, "not one JSON document: " + std::string(e.what()))
        .AtOffset(e.byte > 0 ? e.byte - 1 : 0);
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kCorrupt, std::string("not one JSON document: ") + e.what());
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory parsing JSON");
  }
}

}  // namespace mpo::corpus
