// OCaml's testsuite/tests/statmemprof behaviours, replayed on the simulated runtime.
// Each test names the OCaml test it ports; expected numbers are those of the native
// backend (combined allocations), derived the same way the OCaml tests derive them.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/sim/sim_runtime.h"

namespace mpo::sim {
namespace {

using memprof::AllocationInfo;
using memprof::AllocationSource;
using memprof::CallbackResult;
using memprof::Exception;
using memprof::Tracker;
using memprof::UserData;
using P = sync::StdPlatform;

// f33 of stop_start_in_callback.ml: a combined allocation of 7 blocks whose callbacks
// come (last sub-allocation first) with whsizes 6, 5, 4, 6, 5, 4, 3.
constexpr std::uint64_t kF33[] = {2, 3, 4, 5, 3, 4, 5};
// The list cell consing f33's result.
constexpr std::uint64_t kCons[] = {2};

// alloc_counts.ml: at λ = 1 the samples equal the words allocated, headers included.
TEST(StatmemprofTest, AllocCountsAtRateOneEqualAllocatedWords) {
  SimRuntime rt;
  std::uint64_t minor = 0, major = 0;
  Tracker t;
  t.alloc_minor = [&](const AllocationInfo& info) {
    minor += info.n_samples;
    EXPECT_EQ(info.n_samples, info.size + 1);
    return CallbackResult::Drop();
  };
  t.alloc_major = [&](const AllocationInfo& info) {
    major += info.n_samples;
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  for (int i = 0; i < 10; ++i) {
    const std::uint64_t refs[] = {1, 1, 1};  // ref (ref (ref 42))
    ASSERT_TRUE(rt.AllocCaml(0, refs, false).ok());
    ASSERT_TRUE(rt.AllocSmallFromC(0, 10, false).ok());                          // short array
    ASSERT_TRUE(rt.AllocMajor(0, 1000, AllocationSource::kNormal, false).ok());  // long
    const std::uint64_t closure[] = {4};
    ASSERT_TRUE(rt.AllocCaml(0, closure, false).ok());
    ASSERT_TRUE(rt.AllocMajor(0, 2, AllocationSource::kMarshal, false).ok());  // unmarshal
    ASSERT_FALSE(rt.Poll(0));
  }
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
  EXPECT_EQ(minor, rt.minor_words(0));
  EXPECT_EQ(major, rt.major_words(0));
  EXPECT_EQ(minor, 10u * (6 + 11 + 5));
  EXPECT_EQ(major, 10u * (1001 + 3));
}

// start_stop.ml: the ordering rules and OCaml's exact messages.
TEST(StatmemprofTest, StartStopDiscardOrdering) {
  SimRuntime rt;
  auto& d = rt.memprof(0);
  auto p = d.Start(1.0, 0, Tracker{});
  ASSERT_TRUE(p.ok());
  ASSERT_TRUE(d.Stop().ok());
  EXPECT_TRUE(memprof::Discard<P>(*p).ok());

  auto stop = d.Stop();
  EXPECT_EQ(stop.status.message(), "Gc.Memprof.stop: no profile running.");
  EXPECT_EQ(stop.status.code(), ErrorCode::kFailedPrecondition);

  auto first = d.Start(1.0, 0, Tracker{});
  ASSERT_TRUE(first.ok());
  auto second = d.Start(1.0, 0, Tracker{});
  EXPECT_EQ(second.status().message(), "Gc.Memprof.start: already started.");
  EXPECT_EQ(memprof::Discard<P>(*first).message(), "Gc.Memprof.discard: profile not stopped.");
  ASSERT_TRUE(d.Stop().ok());
  EXPECT_TRUE(memprof::Discard<P>(*first).ok());
  EXPECT_EQ(memprof::Discard<P>(*first).message(),
            "Gc.Memprof.discard: profile already discarded.");

  // Double profile: start/stop twice without discarding.
  ASSERT_TRUE(d.Start(1.0, 0, Tracker{}).ok());
  ASSERT_TRUE(d.Stop().ok());
  ASSERT_TRUE(d.Start(1.0, 0, Tracker{}).ok());
  ASSERT_TRUE(d.Stop().ok());

  auto bad = d.Start(2.0, 0, Tracker{});
  EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "Gc.Memprof.start");
  EXPECT_EQ(d.Start(NAN, 0, Tracker{}).status().message(), "Gc.Memprof.start");
  EXPECT_EQ(d.Start(0.5, -1, Tracker{}).status().message(), "Gc.Memprof.start");
}

// Shared by the balance tests: counts samples per callback kind.
struct Balance {
  std::uint64_t alloc_minor = 0, alloc_major = 0, promote = 0, dealloc_minor = 0, dealloc_major = 0;
  Tracker MakeTracker() {
    Tracker t;
    t.alloc_minor = [this](const AllocationInfo& i) {
      alloc_minor += i.n_samples;
      return CallbackResult::Keep(i.n_samples);
    };
    t.alloc_major = [this](const AllocationInfo& i) {
      alloc_major += i.n_samples;
      return CallbackResult::Keep(i.n_samples);
    };
    t.promote = [this](UserData n) {
      promote += n;
      return CallbackResult::Keep(n);
    };
    t.dealloc_minor = [this](UserData n) {
      dealloc_minor += n;
      return CallbackResult::Drop();
    };
    t.dealloc_major = [this](UserData n) {
      dealloc_major += n;
      return CallbackResult::Drop();
    };
    return t;
  }
};

// lists_in_minor.ml / arrays_in_minor.ml / arrays_in_major.ml: after everything dies
// and a full major GC, allocation samples balance deallocation samples.
TEST(StatmemprofTest, CountsBalanceAfterFullMajor) {
  for (double lambda : {0.01, 0.5, 1.0}) {
    SimRuntime rt(SimConfig{8192});
    Balance b;
    ASSERT_TRUE(rt.memprof(0).Start(lambda, 4, b.MakeTracker()).ok());
    std::vector<BlockId> keep;
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t size[] = {static_cast<std::uint64_t>(1 + i % 7), 2};
      auto a = rt.AllocCaml(0, size, i % 3 == 0);
      ASSERT_TRUE(a.ok());
      if (i % 3 == 0) keep.insert(keep.end(), a.blocks.begin(), a.blocks.end());
      if (i % 50 == 0) {
        auto m = rt.AllocMajor(0, 300 + i % 40, AllocationSource::kNormal, i % 100 == 0);
        ASSERT_TRUE(m.ok());
        if (i % 100 == 0) keep.push_back(m.blocks[0]);
        ASSERT_TRUE(rt.AllocSmallFromC(0, 1 + i % 256, false).ok());
      }
      if (i % 5000 == 0) rt.MajorGc();
      ASSERT_FALSE(rt.Poll(0));
    }
    for (BlockId id : keep) rt.Release(id);
    rt.MajorGc();
    ASSERT_FALSE(rt.Poll(0));
    ASSERT_TRUE(rt.memprof(0).Stop().ok());
    EXPECT_GT(b.alloc_minor, 0u);
    EXPECT_GT(b.alloc_major, 0u);
    EXPECT_GT(b.promote, 0u) << lambda;
    EXPECT_EQ(b.alloc_minor, b.dealloc_minor + b.promote) << lambda;
    EXPECT_EQ(b.alloc_major + b.promote, b.dealloc_major) << lambda;
    EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
  }
}

// comballoc.ml: each block of a combined allocation is sampled at rate λ, with one
// callstack per allocation site; promoted + deallocated samples equal allocated ones.
TEST(StatmemprofTest, CombinedAllocationBlocksSampledAtRate) {
  const std::uint64_t f12[] = {2, 3, 4};  // (n, (n, n, f5 n)): whsizes 3, 4, 5
  for (double rate : {0.42, 0.01, 0.83}) {
    SimRuntime rt(SimConfig{1 << 16});
    std::map<std::uint64_t, std::uint64_t> allocs, deallocs, promotes;
    std::map<std::uint64_t, std::vector<std::uint64_t>> stacks;
    rt.SetCallstack(0, {0x100, 0x200});
    Tracker t;
    t.alloc_minor = [&](const AllocationInfo& info) {
      allocs[info.size] += info.n_samples;
      std::vector<std::uint64_t> s(info.callstack.begin(), info.callstack.end());
      auto [it, fresh] = stacks.emplace(info.size, s);
      EXPECT_TRUE(fresh || it->second == s);
      return CallbackResult::Keep(info.size << 32 | info.n_samples);
    };
    t.dealloc_minor = [&](UserData v) {
      deallocs[v >> 32] += v & 0xffffffff;
      return CallbackResult::Drop();
    };
    t.promote = [&](UserData v) {
      promotes[v >> 32] += v & 0xffffffff;
      return CallbackResult::Drop();
    };
    ASSERT_TRUE(rt.memprof(0).Start(rate, 10, t).ok());
    const int iter = 100000;
    for (int i = 0; i < iter; ++i) {
      auto a = rt.AllocCaml(0, f12);
      ASSERT_TRUE(a.ok());
      rt.Release(a.blocks[0]);
      rt.Release(a.blocks[1]);  // only the 5-word block stays reachable
      if (i % 1000 == 0) {
        ASSERT_FALSE(rt.Poll(0));
      }
    }
    rt.MinorGc();
    ASSERT_FALSE(rt.Poll(0));
    ASSERT_TRUE(rt.memprof(0).Stop().ok());
    for (std::uint64_t size : {2u, 3u, 4u}) {
      EXPECT_EQ(deallocs[size] + promotes[size], allocs[size]) << size;
      const double total = static_cast<double>((size + 1) * iter);
      const double observed = static_cast<double>(allocs[size]) / total;
      EXPECT_NEAR(observed, rate, 5.7 * std::sqrt(rate * (1 - rate) / total)) << size;
      EXPECT_EQ(promotes[size] > 1000, size == 4) << size;  // only the kept block
    }
  }
}

// comballoc.ml, no_callback_after_stop: stopping in a callback stops the rest of the
// combined allocation's callbacks.
TEST(StatmemprofTest, NoCallbackAfterStopInCombinedAllocation) {
  const std::uint64_t f12[] = {2, 3, 4};
  for (int trigger = 0; trigger < 200; ++trigger) {
    SimRuntime rt(SimConfig{4096});
    bool stopped = false;
    int count = 0;
    Tracker t;
    t.alloc_minor = [&](const AllocationInfo&) {
      EXPECT_FALSE(stopped);
      if (++count > trigger) {
        EXPECT_TRUE(rt.memprof(0).Stop().ok());
        stopped = true;
      }
      return CallbackResult::Drop();
    };
    ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
    for (int i = 0; i <= 100 && !stopped; ++i) ASSERT_TRUE(rt.AllocCaml(0, f12).ok());
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(rt.AllocCaml(0, f12).ok());
    EXPECT_TRUE(stopped);
    EXPECT_EQ(count, trigger + 1);
  }
}

using AllocSet = std::set<std::tuple<int, int, int>>;

// exception_comballoc.ml: an exception in a combined allocation's callback cancels it;
// blocks already called back get (faked) deallocation callbacks.
TEST(StatmemprofTest, ExceptionInCombinedAllocation) {
  SimRuntime rt;
  int n_alloc = 0, n_prof = 0, n_exc = 0;
  AllocSet allocs, deallocs, excs;
  std::map<UserData, std::tuple<int, int, int>> data;
  UserData next = 1;
  Tracker t;
  t.alloc_minor = [&](const AllocationInfo& info) {
    ++n_alloc;
    const auto key = std::make_tuple(n_prof, n_alloc, static_cast<int>(info.size + 1));
    allocs.insert(key);
    if (n_alloc >= n_prof) {
      excs.insert(key);
      return CallbackResult::Raise(Exception{42});
    }
    data[next] = key;
    return CallbackResult::Keep(next++);
  };
  t.promote = [](UserData v) { return CallbackResult::Keep(v); };
  t.dealloc_minor = t.dealloc_major = [&](UserData v) {
    deallocs.insert(data.at(v));
    return CallbackResult::Drop();
  };
  t.alloc_major = [](const AllocationInfo&) {
    ADD_FAILURE() << "no major allocation expected";
    return CallbackResult::Drop();
  };
  std::vector<BlockId> arr;
  for (int i = 1; i <= 10; ++i) {
    ++n_prof;
    n_alloc = 0;
    ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
    auto f = rt.AllocCaml(0, kF33);
    if (f.raised) {
      EXPECT_EQ(f.raised->tag, 42u);
      ++n_exc;
    } else {
      auto c = rt.AllocCaml(0, kCons);
      if (c.raised) {
        ++n_exc;
        for (BlockId b : f.blocks) rt.Release(b);
      } else {
        arr.insert(arr.end(), f.blocks.begin(), f.blocks.end());
        arr.push_back(c.blocks[0]);
      }
    }
    ASSERT_TRUE(rt.memprof(0).Stop().ok());
    rt.MinorGc();
    ASSERT_FALSE(rt.Poll(0));
  }
  for (BlockId b : arr) rt.Release(b);
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));

  auto words = [](const AllocSet& s) {
    int total = 0;
    for (const auto& k : s) total += std::get<2>(k);
    return total;
  };
  for (const auto& k : deallocs) EXPECT_EQ(excs.count(k), 0u);
  AllocSet both = deallocs;
  both.insert(excs.begin(), excs.end());
  EXPECT_EQ(both, allocs);
  EXPECT_EQ(deallocs.size(), 0u + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 8);
  EXPECT_EQ(static_cast<int>(allocs.size()), static_cast<int>(deallocs.size()) + n_exc);
  EXPECT_EQ(n_exc, 8);
  EXPECT_EQ(words(deallocs), 0 + 6 + (6 + 5) + (6 + 5 + 4) + (6 + 5 + 4 + 6) + (6 + 5 + 4 + 6 + 5) +
                                 (6 + 5 + 4 + 6 + 5 + 4) + (6 + 5 + 4 + 6 + 5 + 4 + 3) +
                                 2 * (6 + 5 + 4 + 6 + 5 + 4 + 3 + 3));
  EXPECT_EQ(words(allocs), words(deallocs) + (6 + 5 + 4 + 6 + 5 + 4 + 3 + 3));
}

