// The one rule of "collapse recursion", shared by `folded --collapse-recursion`
// (core/export/folded.h) and the report's collapsed flame tree
// (core/memtrace/report/collapsed_flame.h), so that both draw the same stacks.
//
// A stack is built caller first; a frame equal to the frame kept just before it (its
// caller as written, compared by rendered name) is dropped, so direct recursion becomes
// one frame. Recursion through another frame (f;g;f) is kept: it is not a repetition of
// the caller.
#pragma once

namespace mpo::memtrace::analysis {

// Whether `frame` is dropped when pushed under `caller` (nullptr: the stack is empty,
// and its first frame is always kept).
template <typename Frame>
constexpr bool DroppedAsRecursion(const Frame* caller, const Frame& frame) {
  return caller != nullptr && *caller == frame;
}

}  // namespace mpo::memtrace::analysis
