// The model-checking platform of the sync layer: Relacy's rl::atomic, rl::var, rl::mutex
// and dynamic threads. See memory_order.h for the contract every platform fulfils.
//
// Include this header only from model translation units (models/), and after every
// standard header: relacy.hpp redefines new, delete, malloc, assert and the
// memory_order_* names. Relacy is not sanitizer-clean, so model targets are tagged nosan.
#pragma once

#include <functional>
#include <memory>
#include <relacy/relacy.hpp>
#include <utility>

#include "core/sync/memory_order.h"

// relacy.hpp turns `delete` into a macro; `= delete` below needs the keyword.
#pragma push_macro("delete")
#undef delete

namespace mpo::sync {

struct RelacyPlatform {
  static rl::debug_info Info(const SourceLoc& loc) {
    return rl::debug_info(loc.function, loc.file, loc.line);
  }
  static rl::memory_order ToRl(MemoryOrder order) {
    switch (order) {
      case MemoryOrder::kRelaxed: return rl::mo_relaxed;
      case MemoryOrder::kAcquire: return rl::mo_acquire;
      case MemoryOrder::kRelease: return rl::mo_release;
      case MemoryOrder::kAcqRel: return rl::mo_acq_rel;
      case MemoryOrder::kSeqCst: return rl::mo_seq_cst;
    }
    return rl::mo_seq_cst;
  }

  template <class T>
  class Atomic {
   public:
    explicit Atomic(T initial = T{}, SourceLoc loc = SourceLoc::Here()) {
      a_.store(initial, rl::mo_relaxed, Info(loc));
    }
    Atomic(const Atomic&) = delete;
    Atomic& operator=(const Atomic&) = delete;

    T Load(MemoryOrder mo, SourceLoc loc = SourceLoc::Here()) const {
      return a_.load(ToRl(mo), Info(loc));
    }
    void Store(T v, MemoryOrder mo, SourceLoc loc = SourceLoc::Here()) {
      a_.store(v, ToRl(mo), Info(loc));
    }
    T Exchange(T v, MemoryOrder mo, SourceLoc loc = SourceLoc::Here()) {
      return a_.exchange(v, ToRl(mo), Info(loc));
    }
    bool CompareExchange(T& expected, T desired, MemoryOrder success, MemoryOrder failure,
                         SourceLoc loc = SourceLoc::Here()) {
      return a_.compare_exchange_strong(expected, desired, ToRl(success), Info(loc), ToRl(failure),
                                        Info(loc));
    }
    T FetchAdd(T v, MemoryOrder mo, SourceLoc loc = SourceLoc::Here()) {
      return a_.fetch_add(v, ToRl(mo), Info(loc));
    }

   private:
    mutable rl::atomic<T> a_;
  };

  template <class T>
  class Var {
   public:
    explicit Var(T initial = T{}, SourceLoc loc = SourceLoc::Here()) {
      v_(Info(loc)) = std::move(initial);
    }
    Var(const Var&) = delete;
    Var& operator=(const Var&) = delete;

    T Load(SourceLoc loc = SourceLoc::Here()) const { return v_(Info(loc)); }
    void Store(T v, SourceLoc loc = SourceLoc::Here()) { v_(Info(loc)) = std::move(v); }

   private:
    mutable rl::var<T> v_;
  };

  class Mutex {
   public:
    void Lock(SourceLoc loc = SourceLoc::Here()) { m_.lock(Info(loc)); }
    void Unlock(SourceLoc loc = SourceLoc::Here()) { m_.unlock(Info(loc)); }

   private:
    rl::mutex m_;
  };

  class Lock {
   public:
    explicit Lock(Mutex& m, SourceLoc loc = SourceLoc::Here()) : m_(m), loc_(loc) { m_.Lock(loc); }
    ~Lock() { m_.Unlock(loc_); }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;

   private:
    Mutex& m_;
    SourceLoc loc_;
  };

  // A Relacy dynamic thread; the model's test_suite must reserve enough
  // `dynamic_thread_count` for the threads it starts.
  class Thread {
   public:
    template <class F>
    static Thread Start(F&& body) {
      Thread t;
      t.body_ = std::make_unique<std::function<void()>>(std::forward<F>(body));
      t.handle_ = std::make_unique<rl::dyn_thread>();
      t.handle_->start(&Thread::Trampoline, t.body_.get());
      return t;
    }
    void Join() {
      if (handle_) {
        handle_->join();
        handle_.reset();
      }
    }

   private:
    static void* Trampoline(void* arg) {
      (*static_cast<std::function<void()>*>(arg))();
      return nullptr;
    }
    std::unique_ptr<std::function<void()>> body_;
    std::unique_ptr<rl::dyn_thread> handle_;
  };

  static void Fence(MemoryOrder mo, SourceLoc loc = SourceLoc::Here()) {
    rl::atomic_thread_fence(ToRl(mo), Info(loc));
  }
  static void Yield(SourceLoc loc = SourceLoc::Here()) { rl::yield(1, Info(loc)); }
};

}  // namespace mpo::sync

#pragma pop_macro("delete")