// stop_start_in_callback.ml: blocks already called back keep getting promote/dealloc
// callbacks from their (stopped) profile, exactly once each.
TEST(StatmemprofTest, StopAndRestartInsideCallbacks) {
  for (bool restart : {true, false}) {
    SimRuntime rt;
    int n_alloc = 0, n_prof = 0;
    AllocSet allocs, promotes, deallocs_minor, deallocs_major;
    std::map<UserData, std::tuple<int, int, int>> data;
    UserData next = 1;
    Tracker tracker;
    auto start = [&] {
      ++n_prof;
      n_alloc = 0;
      ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, tracker).ok());
    };
    tracker.alloc_minor = [&](const AllocationInfo& info) {
      ++n_alloc;
      const auto key = std::make_tuple(n_prof, n_alloc, static_cast<int>(info.size + 1));
      EXPECT_TRUE(allocs.insert(key).second);
      if (n_alloc >= n_prof) {
        EXPECT_TRUE(rt.memprof(0).Stop().ok());
        if (restart) start();
      }
      data[next] = key;
      return CallbackResult::Keep(next++);
    };
    tracker.promote = [&](UserData v) {
      EXPECT_TRUE(promotes.insert(data.at(v)).second);
      return CallbackResult::Keep(v);
    };
    tracker.dealloc_minor = [&](UserData v) {
      EXPECT_TRUE(deallocs_minor.insert(data.at(v)).second);
      return CallbackResult::Drop();
    };
    tracker.dealloc_major = [&](UserData v) {
      EXPECT_TRUE(deallocs_major.insert(data.at(v)).second);
      return CallbackResult::Drop();
    };
    std::vector<BlockId> arr;
    start();
    for (int i = 0; i < 4; ++i) {
      auto f = rt.AllocCaml(0, kF33);
      ASSERT_TRUE(f.ok());
      auto c = rt.AllocCaml(0, kCons);
      ASSERT_TRUE(c.ok());
      arr.insert(arr.end(), f.blocks.begin(), f.blocks.end());
      arr.push_back(c.blocks[0]);
      ASSERT_FALSE(rt.Poll(0));
      if (!restart && i < 3) start();
    }
    if (restart) {
      ASSERT_TRUE(rt.memprof(0).Stop().ok());
    }
    rt.MinorGc();
    ASSERT_FALSE(rt.Poll(0));
    for (BlockId b : arr) rt.Release(b);
    rt.MajorGc();
    ASSERT_FALSE(rt.Poll(0));

    int size = 0;
    for (const auto& k : allocs) size += std::get<2>(k);
    for (const auto& k : promotes) EXPECT_EQ(deallocs_major.count(k), 1u);
    for (const auto& k : deallocs_minor) EXPECT_EQ(deallocs_major.count(k), 0u);
    AllocSet all = deallocs_minor;
    all.insert(deallocs_major.begin(), deallocs_major.end());
    EXPECT_EQ(all, allocs) << restart;
    EXPECT_EQ(allocs.size(), restart ? 1u + 2 + 3 + 4 + 1 : 1u + 2 + 3 + 4) << restart;
    EXPECT_EQ(size, restart ? 6 + (3 + 6) + (3 + 6 + 5) + (3 + 6 + 5 + 4) + 3
                            : 6 + (6 + 5) + (6 + 5 + 4) + (6 + 5 + 4 + 6))
        << restart;
  }
}

