// The report's flame tree with recursion collapsed, made in memory from the tree of the
// folded stacks as recorded (flame_tree.h) instead of a second pass over the trace.
//
// Every stack of the tree (a root-to-node path with a count of its own) is inserted again
// with folded's collapse rule (core/memtrace/analysis/collapse_recursion.h), so the result
// is the tree FlameTreeBuilder makes from `folded --collapse-recursion`'s text: the same nodes,
// values and node order (ties in Bounded and AppendFlameJson follow node order). Linear in
// the tree's nodes, plus sorting each node's children once.
#pragma once

#include "core/memtrace/report/flame_tree.h"

namespace mpo::memtrace::report {

// `tree`: as FlameTreeBuilder::Finish gives it (not Bounded: its "other" nodes are not
// stacks).
FlameTree CollapseRecursion(const FlameTree& tree);

}  // namespace mpo::memtrace::report
