// The report's inverted (bottom-up) flame tree, made in memory from the tree of the folded
// stacks (flame_tree.h): every stack is read from its last frame (the allocation point)
// back to its first (the outermost caller), so the first level holds the frames that
// allocated, each with everything allocated there, and the levels below them their
// callers. A stack's count stays on the stack, so the inverted tree's stacks are exactly
// the reverses of the tree's and its total is the same.
//
// The whole inverted tree can be far larger than the tree (a node per distinct reversed
// stack prefix: up to the length of folded's text), so it is made already cut: nodes are
// expanded heaviest first, as Bounded keeps them, and only the first `max_nodes` are;
// what lies below the others is one "other" child each, and Bounded cuts that: a cut by
// Bounded's rule of the whole inverted tree (ties between equal nodes may fall otherwise).
// Memory: the nodes made and one entry per stack with a count of its own; time: those
// entries times the depth expanded.
#pragma once

#include <cstddef>

#include "core/memtrace/report/flame_tree.h"

namespace mpo::memtrace::report {

// `tree`: as FlameTreeBuilder::Finish gives it (not Bounded: its "other" nodes are not
// frames). At most max(max_nodes, 2) nodes, "other" included (Bounded's rule).
FlameTree InvertedTree(const FlameTree& tree, std::size_t max_nodes);

}  // namespace mpo::memtrace::report