// discard_in_callback.ml: after a discard inside a callback, no callback at all for
// that profile's blocks.
TEST(StatmemprofTest, DiscardInsideCallbacks) {
  for (bool restart : {true, false}) {
    SimRuntime rt;
    int n_prof = 0, n_alloc = 0, allocs = 0, words = 0;
    memprof::ProfileRef<P> current;
    Tracker tracker;
    auto r0 = rt.memprof(0).Start(0.0, 0, Tracker{});
    ASSERT_TRUE(r0.ok());
    ASSERT_TRUE(rt.memprof(0).Stop().ok());
    auto start = [&] {
      ++n_prof;
      n_alloc = 0;
      auto r = rt.memprof(0).Start(1.0, 0, tracker);
      ASSERT_TRUE(r.ok());
      current = *r;
    };
    auto stop = [&] {
      ASSERT_TRUE(rt.memprof(0).Stop().ok());
      ASSERT_TRUE(memprof::Discard<P>(current).ok());
    };
    tracker.alloc_minor = [&](const AllocationInfo& info) {
      ++allocs;
      ++n_alloc;
      words += static_cast<int>(info.size + 1);
      if (n_alloc >= n_prof) {
        stop();
        if (restart) start();
      }
      return CallbackResult::Keep(words);
    };
    auto forbidden = [](UserData) {
      ADD_FAILURE() << "callback after discard";
      return CallbackResult::Drop();
    };
    tracker.promote = tracker.dealloc_minor = tracker.dealloc_major = forbidden;
    std::vector<BlockId> res;
    start();
    for (int i = 0; i < 4; ++i) {
      auto f = rt.AllocCaml(0, kF33);
      ASSERT_TRUE(f.ok());
      auto c = rt.AllocCaml(0, kCons);
      ASSERT_TRUE(c.ok());
      res.insert(res.end(), f.blocks.begin(), f.blocks.end());
      ASSERT_FALSE(rt.Poll(0));
      if (!restart && i < 3) start();
    }
    if (restart) stop();
    rt.MinorGc();
    for (BlockId b : res) rt.Release(b);
    rt.MajorGc();
    ASSERT_FALSE(rt.Poll(0));
    EXPECT_EQ(allocs, restart ? 1 + 2 + 3 + 4 + 1 : 1 + 2 + 3 + 4);
    EXPECT_EQ(words, restart ? 6 + (3 + 6) + (3 + 6 + 5) + (3 + 6 + 5 + 4) + 3
                             : 6 + (6 + 5) + (6 + 5 + 4) + (6 + 5 + 4 + 6));
    EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
  }
}

