#include "core/memtrace/report/inverted_flame.h"

#include <cstdint>
#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mpo::memtrace::report {

FlameTree InvertedTree(const FlameTree& tree, std::size_t max_nodes) {
  FlameTree out;
  out.names = tree.names;
  if (tree.nodes.empty()) return out;
  std::vector<std::uint32_t> up(tree.nodes.size(), 0);  // the tree's parents
  for (std::uint32_t i = 0; i < tree.nodes.size(); ++i)
    for (std::uint32_t c : tree.nodes[i].children) up[c] = i;
  // A stack read backwards: `next` is the tree node whose frame is its next level, `own`
  // the stack's count. An out node holds the stacks passing through it, until expanded.
  struct Entry {
    std::uint32_t next;
    std::uint64_t own;
  };
  std::vector<std::vector<Entry>> held(1);
  out.nodes.push_back(FlameNode{tree.nodes[0].name, 0, {}});
  for (std::uint32_t i = 1; i < tree.nodes.size(); ++i) {
    // The stack ending at i counts what its node holds beyond its children (modulo 2^64,
    // as the builder summed it).
    std::uint64_t own = tree.nodes[i].value;
    for (std::uint32_t c : tree.nodes[i].children) own -= tree.nodes[c].value;
    if (own == 0) continue;
    held[0].push_back(Entry{i, own});
    out.nodes[0].value += own;
  }
  // Heaviest first, as Bounded keeps them: every node it keeps is among the first
  // max_nodes expanded, so its children are all here.
  std::priority_queue<std::pair<std::uint64_t, std::uint32_t>> frontier;
  frontier.push({out.nodes[0].value, 0});
  std::unordered_map<std::uint32_t, std::uint32_t> child_of;  // name -> out node
  for (std::size_t expanded = 0; !frontier.empty() && expanded < max_nodes; ++expanded) {
    const std::uint32_t id = frontier.top().second;
    frontier.pop();
    std::vector<Entry> entries = std::move(held[id]);
    held[id] = {};
    child_of.clear();
    for (const Entry& e : entries) {
      const std::uint32_t name = tree.nodes[e.next].name;
      auto [it, fresh] = child_of.try_emplace(name, static_cast<std::uint32_t>(out.nodes.size()));
      if (fresh) {
        out.nodes.push_back(FlameNode{name, 0, {}});
        out.nodes[id].children.push_back(it->second);
        held.emplace_back();
      }
      out.nodes[it->second].value += e.own;
      if (up[e.next] != 0) held[it->second].push_back(Entry{up[e.next], e.own});
    }
    for (std::uint32_t c : out.nodes[id].children) frontier.push({out.nodes[c].value, c});
  }
  // Below a node not expanded: one child standing for all its callers (Bounded merges it
  // into "other", or keeps it, and it is named so).
  const auto other = static_cast<std::uint32_t>(out.names.size());
  out.names.emplace_back("other");
  const std::size_t made = out.nodes.size();
  for (std::uint32_t i = 0; i < made; ++i) {
    std::uint64_t below = 0;
    for (const Entry& e : held[i]) below += e.own;
    if (below == 0) continue;
    out.nodes[i].children.push_back(static_cast<std::uint32_t>(out.nodes.size()));
    out.nodes.push_back(FlameNode{other, below, {}});
  }
  return Bounded(out, max_nodes);
}

}  // namespace mpo::memtrace::report
