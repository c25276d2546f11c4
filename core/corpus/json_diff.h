// Semantic comparison of two JSON documents: object member order does not matter, array
// order does, numbers compare by value (1 == 1.0; integers exactly, beyond 2^53 too).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mpo::corpus {

struct JsonDifference {
  std::string path;      // JSON Pointer (RFC 6901) of the first differing value, "" = root
  std::string expected;  // the values at `path`, serialised ("(absent)" when missing)
  std::string got;
};

// The first difference in document order (expected's member order is sorted), or
// nullopt when the documents are equal. Uses stack proportional to the nesting depth,
// which it bounds: values nested deeper than kMaxJsonDepth (json_limits.h) are reported
// as a difference, "(nested too deeply to print)", instead of being walked.
std::optional<JsonDifference> FirstDifference(const nlohmann::json& expected,
                                              const nlohmann::json& got);

}  // namespace mpo::corpus