// Callbacks never nest, even when they allocate (and so trigger collections).
TEST(StatmemprofTest, CallbacksNeverNest) {
  SimRuntime rt(SimConfig{2048});
  int depth = 0, max_depth = 0, calls = 0;
  auto enter = [&] {
    max_depth = std::max(max_depth, ++depth);
    ++calls;
    const std::uint64_t size[] = {8, 8};
    EXPECT_TRUE(rt.AllocCaml(0, size, false).ok());
    EXPECT_TRUE(rt.AllocMajor(0, 300, AllocationSource::kNormal, false).ok());
    EXPECT_TRUE(rt.AllocSmallFromC(0, 5, false).ok());
    EXPECT_FALSE(rt.Poll(0));
    --depth;
  };
  Tracker t;
  t.alloc_minor = t.alloc_major = [&](const AllocationInfo&) {
    enter();
    return CallbackResult::Keep(1);
  };
  t.promote = [&](UserData v) {
    enter();
    return CallbackResult::Keep(v);
  };
  t.dealloc_minor = t.dealloc_major = [&](UserData) {
    enter();
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(0.05, 2, t).ok());
  for (int i = 0; i < 3000; ++i) {
    const std::uint64_t size[] = {3};
    ASSERT_TRUE(rt.AllocCaml(0, size, i % 4 == 0).ok());
    ASSERT_FALSE(rt.Poll(0));
  }
  rt.MajorGc([](BlockId) { return false; });
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(max_depth, 1);
  EXPECT_GT(calls, 100);
}

