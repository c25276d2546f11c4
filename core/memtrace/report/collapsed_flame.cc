#include "core/memtrace/report/collapsed_flame.h"

#include <algorithm>
#include <span>
#include <string_view>
#include <vector>

#include "core/base/splitmix64.h"
#include "core/memtrace/analysis/collapse_recursion.h"
#include "core/memtrace/analysis/folded_order.h"

namespace mpo::memtrace::report {
namespace {

// A tree of stacks: node 0 is the empty stack; `own` is the count of the stack ending at
// a node, not its subtree's. Children are linked lists (their order is sorted later) and
// (parent, name) is found in an open-addressing table sized once: the collapsed tree has
// at most the recorded tree's nodes, often a million, and per-node allocations or
// rehashing would cost more than the collapse itself.
class StackTrie {
 public:
  static constexpr std::uint32_t kNone = 0xffffffff;
  explicit StackTrie(std::size_t max_nodes) {
    std::size_t slots = 1024;
    while (slots < 2 * max_nodes) slots *= 2;
    slots_.assign(slots, kNone);
    Add(kNone, 0);
  }
  // The child of `p` named `n`, created if new.
  std::uint32_t Child(std::uint32_t p, std::uint32_t n) {
    const std::size_t mask = slots_.size() - 1;
    const std::uint64_t key = (std::uint64_t{p} << 32) | n;
    std::size_t i = static_cast<std::size_t>((key * kGoldenGamma) >> 32) & mask;
    for (; slots_[i] != kNone; i = (i + 1) & mask)
      if (parent[slots_[i]] == p && name[slots_[i]] == n) return slots_[i];
    slots_[i] = Add(p, n);
    return slots_[i];
  }
  std::vector<std::uint32_t> name, parent, first_child, next_sibling;
  std::vector<std::uint64_t> own;

 private:
  std::uint32_t Add(std::uint32_t p, std::uint32_t n) {
    const auto id = static_cast<std::uint32_t>(name.size());
    name.push_back(n);
    parent.push_back(p);
    own.push_back(0);
    first_child.push_back(kNone);
    next_sibling.push_back(p == kNone ? kNone : first_child[p]);
    if (p != kNone) first_child[p] = id;
    return id;
  }
  std::vector<std::uint32_t> slots_;  // node ids; load factor <= 1/2
};

// Inserts every stack of `tree` with recursion collapsed.
StackTrie Collapsed(const FlameTree& tree) {
  StackTrie trie(tree.nodes.size());
  std::vector<std::uint32_t> at(tree.nodes.size(), 0);  // tree node -> trie node
  // A child's index is larger than its parent's: one forward sweep sees parents first.
  for (std::uint32_t i = 0; i < tree.nodes.size(); ++i) {
    const FlameNode& node = tree.nodes[i];
    // The node's own count: its value less its children's (modulo 2^64, as summed).
    std::uint64_t own = node.value;
    for (std::uint32_t c : node.children) {
      own -= tree.nodes[c].value;
      const std::uint32_t p = at[i];
      const std::uint32_t* caller = p == 0 ? nullptr : &trie.name[p];
      at[c] = analysis::DroppedAsRecursion(caller, tree.nodes[c].name)
                  ? p
                  : trie.Child(p, tree.nodes[c].name);
    }
    trie.own[at[i]] += own;
  }
  return trie;
}

// The trie's nodes numbered as FlameTreeBuilder numbers them when it reads folded's text
// of the trie: lines sorted by stack text, a node numbered at the first line through it.
// As folded's writer does, children are ordered by core/memtrace/analysis/folded_order.h.
std::vector<std::uint32_t> BuilderOrder(const StackTrie& trie, const FlameTree& tree) {
  constexpr std::uint32_t kUnnumbered = 0xffffffff;
  std::vector<std::uint32_t> number(trie.name.size(), kUnnumbered);
  std::vector<std::uint32_t> order{0};  // builder index -> trie node
  number[0] = 0;
  // A line numbers the unnumbered end of its path (a numbered node's ancestors are).
  auto line = [&](std::span<const std::uint32_t> path) -> Status {
    std::size_t k = path.size();
    while (k > 0 && number[path[k - 1]] == kUnnumbered) --k;
    for (; k < path.size(); ++k) {
      number[path[k]] = static_cast<std::uint32_t>(order.size());
      order.push_back(path[k]);
    }
    return Status::Ok();
  };
  // Numbering has no error to report: the walk's status is always OK.
  static_cast<void>(analysis::WalkFoldedLines(
      0,
      [&](std::uint32_t node, auto f) {
        for (std::uint32_t c = trie.first_child[node]; c != StackTrie::kNone;
             c = trie.next_sibling[c])
          f(c);
      },
      [&](std::uint32_t c) { return trie.first_child[c] != StackTrie::kNone; },
      [&](std::uint32_t c) { return trie.own[c] > 0; },
      [&](std::uint32_t c) { return std::string_view(tree.names[trie.name[c]]); }, line));
  return order;
}

}  // namespace

FlameTree CollapseRecursion(const FlameTree& tree) {
  FlameTree out;
  out.names = tree.names;
  if (tree.nodes.empty()) return out;
  const StackTrie trie = Collapsed(tree);
  const std::vector<std::uint32_t> order = BuilderOrder(trie, tree);
  std::vector<std::uint32_t> index(trie.name.size(), 0);  // trie node -> out node
  for (std::uint32_t i = 0; i < order.size(); ++i) index[order[i]] = i;
  out.nodes.reserve(order.size());
  for (std::uint32_t t : order)
    out.nodes.push_back(FlameNode{t == 0 ? tree.nodes[0].name : trie.name[t], trie.own[t], {}});
  // As the builder does: children listed by index, values summed from the leaves up.
  std::vector<std::uint32_t> degree(order.size(), 0);
  for (std::uint32_t i = 1; i < order.size(); ++i) ++degree[index[trie.parent[order[i]]]];
  for (std::uint32_t i = 0; i < order.size(); ++i) out.nodes[i].children.reserve(degree[i]);
  for (std::uint32_t i = 1; i < order.size(); ++i)
    out.nodes[index[trie.parent[order[i]]]].children.push_back(i);
  for (std::size_t i = order.size(); i-- > 1;)
    out.nodes[index[trie.parent[order[i]]]].value += out.nodes[i].value;
  return out;
}

}  // namespace mpo::memtrace::report
