#include "core/corpus/fuzz/declared.h"

#include <fnmatch.h>

#include <algorithm>

namespace mpo::corpus::fuzz {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Where the comment of a rule line starts: a '#' after a space or tab. A '#' inside the
// pattern is the signature's own (the "#" of an array index, "differs=/buckets/#").
std::size_t CommentStart(std::string_view line) {
  for (std::size_t i = 1; i < line.size(); ++i)
    if (line[i] == '#' && (line[i - 1] == ' ' || line[i - 1] == '\t')) return i;
  return std::string_view::npos;
}

// Splits a leading `as=A,B` off `line` into `modes`.
std::string_view TakeModes(std::string_view line, std::vector<std::string>& modes) {
  constexpr std::string_view kAs = "as=";
  if (line.substr(0, kAs.size()) != kAs) return line;
  const std::size_t end = line.find_first_of(" \t");
  std::string_view list =
      line.substr(kAs.size(), end == std::string_view::npos ? end : end - kAs.size());
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    if (const std::string_view m = Trim(list.substr(0, comma)); !m.empty()) modes.emplace_back(m);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return end == std::string_view::npos ? std::string_view() : Trim(line.substr(end));
}

}  // namespace

std::vector<DeclaredRule> ParseDeclared(std::string_view text) {
  std::vector<DeclaredRule> rules;
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++number;
    line = Trim(line);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t hash = CommentStart(line);
    DeclaredRule rule;
    rule.pattern = std::string(TakeModes(Trim(line.substr(0, hash)), rule.modes));
    if (hash != std::string_view::npos) rule.why = std::string(Trim(line.substr(hash + 1)));
    rule.line = number;
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::vector<DeclaredRule> RulesFor(const std::vector<DeclaredRule>& rules, std::string_view mode) {
  std::vector<DeclaredRule> out;
  for (const DeclaredRule& r : rules)
    if (r.modes.empty() || std::find(r.modes.begin(), r.modes.end(), mode) != r.modes.end())
      out.push_back(r);
  return out;
}

const DeclaredRule* MatchDeclared(const std::vector<DeclaredRule>& rules,
                                  const std::string& signature) {
  for (const DeclaredRule& r : rules)
    if (::fnmatch(r.pattern.c_str(), signature.c_str(), 0) == 0) return &r;
  return nullptr;
}

}  // namespace mpo::corpus::fuzz