// Allocation callbacks run on the allocating thread, even when another thread polls.
TEST(StatmemprofTest, AllocationCallbacksRunOnAllocatingThread) {
  SimRuntime rt;
  auto t1 = rt.NewThread(0);
  ASSERT_TRUE(t1.ok());
  MemprofThread* t0 = rt.memprof(0).current();
  std::vector<std::uint32_t> threads;
  Tracker t;
  t.alloc_major = [&](const AllocationInfo& info) {
    threads.push_back(info.thread_id);
    EXPECT_EQ(rt.memprof(0).current()->id(), info.thread_id);
    return CallbackResult::Keep(0);
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  ASSERT_TRUE(rt.EnterThread(0, *t1).ok());
  ASSERT_TRUE(rt.AllocMajor(0, 300).ok());
  ASSERT_TRUE(rt.EnterThread(0, t0).ok());
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_TRUE(threads.empty());
  ASSERT_TRUE(rt.EnterThread(0, *t1).ok());
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(threads, std::vector<std::uint32_t>{(*t1)->id()});
}

// thread_exit_in_callback.ml: a thread ending inside a callback ends only that thread.
TEST(StatmemprofTest, ThreadExitInCallbackEndsOnlyThatThread) {
  SimRuntime rt;
  auto t1 = rt.NewThread(0);
  ASSERT_TRUE(t1.ok());
  MemprofThread* t0 = rt.memprof(0).current();
  constexpr Exception kThreadExit{0xE417};
  int alloc_calls = 0, deallocs = 0;
  Tracker t;
  t.alloc_minor = [&](const AllocationInfo&) {
    ++alloc_calls;
    if (rt.memprof(0).current() == *t1) return CallbackResult::Raise(kThreadExit);
    return CallbackResult::Keep(1);
  };
  t.dealloc_minor = [&](UserData) {
    ++deallocs;
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  ASSERT_TRUE(rt.EnterThread(0, *t1).ok());
  const std::uint64_t size[] = {2};
  auto a = rt.AllocCaml(0, size);
  ASSERT_TRUE(a.raised);
  EXPECT_EQ(*a.raised, kThreadExit);
  ASSERT_TRUE(rt.EndThread(0, *t1).ok());
  ASSERT_TRUE(rt.EnterThread(0, t0).ok());
  EXPECT_EQ(rt.memprof(0).thread_count(), 1u);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(rt.AllocCaml(0, size, false).ok());
  rt.MinorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(alloc_calls, 11);
  EXPECT_EQ(deallocs, 10);
}

// Orphans: a child domain inherits the profile; when it ends, its tracked blocks are
// adopted by the parent, which runs their remaining callbacks.
TEST(StatmemprofTest, EndedDomainEntriesAreAdoptedAndBalanced) {
  SimRuntime rt;
  Balance b;
  ASSERT_TRUE(rt.memprof(0).Start(0.1, 0, b.MakeTracker()).ok());
  auto child = rt.NewDomain(0);
  ASSERT_TRUE(child.ok());
  std::vector<BlockId> keep;
  for (int i = 0; i < 5000; ++i) {
    const std::uint64_t size[] = {4};
    auto a = rt.AllocCaml(*child, size);
    ASSERT_TRUE(a.ok());
    keep.push_back(a.blocks[0]);
    ASSERT_FALSE(rt.Poll(*child));
  }
  rt.MinorGc();
  ASSERT_FALSE(rt.Poll(*child));
  const std::uint64_t promoted_before_end = b.promote;
  EXPECT_GT(promoted_before_end, 0u);
  ASSERT_TRUE(rt.EndDomain(*child).ok());
  EXPECT_TRUE(rt.engine().orphans().present());
  for (BlockId id : keep) rt.Release(id);
  rt.MajorGc();
  EXPECT_FALSE(rt.engine().orphans().present());
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(b.alloc_minor, b.promote + b.dealloc_minor);
  EXPECT_EQ(b.promote, b.dealloc_major);
  EXPECT_EQ(rt.memprof(0).orphan_table_count(), 0u);
}

// Compaction moves tracked blocks; memprof follows them and still sees them die.
TEST(StatmemprofTest, CompactionMovesTrackedBlocks) {
  SimRuntime rt;
  Balance b;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, b.MakeTracker()).ok());
  std::vector<BlockId> blocks;
  for (int i = 0; i < 50; ++i) blocks.push_back(rt.AllocMajor(0, 300).blocks.at(0));
  ASSERT_FALSE(rt.Poll(0));
  for (int i = 0; i < 50; i += 2) rt.Release(blocks[i]);
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(b.dealloc_major, 25u * 301);
  rt.Compact();
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
  for (int i = 1; i < 50; i += 2) rt.Release(blocks[i]);
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(b.dealloc_major, 50u * 301);
}

