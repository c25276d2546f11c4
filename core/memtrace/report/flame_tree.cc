#include "core/memtrace/report/flame_tree.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <queue>
#include <utility>

#include "core/base/splitmix64.h"

namespace mpo::memtrace::report {

FlameTreeBuilder::FlameTreeBuilder(std::size_t max_nodes)
    : max_nodes_(std::max<std::size_t>(max_nodes, 1)) {
  tree_.names.emplace_back("all");
  tree_.nodes.push_back(FlameNode{0, 0, {}});
  parents_.push_back(0);
}

void FlameTreeBuilder::Write(std::string_view text) {
  while (!text.empty() && status_.ok()) {
    const std::size_t nl = text.find('\n');
    if (nl == std::string_view::npos) {
      partial_.append(text);
      return;
    }
    if (partial_.empty()) {
      AddLine(text.substr(0, nl));
    } else {
      partial_.append(text.substr(0, nl));
      const std::string line = std::move(partial_);
      partial_.clear();
      AddLine(line);
    }
    text.remove_prefix(nl + 1);
  }
}

namespace {

std::size_t Slot(std::uint32_t parent, std::uint32_t name, std::size_t mask) {
  const std::uint64_t key = (std::uint64_t{parent} << 32) | name;
  return static_cast<std::size_t>((key * kGoldenGamma) >> 32) & mask;
}

}  // namespace

void FlameTreeBuilder::GrowIndex() {
  std::vector<std::uint32_t> grown(index_.empty() ? 1024 : index_.size() * 2, 0);
  const std::size_t mask = grown.size() - 1;
  for (std::uint32_t id = 1; id < tree_.nodes.size(); ++id) {
    std::size_t i = Slot(parents_[id], tree_.nodes[id].name, mask);
    while (grown[i] != 0) i = (i + 1) & mask;
    grown[i] = id;
  }
  index_.swap(grown);
}

std::uint32_t FlameTreeBuilder::Child(std::uint32_t parent, std::string_view name) {
  auto name_it = name_ids_.find(name);
  if (name_it == name_ids_.end()) {
    name_it =
        name_ids_.emplace(std::string(name), static_cast<std::uint32_t>(tree_.names.size())).first;
    tree_.names.emplace_back(name);
  }
  const std::uint32_t n = name_it->second;
  if (tree_.nodes.size() * 2 >= index_.size()) GrowIndex();
  const std::size_t mask = index_.size() - 1;
  std::size_t i = Slot(parent, n, mask);
  for (; index_[i] != 0; i = (i + 1) & mask)
    if (parents_[index_[i]] == parent && tree_.nodes[index_[i]].name == n) return index_[i];
  const auto id = static_cast<std::uint32_t>(tree_.nodes.size());
  index_[i] = id;
  tree_.nodes.push_back(FlameNode{n, 0, {}});
  parents_.push_back(parent);
  return id;
}

void FlameTreeBuilder::AddLine(std::string_view line) {
  const std::size_t space = line.rfind(' ');
  if (space == std::string_view::npos) return;  // folded writes none: nothing to count
  std::uint64_t count = 0;
  const std::string_view digits = line.substr(space + 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  if (ec != std::errc() || end != digits.data() + digits.size()) return;
  const std::string_view stack = line.substr(0, space);
  // Frames equal to the previous line's (whole frames: the shared text ends at a ';' or
  // the end of both) keep their nodes.
  const std::string_view prev = prev_stack_;
  const std::size_t n = std::min(stack.size(), prev.size());
  // memcmp in blocks, then bytes: lines share kilobytes of frames with their predecessor.
  constexpr std::size_t kBlock = 256;
  std::size_t common = 0;
  while (common + kBlock <= n &&
         std::memcmp(stack.data() + common, prev.data() + common, kBlock) == 0)
    common += kBlock;
  while (common < n && stack[common] == prev[common]) ++common;
  std::size_t frames = 0, pos = 0;
  for (std::size_t i = stack.find(';'); i < common; i = stack.find(';', i + 1)) {
    ++frames;
    pos = i + 1;
  }
  const bool ends_frame = (common == stack.size() || stack[common] == ';') &&
                          (common == prev.size() || prev[common] == ';');
  if (ends_frame && common > 0) {
    ++frames;
    pos = common + 1;
  }
  if (frames > prev_path_.size()) frames = pos = 0;  // cannot happen for folded's lines
  prev_path_.resize(frames);
  std::uint32_t node = frames == 0 ? 0 : prev_path_.back();
  while (pos < stack.size()) {
    const std::size_t semi = std::min(stack.find(';', pos), stack.size());
    if (tree_.nodes.size() >= max_nodes_) {
      status_ = Status(ErrorCode::kResourceExhausted, "flame graph nodes over the budget")
                    .WithField("max_held_frames");
      return;
    }
    node = Child(node, stack.substr(pos, semi - pos));
    prev_path_.push_back(node);
    pos = semi + 1;
  }
  tree_.nodes[node].value += count;  // the node's own count; Finish adds up subtrees
  prev_stack_.assign(stack);
}

Result<FlameTree> FlameTreeBuilder::Finish() {
  if (!status_.ok()) return status_;
  if (!partial_.empty()) {
    const std::string line = std::move(partial_);
    partial_.clear();
    AddLine(line);
    if (!status_.ok()) return status_;
  }
  index_ = {};
  name_ids_ = {};
  // Children come after their parents: one backward sweep adds each subtree up.
  for (std::size_t i = tree_.nodes.size(); i-- > 1;)
    tree_.nodes[parents_[i]].value += tree_.nodes[i].value;
  for (std::size_t i = 1; i < tree_.nodes.size(); ++i)
    tree_.nodes[parents_[i]].children.push_back(static_cast<std::uint32_t>(i));
  parents_ = {};
  return std::move(tree_);
}

FlameTree Bounded(const FlameTree& tree, std::size_t max_nodes) {
  FlameTree out;
  if (tree.nodes.empty()) return out;
  // Heaviest first among the children of kept nodes: a greedy cut that keeps every
  // node heavier than anything dropped below a kept parent.
  using Item = std::pair<std::uint64_t,
                         std::pair<std::uint32_t, std::uint32_t>>;  // value, (src, out parent)
  std::priority_queue<Item> frontier;
  out.names = tree.names;
  out.nodes.push_back(FlameNode{tree.nodes[0].name, tree.nodes[0].value, {}});
  std::vector<std::uint64_t> kept_sum(1, 0);
  std::vector<std::uint32_t> source(1, 0);  // out node -> tree node
  for (std::uint32_t c : tree.nodes[0].children) frontier.push({tree.nodes[c].value, {c, 0}});
  // The "other" boxes count against the bound: `open` kept nodes still have children not
  // kept, and each may need one. A node is kept only if the tree, with an "other" for
  // every open node, still fits.
  std::vector<std::size_t> not_kept(1, tree.nodes[0].children.size());
  std::size_t kept = 1, open = not_kept[0] > 0 ? 1 : 0;
  while (!frontier.empty()) {
    const auto [value, where] = frontier.top();
    const std::size_t grandchildren = tree.nodes[where.first].children.size();
    const std::size_t open_after =
        open - (not_kept[where.second] == 1 ? 1 : 0) + (grandchildren > 0 ? 1 : 0);
    if (kept + 1 + open_after > max_nodes) break;
    frontier.pop();
    open = open_after;
    --not_kept[where.second];
    const auto id = static_cast<std::uint32_t>(out.nodes.size());
    out.nodes.push_back(FlameNode{tree.nodes[where.first].name, value, {}});
    out.nodes[where.second].children.push_back(id);
    kept_sum.push_back(0);
    source.push_back(where.first);
    not_kept.push_back(grandchildren);
    kept_sum[where.second] += value;
    ++kept;
    for (std::uint32_t c : tree.nodes[where.first].children)
      frontier.push({tree.nodes[c].value, {c, id}});
  }
  // The dropped children's total becomes "other"; a node's own count (stacks ending at
  // it) stays its own.
  const std::size_t n = out.nodes.size();
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t children = 0;
    for (std::uint32_t c : tree.nodes[source[i]].children) children += tree.nodes[c].value;
    const std::uint64_t rest = children - std::min(children, kept_sum[i]);
    if (rest == 0) continue;
    const auto id = static_cast<std::uint32_t>(out.nodes.size());
    if (out.names.size() == tree.names.size()) out.names.emplace_back("other");
    out.nodes.push_back(FlameNode{static_cast<std::uint32_t>(tree.names.size()), rest, {}});
    out.nodes[i].children.push_back(id);
  }
  return out;
}

namespace {

void WriteNode(JsonWriter& w, const FlameTree& tree, std::uint32_t id) {
  // Iterative: a deep stack must not exhaust the C++ stack.
  struct Frame {
    std::uint32_t id;
    std::size_t next;
    std::vector<std::uint32_t> order;
  };
  std::vector<Frame> stack;
  auto open = [&](std::uint32_t n) {
    const FlameNode& node = tree.nodes[n];
    w.BeginObject();
    w.Key("n");
    w.String(tree.names[node.name]);
    w.Key("v");
    w.Uint(node.value);
    w.Key("c");
    w.BeginArray();
    std::vector<std::uint32_t> order = node.children;
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return tree.nodes[a].value > tree.nodes[b].value;
    });
    stack.push_back(Frame{n, 0, std::move(order)});
  };
  open(id);
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next == f.order.size()) {
      w.EndArray();
      w.EndObject();
      stack.pop_back();
      continue;
    }
    const std::uint32_t child = f.order[f.next++];
    open(child);
  }
}

}  // namespace

void WriteFlame(JsonWriter& w, const FlameTree& tree) {
  if (tree.nodes.empty()) {
    w.BeginObject();
    w.Key("n");
    w.Name("all");
    w.Key("v");
    w.Uint(0);
    w.Key("c");
    w.BeginArray();
    w.EndArray();
    w.EndObject();
    return;
  }
  WriteNode(w, tree, 0);
}

}  // namespace mpo::memtrace::report
