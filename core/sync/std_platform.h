// The production platform of the sync layer: std::atomic, std::mutex, std::thread.
// See memory_order.h for the contract every platform fulfils. Call sites are accepted
// and ignored, so they cost nothing once inlined.
#pragma once

#include <atomic>
#include <mutex>
#include <thread>
#include <utility>

#include "core/sync/memory_order.h"

namespace mpo::sync {

struct StdPlatform {
  static constexpr std::memory_order ToStd(MemoryOrder order) {
    switch (order) {
      case MemoryOrder::kRelaxed: return std::memory_order_relaxed;
      case MemoryOrder::kAcquire: return std::memory_order_acquire;
      case MemoryOrder::kRelease: return std::memory_order_release;
      case MemoryOrder::kAcqRel: return std::memory_order_acq_rel;
      case MemoryOrder::kSeqCst: return std::memory_order_seq_cst;
    }
    return std::memory_order_seq_cst;
  }

  template <class T>
  class Atomic {
   public:
    Atomic() : a_(T{}) {}
    explicit Atomic(T initial) : a_(initial) {}
    Atomic(const Atomic&) = delete;
    Atomic& operator=(const Atomic&) = delete;

    T Load(MemoryOrder mo, SourceLoc = SourceLoc::Here()) const { return a_.load(ToStd(mo)); }
    void Store(T v, MemoryOrder mo, SourceLoc = SourceLoc::Here()) { a_.store(v, ToStd(mo)); }
    T Exchange(T v, MemoryOrder mo, SourceLoc = SourceLoc::Here()) {
      return a_.exchange(v, ToStd(mo));
    }
    // On failure `expected` receives the current value.
    bool CompareExchange(T& expected, T desired, MemoryOrder success, MemoryOrder failure,
                         SourceLoc = SourceLoc::Here()) {
      return a_.compare_exchange_strong(expected, desired, ToStd(success), ToStd(failure));
    }
    T FetchAdd(T v, MemoryOrder mo, SourceLoc = SourceLoc::Here()) {
      return a_.fetch_add(v, ToStd(mo));
    }

   private:
    std::atomic<T> a_;
  };

  template <class T>
  class Var {
   public:
    Var() : v_{} {}
    explicit Var(T initial) : v_(std::move(initial)) {}
    Var(const Var&) = delete;
    Var& operator=(const Var&) = delete;

    T Load(SourceLoc = SourceLoc::Here()) const { return v_; }
    void Store(T v, SourceLoc = SourceLoc::Here()) { v_ = std::move(v); }

   private:
    T v_;
  };

  class Mutex {
   public:
    void Lock(SourceLoc = SourceLoc::Here()) { m_.lock(); }
    void Unlock(SourceLoc = SourceLoc::Here()) { m_.unlock(); }

   private:
    std::mutex m_;
  };

  class Lock {
   public:
    explicit Lock(Mutex& m, SourceLoc loc = SourceLoc::Here()) : m_(m) { m_.Lock(loc); }
    ~Lock() { m_.Unlock(); }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;

   private:
    Mutex& m_;
  };

  class Thread {
   public:
    template <class F>
    static Thread Start(F&& body) {
      Thread t;
      t.t_ = std::thread(std::forward<F>(body));
      return t;
    }
    void Join() {
      if (t_.joinable()) t_.join();
    }

   private:
    std::thread t_;
  };

  static void Fence(MemoryOrder mo, SourceLoc = SourceLoc::Here()) {
    std::atomic_thread_fence(ToStd(mo));
  }
  static void Yield(SourceLoc = SourceLoc::Here()) { std::this_thread::yield(); }
};

}  // namespace mpo::sync
