// Finer points of runtime/memprof.c's semantics, checked on the simulated runtime.
#include <gtest/gtest.h>

#include "core/sim/sim_runtime.h"

namespace mpo::sim {
namespace {

using memprof::AllocationInfo;
using memprof::CallbackResult;
using memprof::Exception;
using memprof::Tracker;
using memprof::UserData;
using P = sync::StdPlatform;

// A tracker that counts callbacks and keeps tracking.
struct Counting {
  int allocs = 0, promotes = 0, deallocs = 0;
  Tracker Make() {
    Tracker t;
    t.alloc_minor = t.alloc_major = [this](const AllocationInfo&) {
      ++allocs;
      return CallbackResult::Keep(1);
    };
    t.promote = [this](UserData v) {
      ++promotes;
      return CallbackResult::Keep(v);
    };
    t.dealloc_minor = t.dealloc_major = [this](UserData) {
      ++deallocs;
      return CallbackResult::Drop();
    };
    return t;
  }
};

TEST(EngineSemanticsTest, StopRunsPendingAllocationCallbacksAndPropagatesExceptions) {
  SimRuntime rt;
  int calls = 0;
  Tracker t;
  t.alloc_major = [&](const AllocationInfo&) {
    ++calls;
    return calls == 1 ? CallbackResult::Raise(Exception{7}) : CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  ASSERT_TRUE(rt.AllocMajor(0, 300).ok());
  ASSERT_TRUE(rt.AllocMajor(0, 300).ok());
  memprof::Outcome first = rt.memprof(0).Stop();
  ASSERT_TRUE(first.raised.has_value());
  EXPECT_EQ(first.raised->tag, 7u);
  EXPECT_TRUE(rt.memprof(0).profile()->sampling());  // the exception left it running
  memprof::Outcome second = rt.memprof(0).Stop();
  EXPECT_TRUE(second.ok());
  EXPECT_EQ(calls, 2);
}

TEST(EngineSemanticsTest, TriggerFollowsSampling) {
  SimRuntime rt;
  const std::uint64_t size[] = {1};
  ASSERT_TRUE(rt.AllocCaml(0, size).ok());
  // Not sampling: no trigger inside the heap, allocation never enters memprof.
  Counting c;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, c.Make()).ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(rt.AllocCaml(0, size).ok());
  EXPECT_EQ(c.allocs, 10);
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(rt.AllocCaml(0, size).ok());
  EXPECT_EQ(c.allocs, 10);
}

TEST(EngineSemanticsTest, RestartOrphansOldEntriesWhichKeepTheirTracker) {
  SimRuntime rt;
  Counting old_profile, new_profile;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, old_profile.Make()).ok());
  const std::uint64_t size[] = {2};
  std::vector<BlockId> blocks;
  for (int i = 0; i < 5; ++i) blocks.push_back(rt.AllocCaml(0, size).blocks.at(0));
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
  ASSERT_TRUE(rt.memprof(0).Start(0.0, 0, new_profile.Make()).ok());
  EXPECT_EQ(rt.memprof(0).orphan_table_count(), 1u);
  rt.MinorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(old_profile.promotes, 5);
  for (BlockId b : blocks) rt.Release(b);
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(old_profile.deallocs, 5);
  EXPECT_EQ(new_profile.allocs + new_profile.promotes + new_profile.deallocs, 0);
  EXPECT_EQ(rt.memprof(0).orphan_table_count(), 0u);
}

TEST(EngineSemanticsTest, DiscardDropsOrphanTablesWithoutCallbacks) {
  SimRuntime rt;
  Counting c;
  auto p = rt.memprof(0).Start(1.0, 0, c.Make());
  ASSERT_TRUE(p.ok());
  const std::uint64_t size[] = {2};
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(rt.AllocCaml(0, size).ok());
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
  ASSERT_TRUE(rt.memprof(0).Start(0.0, 0, Tracker{}).ok());
  ASSERT_EQ(rt.memprof(0).orphan_table_count(), 1u);
  ASSERT_TRUE(memprof::Discard<P>(*p).ok());
  rt.MinorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(rt.memprof(0).orphan_table_count(), 0u);
  EXPECT_EQ(c.allocs, 5);
  EXPECT_EQ(c.promotes + c.deallocs, 0);
}

TEST(EngineSemanticsTest, ExceptionInPromoteEndsTrackingAndPropagates) {
  SimRuntime rt;
  int promotes = 0, deallocs = 0;
  Tracker t;
  t.alloc_minor = [](const AllocationInfo&) { return CallbackResult::Keep(1); };
  t.promote = [&](UserData) {
    return ++promotes == 1 ? CallbackResult::Raise(Exception{9}) : CallbackResult::Keep(1);
  };
  t.dealloc_major = [&](UserData) {
    ++deallocs;
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  const std::uint64_t size[] = {2};
  BlockId a = rt.AllocCaml(0, size).blocks.at(0);
  BlockId b = rt.AllocCaml(0, size).blocks.at(0);
  rt.MinorGc();
  memprof::Raised r = rt.Poll(0);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->tag, 9u);
  EXPECT_EQ(promotes, 1);
  ASSERT_FALSE(rt.Poll(0));  // the other entry's promotion still happens
  EXPECT_EQ(promotes, 2);
  rt.Release(a);
  rt.Release(b);
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(deallocs, 1);  // the entry whose promote raised is no longer tracked
}

TEST(EngineSemanticsTest, DeferredAllocationCallbacksDroppedOnceStopped) {
  SimRuntime rt;
  auto t1 = rt.NewThread(0);
  ASSERT_TRUE(t1.ok());
  MemprofThread* t0 = rt.memprof(0).current();
  Counting c;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, c.Make()).ok());
  ASSERT_TRUE(rt.EnterThread(0, *t1).ok());
  ASSERT_TRUE(rt.AllocMajor(0, 300).ok());  // callback pending on thread 1
  ASSERT_TRUE(rt.EnterThread(0, t0).ok());
  ASSERT_TRUE(rt.memprof(0).Stop().ok());  // thread 0 stops the profile
  ASSERT_TRUE(rt.EnterThread(0, *t1).ok());
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(c.allocs, 0);
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
}

TEST(EngineSemanticsTest, ChildDomainSharesProfileStatus) {
  SimRuntime rt;
  Counting c;
  auto p = rt.memprof(0).Start(1.0, 0, c.Make());
  ASSERT_TRUE(p.ok());
  auto child = rt.NewDomain(0);
  ASSERT_TRUE(child.ok());
  const std::uint64_t size[] = {2};
  ASSERT_TRUE(rt.AllocCaml(*child, size).ok());
  EXPECT_EQ(c.allocs, 1);
  ASSERT_TRUE(rt.memprof(0).Stop().ok());  // stopped in the parent: the child stops too
  ASSERT_TRUE(rt.AllocCaml(*child, size).ok());
  EXPECT_EQ(c.allocs, 1);
  EXPECT_EQ(rt.memprof(*child).Stop().status.message(), "Gc.Memprof.stop: no profile running.");
}

}  // namespace
}  // namespace mpo::sim
