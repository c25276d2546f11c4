// The order of folded stacks' lines, shared by folded's writer (core/export/folded.h) and
// the report's collapsed flame tree (core/memtrace/report/collapsed_flame.h), which
// numbers its nodes as a reader of folded's text would.
//
// Within one node each child gives two sort keys: its own line (its name) and its
// descendants' lines (its name followed by ';'). Names hold no ';', so comparing these
// keys orders whole lines as comparing the lines' bytes would.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace mpo::memtrace::analysis {

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

// Visits the lines of a tree of stacks in folded's order: depth first, each node's
// children ordered by FoldedKeyLess. `visit(path)` is called for every node with a line
// (`has_line`), `path` running from a child of `root` to that node; the walk stops at the
// first error `visit` returns. `for_each_child(node, f)` calls f(child) for each child.
template <typename ForEachChild, typename HasChildren, typename HasLine, typename NameOf,
          typename Visit>
Status WalkFoldedLines(std::uint32_t root, ForEachChild for_each_child, HasChildren has_children,
                       HasLine has_line, NameOf name_of, Visit visit) {
  struct Item {
    std::uint32_t node;
    bool descendants;  // the key of the node's descendants' lines, not its own line
  };
  struct Level {
    std::vector<Item> items;
    std::size_t next = 0;
  };
  auto level_of = [&](std::uint32_t node) {
    Level l;
    for_each_child(node, [&](std::uint32_t c) {
      if (has_line(c)) l.items.push_back({c, false});
      if (has_children(c)) l.items.push_back({c, true});
    });
    std::sort(l.items.begin(), l.items.end(), [&](const Item& a, const Item& b) {
      return FoldedKeyLess(name_of(a.node), a.descendants, name_of(b.node), b.descendants);
    });
    return l;
  };
  std::vector<Level> stack;
  std::vector<std::uint32_t> path;
  stack.push_back(level_of(root));
  while (!stack.empty()) {
    Level& top = stack.back();
    if (top.next == top.items.size()) {
      stack.pop_back();
      if (!path.empty()) path.pop_back();
      continue;
    }
    const Item it = top.items[top.next++];
    path.push_back(it.node);
    if (it.descendants) {
      stack.push_back(level_of(it.node));  // `top` is not used past this point
      continue;
    }
    Status s = visit(std::span<const std::uint32_t>(path));
    path.pop_back();
    MPO_RETURN_IF_ERROR(s);
  }
  return Status::Ok();
}

}  // namespace mpo::memtrace::analysis