// moved_while_blocking.ml: while one thread blocks inside a promotion callback, another
// thread collects and runs the other entries' callbacks; the blocked entry is skipped,
// moved under the running callback's feet, and finishes correctly.
TEST(StatmemprofTest, OtherThreadRunsCallbacksWhileOneBlocksInCallback) {
  SimRuntime rt;
  MemprofThread* t1 = rt.memprof(0).current();
  auto t2 = rt.NewThread(0);
  ASSERT_TRUE(t2.ok());
  std::vector<std::string> log;
  BlockId big = 0, small = 0;
  constexpr UserData kMajorBlock = 1, kPromotedBlock = 2;
  Tracker t;
  t.alloc_minor = [&](const AllocationInfo&) {
    log.push_back("    minor alloc");
    return CallbackResult::Keep(0);
  };
  t.alloc_major = [&](const AllocationInfo&) {
    log.push_back("    major alloc");
    return CallbackResult::Keep(kMajorBlock);
  };
  t.promote = [&](UserData) {
    log.push_back("    promoting...");
    // Thread 1 runs while thread 2 waits in this callback.
    EXPECT_TRUE(rt.EnterThread(0, t1).ok());
    log.push_back("T1: major GC");
    rt.Release(big);
    rt.MajorGc();
    EXPECT_FALSE(rt.Poll(0));
    EXPECT_TRUE(rt.EnterThread(0, *t2).ok());
    log.push_back("    ...done promoting");
    return CallbackResult::Keep(kPromotedBlock);
  };
  t.dealloc_major = [&](UserData msg) {
    log.push_back(msg == kMajorBlock ? "    major dealloc: major block"
                                     : "    major dealloc: promoted block");
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  log.push_back("T1: alloc");
  big = rt.AllocMajor(0, 1000).blocks.at(0);
  ASSERT_FALSE(rt.Poll(0));
  ASSERT_TRUE(rt.EnterThread(0, *t2).ok());
  log.push_back("T2: alloc");
  const std::uint64_t ref[] = {1};
  small = rt.AllocCaml(0, ref).blocks.at(0);
  log.push_back("T2: minor GC");
  rt.MinorGc();
  ASSERT_FALSE(rt.Poll(0));
  rt.Release(small);
  log.push_back("T2: done");
  ASSERT_TRUE(rt.EnterThread(0, t1).ok());
  log.push_back("T1: major GC");
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  log.push_back("T1: done");
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
  const std::vector<std::string> reference = {"T1: alloc",
                                              "    major alloc",
                                              "T2: alloc",
                                              "    minor alloc",
                                              "T2: minor GC",
                                              "    promoting...",
                                              "T1: major GC",
                                              "    major dealloc: major block",
                                              "    ...done promoting",
                                              "T2: done",
                                              "T1: major GC",
                                              "    major dealloc: promoted block",
                                              "T1: done"};
  EXPECT_EQ(log, reference);
}

// intern.ml / custom.ml / callstacks.ml: the allocation source reaches the callback, and
// callstacks are cut at the profile's callstack size.
TEST(StatmemprofTest, SourcesAndCallstackSize) {
  SimRuntime rt;
  std::vector<AllocationSource> sources;
  std::vector<std::size_t> depths;
  Tracker t;
  t.alloc_major = t.alloc_minor = [&](const AllocationInfo& info) {
    sources.push_back(info.source);
    depths.push_back(info.callstack.size());
    return CallbackResult::Drop();
  };
  rt.SetCallstack(0, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 3, t).ok());
  ASSERT_TRUE(rt.AllocMajor(0, 300, AllocationSource::kMarshal).ok());
  ASSERT_TRUE(rt.AllocMajor(0, 300, AllocationSource::kCustom).ok());
  ASSERT_TRUE(rt.AllocSmallFromC(0, 4).ok());
  ASSERT_FALSE(rt.Poll(0));
  const std::uint64_t pair[] = {2, 2};
  ASSERT_TRUE(rt.AllocCaml(0, pair).ok());
  EXPECT_EQ(sources,
            (std::vector<AllocationSource>{AllocationSource::kMarshal, AllocationSource::kCustom,
                                           AllocationSource::kNormal, AllocationSource::kNormal,
                                           AllocationSource::kNormal}));
  EXPECT_EQ(depths, (std::vector<std::size_t>{3, 3, 3, 3, 3}));
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  ASSERT_TRUE(rt.AllocCaml(0, pair).ok());
  EXPECT_EQ(depths.back(), 0u);
}

