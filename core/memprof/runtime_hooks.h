// The narrow interface through which the memprof engine talks to "the runtime" of one
// domain: its minor-heap pointers, the memprof trigger, block ages, callstacks and the
// pending-action flag. core/sim/ implements it; an embedding in a real runtime would too.
//
// Addresses are in words. The minor heap is [YoungStart, young end) and allocation
// moves YoungPtr downwards; a block's address is its header word.
#pragma once

#include <cstdint>
#include <vector>

#include "core/memprof/api.h"

namespace mpo::memprof {

class RuntimeHooks {
 public:
  virtual ~RuntimeHooks() = default;

  virtual BlockAddr YoungPtr() const = 0;
  virtual BlockAddr YoungStart() const = 0;
  virtual BlockAddr MemprofTrigger() const = 0;
  // Stores the trigger and recomputes the young limit (caml_reset_young_limit).
  virtual void SetMemprofTrigger(BlockAddr trigger) = 0;
  // Is `block` in this runtime's minor heap (any domain's)?
  virtual bool IsYoung(BlockAddr block) const = 0;
  // Is this user data (or tracker root) a reference into a minor heap? A runtime that
  // treats user data as plain data, as tracers do, keeps the default.
  virtual bool IsYoungValue(UserData) const { return false; }
  // Asks for a poll (caml_set_action_pending).
  virtual void SetActionPending() = 0;
  // At most `max_frames` frames of the current callstack, innermost first. For a
  // combined allocation `alloc_index` names the sub-allocation, otherwise it is -1.
  virtual void CaptureCallstack(std::uint32_t max_frames, int alloc_index,
                                std::vector<std::uint64_t>& frames) = 0;
  // A combined allocation of `whsize` words is rolled back (YoungPtr += whsize) so
  // callbacks can allocate, ...
  virtual void UndoYoungAllocation(std::uint64_t whsize) = 0;
  // ... then redone, after making room (possibly by a minor collection). Returns the new
  // YoungPtr, the base of the combined allocation.
  virtual BlockAddr RedoYoungAllocation(std::uint64_t whsize) = 0;
};

}  // namespace mpo::memprof
