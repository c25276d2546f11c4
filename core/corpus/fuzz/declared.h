// Declared differences for `corpus fuzz --declared FILE`: divergence classes that are
// known and accepted (a reference's documented bug, e.g. memtrace 0.2.3 looping on a
// packet_size below the header), reported as declared instead of failing the run.
//
// The file is text, one rule per line: a shell glob (fnmatch, no flags) over the
// signature (judge.h), then optionally whitespace, `#` and why. A `#` with no whitespace
// before it belongs to the pattern (a signature's array index: `differs=/buckets/#`).
// Blank lines and lines starting with `#` are ignored. For example:
//   oracle=reject(packet header: packet_size*) impl=timeout   # 0.2.3 loops (peers/README.md)
//   oracle=* impl=signal-11 # OCaml 5.3 segfaults on a user event whose type changed
// A signature matching any rule is declared.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mpo::corpus::fuzz {

struct DeclaredRule {
  std::string pattern;
  std::string why;
  std::size_t line = 0;
};

// Every rule of the file; a line is a comment or a rule, so no text is malformed.
std::vector<DeclaredRule> ParseDeclared(std::string_view text);

// The first rule matching `signature`, or nullptr.
const DeclaredRule* MatchDeclared(const std::vector<DeclaredRule>& rules,
                                  const std::string& signature);

}  // namespace mpo::corpus::fuzz