// minor_no_postpone.ml: allocation callbacks for OCaml allocations run at once; those
// for allocations by C code wait for the next poll (here, the next OCaml allocation).
TEST(StatmemprofTest, MinorCallbacksFromOcamlAreNotPostponed) {
  SimRuntime rt;
  bool ok = true, done = false;
  Tracker t;
  t.alloc_minor = [&](const AllocationInfo&) {
    EXPECT_TRUE(ok);
    done = true;
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  const std::uint64_t ref[] = {1};
  ASSERT_TRUE(rt.AllocCaml(0, ref).ok());
  EXPECT_TRUE(done);
  ASSERT_TRUE(rt.memprof(0).Stop().ok());

  ok = false;
  done = false;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  ASSERT_TRUE(rt.AllocSmallFromC(0, 1).ok());
  EXPECT_FALSE(done);
  ok = true;
  ASSERT_TRUE(rt.AllocCaml(0, ref).ok());
  EXPECT_TRUE(done);
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
}

// minor_heap_edge.ml: with a tiny minor heap, callbacks that allocate (and so collect)
// in the middle of combined allocations still see every block allocated and promoted.
TEST(StatmemprofTest, MinorHeapEdge) {
  SimRuntime rt(SimConfig{2000});
  int n_allocated = 0, n_promoted = 0, n_deallocated = 0;
  std::uint64_t noise = 12345;
  Tracker t;
  t.alloc_minor = [&](const AllocationInfo&) {
    ++n_allocated;
    noise = noise * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t ref[] = {1};
    for (std::uint64_t i = 0, n = (noise >> 33) % 500; i < n; ++i) {
      EXPECT_TRUE(rt.AllocCaml(0, ref, false).ok());
    }
    return CallbackResult::Keep(0);
  };
  t.promote = [&](UserData) {
    ++n_promoted;
    return CallbackResult::Drop();
  };
  t.dealloc_minor = [&](UserData) {
    ++n_deallocated;
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  std::vector<BlockId> s;
  const std::uint64_t array_and_cons[] = {50, 2};
  for (int i = 0; i < 10000; ++i) {
    auto a = rt.AllocCaml(0, array_and_cons);
    ASSERT_TRUE(a.ok());
    s.insert(s.end(), a.blocks.begin(), a.blocks.end());
  }
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  for (BlockId b : s) rt.Release(b);
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
  EXPECT_EQ(n_allocated, 20000);
  EXPECT_EQ(n_promoted, 20000);
  EXPECT_EQ(n_deallocated, 0);
  EXPECT_GT(rt.minor_collections(), 1000u);
}

}  // namespace
}  // namespace mpo::sim
