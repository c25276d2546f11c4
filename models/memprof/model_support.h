// Shared pieces of the memprof Relacy models: a do-nothing runtime for the engine, and
// mutant platforms that break one guarantee of the sync layer everywhere the engine
// uses it (the platform is the sync layer's fault policy: core/base/faults.h). Include
// after the standard headers and before nothing else of Relacy's.
#pragma once

#include <cstdint>
#include <vector>

#include "core/memprof/runtime_hooks.h"
#include "core/sync/relacy_platform.h"

#pragma push_macro("delete")
#undef delete

namespace mpo::models {

// A runtime whose blocks all live in the major heap: the engine only samples through
// SampleBlock and runs callbacks at polls.
class MajorOnlyRuntime final : public memprof::RuntimeHooks {
 public:
  memprof::BlockAddr YoungPtr() const override { return 1000; }
  memprof::BlockAddr YoungStart() const override { return 0; }
  memprof::BlockAddr MemprofTrigger() const override { return 0; }
  void SetMemprofTrigger(memprof::BlockAddr) override {}
  bool IsYoung(memprof::BlockAddr) const override { return false; }
  void SetActionPending() override {}
  void CaptureCallstack(std::uint32_t, int, std::vector<std::uint64_t>&) override {}
  void UndoYoungAllocation(std::uint64_t) override {}
  memprof::BlockAddr RedoYoungAllocation(std::uint64_t) override { return 0; }
};

// Mutant: the orphans lock does nothing.
struct NoLockPlatform : sync::RelacyPlatform {
  class Mutex {
   public:
    void Lock(sync::SourceLoc = sync::SourceLoc::Here()) {}
    void Unlock(sync::SourceLoc = sync::SourceLoc::Here()) {}
  };
  class Lock {
   public:
    explicit Lock(Mutex&, sync::SourceLoc = sync::SourceLoc::Here()) {}
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
  };
};

// Mutant: "atomics" that are plain variables (a non-atomic profile status, orphans flag).
struct PlainAtomicPlatform : sync::RelacyPlatform {
  template <class T>
  class Atomic {
   public:
    explicit Atomic(T initial = T{}, sync::SourceLoc loc = sync::SourceLoc::Here())
        : v_(initial, loc) {}
    Atomic(const Atomic&) = delete;
    Atomic& operator=(const Atomic&) = delete;
    T Load(sync::MemoryOrder, sync::SourceLoc loc = sync::SourceLoc::Here()) const {
      return v_.Load(loc);
    }
    void Store(T v, sync::MemoryOrder, sync::SourceLoc loc = sync::SourceLoc::Here()) {
      v_.Store(v, loc);
    }
    T Exchange(T v, sync::MemoryOrder, sync::SourceLoc loc = sync::SourceLoc::Here()) {
      T old = v_.Load(loc);
      v_.Store(v, loc);
      return old;
    }
    bool CompareExchange(T& expected, T desired, sync::MemoryOrder, sync::MemoryOrder,
                         sync::SourceLoc loc = sync::SourceLoc::Here()) {
      T cur = v_.Load(loc);
      if (cur != expected) {
        expected = cur;
        return false;
      }
      v_.Store(desired, loc);
      return true;
    }
    T FetchAdd(T v, sync::MemoryOrder, sync::SourceLoc loc = sync::SourceLoc::Here()) {
      T old = v_.Load(loc);
      v_.Store(old + v, loc);
      return old;
    }

   private:
    sync::RelacyPlatform::Var<T> v_;
  };
};

}  // namespace mpo::models

#pragma pop_macro("delete")
