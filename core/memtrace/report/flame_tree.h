// A flame graph's tree, built from folded stacks (core/export/folded.h) as they are
// written, and cut to a bounded size so a huge trace gives a bounded page.
//
// FlameTreeBuilder is a TextSink: each folded line "f1;f2;...;fn COUNT" adds COUNT to the
// path root/f1/.../fn (every node's value is its subtree's total). Building costs one node
// per distinct (caller path, frame), the same order as folded's own tree, and time linear
// in the text (a line's frames shared with the line before are not looked up again);
// `max_nodes` bounds it (kResourceExhausted past it). Bounded() keeps the heaviest nodes whose
// ancestors are kept, and gives each kept node's dropped children one "other" child carrying
// their total, so the tree's values still add up; "other" nodes count against its bound.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/json_writer.h"
#include "core/base/status.h"
#include "core/base/text_sink.h"

namespace mpo::memtrace::report {

struct FlameNode {
  std::uint32_t name = 0;  // index into FlameTree::names
  std::uint64_t value = 0;
  std::vector<std::uint32_t> children;  // indices into FlameTree::nodes
};

// nodes[0] is the root ("all"); a child's index is larger than its parent's. Names are
// held once each: one frame appears under many callers.
struct FlameTree {
  std::vector<std::string> names;
  std::vector<FlameNode> nodes;
};

class FlameTreeBuilder : public TextSink {
 public:
  explicit FlameTreeBuilder(std::size_t max_nodes);
  void Write(std::string_view text) override;
  // The tree so far (call after the last Write); the first error, if any.
  Result<FlameTree> Finish();

 private:
  void AddLine(std::string_view line);
  std::uint32_t Child(std::uint32_t parent, std::string_view name);

  std::size_t max_nodes_;
  FlameTree tree_;
  void GrowIndex();

  // Looked up by string_view: a name is only copied when it is new.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>> name_ids_;
  // (parent, name) -> node, open addressing over node ids (0, the root, marks a free slot):
  // one node per new frame of a line, often millions, without an allocation each.
  std::vector<std::uint32_t> index_;
  std::vector<std::uint32_t> parents_;  // children lists are made once, by Finish
  std::string partial_;                 // an unfinished line
  // The previous line's stack and its path (node per frame): folded writes sorted lines,
  // so a line's frames are mostly its predecessor's, found without hashing.
  std::string prev_stack_;
  std::vector<std::uint32_t> prev_path_;
  Status status_;
};

// At most max(max_nodes, 2) nodes in all, the "other" nodes included (a kept node that
// lost children gets one).
FlameTree Bounded(const FlameTree& tree, std::size_t max_nodes);

// The tree as one value: {"n":S,"v":N,"c":[...]} nested, children heaviest first.
void WriteFlame(JsonWriter& w, const FlameTree& tree);

}  // namespace mpo::memtrace::report
