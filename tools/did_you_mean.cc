#include "tools/did_you_mean.h"

#include <algorithm>

namespace mpo::tools {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  // Optimal string alignment: three rows of the Levenshtein table, plus transpositions.
  const std::size_t n = b.size();
  std::vector<std::size_t> before(n + 1), prev(n + 1), cur(n + 1);
  for (std::size_t j = 0; j <= n; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= n; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], before[j - 2] + 1);
      }
    }
    before.swap(prev);
    prev.swap(cur);
  }
  return prev[n];
}

std::optional<std::string> NearestName(std::string_view word,
                                       std::span<const std::string> candidates) {
  const std::size_t allowed = word.size() <= 4 ? 1 : 2;
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  for (const auto& c : candidates) {
    const std::size_t d = EditDistance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  if (best) return best;
  if (word.size() < 3) return std::nullopt;
  std::optional<std::string> only;
  for (const auto& c : candidates) {
    if (!c.starts_with(word)) continue;
    if (only) return std::nullopt;  // a prefix of two: either could be meant
    only = c;
  }
  return only;
}

std::optional<std::string> UnknownSubcommandMessage(const CLI::App& app, std::string_view program,
                                                    std::span<char* const> args) {
  const CLI::App* group = &app;
  std::string path(program);
  for (const char* arg : args) {
    const std::string_view word(arg);
    if (word.empty() || word.front() == '-') return std::nullopt;
    const auto subs = group->get_subcommands(std::function<bool(const CLI::App*)>());
    if (subs.empty()) return std::nullopt;
    const CLI::App* next = nullptr;
    std::vector<std::string> names;
    for (const CLI::App* sub : subs) {
      if (sub->check_name(std::string(word))) next = sub;
      names.push_back(sub->get_name());
    }
    if (next != nullptr) {
      group = next;
      path += " " + next->get_name();
      continue;
    }
    const auto positionals =
        group->get_options([](const CLI::Option* o) { return o->get_positional(); });
    if (!positionals.empty()) return std::nullopt;
    std::string message = path + ": unknown subcommand '" + std::string(word) + "'";
    if (auto near = NearestName(word, names)) return message + "; did you mean '" + *near + "'?";
    message += " (one of:";
    for (const auto& n : names) message += " " + n;
    return message + ")";
  }
  return std::nullopt;
}

}  // namespace mpo::tools
