// The order of folded stacks' lines, shared by folded's writer (folded.h) and the report's
// collapsed flame tree (core/memtrace/report/collapsed_flame.h), which numbers its nodes
// as a reader of folded's text would.
//
// Within one node each child gives two sort keys: its own line (its name) and its
// descendants' lines (its name followed by ';'). Names hold no ';', so comparing these
// keys orders whole lines as comparing the lines' bytes would.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace mpo::exporter {

// Whether key (x, x_descendants) sorts before key (y, y_descendants).
inline bool FoldedKeyLess(std::string_view x, bool x_descendants, std::string_view y,
                          bool y_descendants) {
  const std::size_t n = std::min(x.size(), y.size());
  if (const int c = x.substr(0, n).compare(y.substr(0, n)); c != 0) return c < 0;
  // One is a prefix of the other (or equal): continue with ';' or the end.
  auto at = [](std::string_view s, bool descendants, std::size_t i) -> int {
    if (i < s.size()) return static_cast<unsigned char>(s[i]);
    return i == s.size() && descendants ? ';' : -1;
  };
  for (std::size_t i = n;; ++i) {
    const int u = at(x, x_descendants, i);
    const int v = at(y, y_descendants, i);
    if (u != v || u < 0) return u < v;
  }
}

}  // namespace mpo::exporter
