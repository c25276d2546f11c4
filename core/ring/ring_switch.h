// The two compare-and-swap guards of runtime events, written once for every platform:
// the producer's pause/resume switch and the consumer's "one poll at a time" gate.
// models/ring checks both with Relacy; production uses StdPlatform.
#pragma once

#include <cstdint>

#include "core/sync/memory_order.h"

namespace mpo::ring {

// Started/paused state of a producer. Pause and Resume may race with each other and
// with writers: exactly one of two concurrent Pause calls wins (and writes the pause
// event); writers only read the flags.
template <class P>
class RingSwitch {
 public:
  void SetEnabled(bool on) { enabled_.Store(on ? 1 : 0, sync::MemoryOrder::kRelease); }
  bool Enabled() const { return enabled_.Load(sync::MemoryOrder::kAcquire) != 0; }
  // Returns true if this call moved the state (and must emit the lifecycle event).
  bool Pause() { return Flip(0, 1); }
  bool Resume() { return Flip(1, 0); }
  void ClearPause() { paused_.Store(0, sync::MemoryOrder::kRelease); }
  // The writers' check: relaxed, as OCaml's; a write racing a pause may still land.
  bool Active() const {
    return enabled_.Load(sync::MemoryOrder::kRelaxed) != 0 &&
           paused_.Load(sync::MemoryOrder::kRelaxed) == 0;
  }

 private:
  bool Flip(std::uint32_t from, std::uint32_t to) {
    if (!Enabled()) return false;
    std::uint32_t expected = from;
    return paused_.CompareExchange(expected, to, sync::MemoryOrder::kAcqRel,
                                   sync::MemoryOrder::kAcquire);
  }
  typename P::template Atomic<std::uint32_t> enabled_{0};
  typename P::template Atomic<std::uint32_t> paused_{0};
};

// The gate's claim, a fault policy (core/base/faults.h): one compare-and-swap, so that
// of two polls entering at once exactly one wins. models/ring holds it against a mutant.
struct PollGateNoFaults {
  template <class Flag>
  static bool Claim(Flag& busy) {
    std::uint32_t expected = 0;
    return busy.CompareExchange(expected, 1, sync::MemoryOrder::kAcquire,
                                sync::MemoryOrder::kRelaxed);
  }
};

// Refuses a second concurrent or re-entrant poll of one cursor (E_CURSOR_POLL_BUSY).
template <class P, class Faults = PollGateNoFaults>
class PollGate {
 public:
  bool TryEnter() { return Faults::Claim(busy_); }
  void Leave() { busy_.Store(0, sync::MemoryOrder::kRelease); }

 private:
  typename P::template Atomic<std::uint32_t> busy_{0};
};

}  // namespace mpo::ring
