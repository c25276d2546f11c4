// Declared differences for `corpus fuzz --declared FILE`: divergence classes that are
// known and accepted (a reference's documented bug, e.g. memtrace 0.2.3 looping on a
// packet_size below the header), reported as declared instead of failing the run.
//
// The file is text, one rule per line: a shell glob (fnmatch, no flags) over the
// signature (judge.h), then optionally whitespace, `#` and why. A `#` with no whitespace
// before it belongs to the pattern (a signature's array index: `differs=/buckets/#`).
// Blank lines and lines starting with `#` are ignored. A rule may start with
// `as=MODE[,MODE...]` and whitespace: it then applies only under those verdict modes
// (`--as`), since one signature can be one reference's bug and another's plain failure;
// a rule without it applies in every mode. For example:
//   as=memtrace-0.2.3 oracle=reject(packet header: packet_size*) impl=timeout   # loops
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
  std::vector<std::string> modes;  // from `as=`; empty: every mode
};

// Every rule of the file; a line is a comment or a rule, so no text is malformed.
std::vector<DeclaredRule> ParseDeclared(std::string_view text);

// The rules that apply under verdict mode `mode` (VerdictsName, e.g. "memtrace-0.2.3").
std::vector<DeclaredRule> RulesFor(const std::vector<DeclaredRule>& rules, std::string_view mode);

// The first rule matching `signature`, or nullptr.
const DeclaredRule* MatchDeclared(const std::vector<DeclaredRule>& rules,
                                  const std::string& signature);

}  // namespace mpo::corpus::fuzz
