// runtime/memprof.c's recovery when the C heap refuses an allocation, reproduced with
// the simulated runtime's deterministic fault injection (SimRuntime::c_heap()). Each
// test asserts what OCaml does: the sample is dropped (no callback), entries stay where
// they were or are lost, Start fails with Out_of_memory and changes nothing, a thread
// or domain cannot be created; everything else keeps working and the invariants hold.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "core/sim/sim_runtime.h"

namespace mpo::sim {
namespace {

using memprof::AllocationInfo;
using memprof::CallbackResult;
using memprof::CHeapSite;
using memprof::Exception;
using memprof::TableKind;
using memprof::Tracker;
using memprof::UserData;
using P = sync::StdPlatform;

constexpr std::uint64_t kMajorWords = 300;

// Counts callbacks per tracked allocation (user data = a serial number); optionally
// raises on the `raise_at`th allocation callback.
struct Counter {
  int raise_at = -1;
  int alloc_calls = 0;
  std::vector<std::vector<std::uint64_t>> callstacks;  // per kept allocation
  std::map<UserData, int> deallocs;
  int promotes = 0;

  Tracker Make() {
    Tracker t;
    t.alloc_minor = t.alloc_major = [this](const AllocationInfo& info) {
      if (alloc_calls++ == raise_at) return CallbackResult::Raise(Exception{9});
      callstacks.emplace_back(info.callstack.begin(), info.callstack.end());
      return CallbackResult::Keep(callstacks.size());
    };
    t.promote = [this](UserData v) {
      ++promotes;
      return CallbackResult::Keep(v);
    };
    t.dealloc_minor = t.dealloc_major = [this](UserData v) {
      ++deallocs[v];
      return CallbackResult::Drop();
    };
    return t;
  }
  std::size_t kept() const { return callstacks.size(); }
  int total_deallocs() const {
    int n = 0;
    for (const auto& [v, k] : deallocs) {
      EXPECT_EQ(k, 1) << "user data " << v << " deallocated " << k << " times";
      n += k;
    }
    return n;
  }
};

std::size_t EntriesIn(SimRuntime& rt, std::uint32_t domain, TableKind kind) {
  std::size_t n = 0;
  rt.memprof(domain).ForEachTable([&](const memprof::ProfiledTable<P>& pt, TableKind k) {
    if (k == kind) n += pt.entries.size();
  });
  return n;
}

// Releases `blocks`, collects, and polls so every due callback runs.
void CollectAll(SimRuntime& rt, std::uint32_t domain, const std::vector<BlockId>& blocks) {
  for (BlockId b : blocks) rt.Release(b);
  rt.MajorGc();
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(rt.Poll(domain));
}

TEST(MemprofOutOfMemoryTest, TableThatCannotGrowDropsTheSample) {
  SimRuntime rt(SimConfig{4096});
  Counter c;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, c.Make()).ok());
  rt.c_heap().Fail(CHeapSite::kEntries, 0, 1);
  auto dropped = rt.AllocMajor(0, kMajorWords);  // the thread's table cannot grow
  ASSERT_TRUE(dropped.ok());
  EXPECT_TRUE(rt.IsAllocated(dropped.blocks[0]));  // the block itself is allocated
  EXPECT_EQ(rt.c_heap().refusals(CHeapSite::kEntries), 1u);
  EXPECT_EQ(EntriesIn(rt, 0, TableKind::kThread), 0u);
  auto tracked = rt.AllocMajor(0, kMajorWords);
  const std::uint64_t small_c = 4;
  auto young = rt.AllocSmallFromC(0, small_c);
  ASSERT_TRUE(tracked.ok() && young.ok());
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(c.alloc_calls, 2);  // none for the dropped sample
  CollectAll(rt, 0, {dropped.blocks[0], tracked.blocks[0], young.blocks[0]});
  EXPECT_EQ(c.total_deallocs(), 2);
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
}

TEST(MemprofOutOfMemoryTest, CombinedAllocationDropsOnlyTheRefusedSubBlock) {
  SimRuntime rt(SimConfig{4096});
  Counter c;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, c.Make()).ok());
  // Sub-allocations are sampled from the last to the first: the last one's entry is
  // the table's first growth, and is refused.
  rt.c_heap().Fail(CHeapSite::kEntries, 0, 1);
  const std::uint64_t sizes[] = {2, 2, 2};
  auto a = rt.AllocCaml(0, sizes);
  ASSERT_TRUE(a.ok());
  ASSERT_EQ(a.blocks.size(), 3u);
  ASSERT_EQ(c.kept(), 2u);
  // The synthetic innermost frame names the sub-allocation: 1 then 0 were called back.
  EXPECT_EQ(c.callstacks[0].at(0), kAllocSiteBase + 1);
  EXPECT_EQ(c.callstacks[1].at(0), kAllocSiteBase + 0);
  CollectAll(rt, 0, a.blocks);
  EXPECT_EQ(c.total_deallocs(), 2);
  EXPECT_EQ(c.promotes, 0);
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
}

TEST(MemprofOutOfMemoryTest, RefusedCallstackCaptureLeavesAnEmptyCallstack) {
  SimRuntime rt(SimConfig{4096});
  Counter c;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 4, c.Make()).ok());
  rt.SetCallstack(0, {7, 8, 9});
  rt.c_heap().Fail(CHeapSite::kCallstack, 0, 1);
  auto first = rt.AllocMajor(0, kMajorWords);
  auto second = rt.AllocMajor(0, kMajorWords);
  ASSERT_FALSE(rt.Poll(0));
  ASSERT_EQ(c.kept(), 2u);               // the sample is still tracked ...
  EXPECT_TRUE(c.callstacks[0].empty());  // ... with no callstack
  EXPECT_EQ(c.callstacks[1], (std::vector<std::uint64_t>{7, 8, 9}));
  // A combined allocation's callstack goes through the same buffer: refused, its
  // sub-block is called back with no frames; the next capture works again.
  rt.c_heap().Fail(CHeapSite::kCallstack, 0, 1);
  const std::uint64_t sizes[] = {3};
  auto refused = rt.AllocCaml(0, sizes);
  auto comb = rt.AllocCaml(0, sizes);
  ASSERT_TRUE(refused.ok() && comb.ok());
  ASSERT_EQ(c.kept(), 4u);
  EXPECT_TRUE(c.callstacks[2].empty());
  EXPECT_EQ(c.callstacks[3], (std::vector<std::uint64_t>{kAllocSiteBase, 7, 8, 9}));
  EXPECT_EQ(rt.c_heap().refusals(CHeapSite::kCallstack), 2u);
  CollectAll(rt, 0, {first.blocks[0], second.blocks[0], refused.blocks[0], comb.blocks[0]});
  EXPECT_EQ(c.total_deallocs(), 4);
}

TEST(MemprofOutOfMemoryTest, FailedTransferAfterPollLeavesEntriesWithTheThread) {
  SimRuntime rt(SimConfig{4096});
  Counter c;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, c.Make()).ok());
  auto a = rt.AllocMajor(0, kMajorWords);
  ASSERT_TRUE(a.ok());
  // The next growth is the domain table's, when the poll transfers the entry.
  rt.c_heap().Fail(CHeapSite::kEntries, 0, 1);
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(c.alloc_calls, 1);
  EXPECT_EQ(EntriesIn(rt, 0, TableKind::kThread), 1u);
  EXPECT_EQ(EntriesIn(rt, 0, TableKind::kDomain), 0u);
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
  // Still tracked from there: its dealloc callback runs.
  CollectAll(rt, 0, a.blocks);
  EXPECT_EQ(c.total_deallocs(), 1);
  EXPECT_EQ(c.alloc_calls, 1);
}

TEST(MemprofOutOfMemoryTest, FailedTransferAfterCombinedAllocationIsRetriedLater) {
  SimRuntime rt(SimConfig{4096});
  Counter c;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, c.Make()).ok());
  // Growth 1: the thread's table (the entry); growth 2: the domain's (the transfer).
  rt.c_heap().Fail(CHeapSite::kEntries, 1, 1);
  const std::uint64_t sizes[] = {5};
  auto a = rt.AllocCaml(0, sizes);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(c.kept(), 1u);
  EXPECT_EQ(EntriesIn(rt, 0, TableKind::kThread), 1u);
  // The promote callback still comes; a later poll moves the entry to the domain.
  rt.MinorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(c.promotes, 1);
  EXPECT_EQ(EntriesIn(rt, 0, TableKind::kThread), 0u);
  EXPECT_EQ(EntriesIn(rt, 0, TableKind::kDomain), 1u);
  CollectAll(rt, 0, a.blocks);
  EXPECT_EQ(c.total_deallocs(), 1);
}

// A thread whose table keeps a called-back entry (a later callback raised), then ends.
void EndThreadWithEntry(bool refuse) {
  SimRuntime rt(SimConfig{4096});
  Counter c;
  c.raise_at = 1;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, c.Make()).ok());
  MemprofThread* main = rt.memprof(0).current();
  auto t = rt.NewThread(0);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(rt.EnterThread(0, *t).ok());
  auto a = rt.AllocMajor(0, kMajorWords);
  auto b = rt.AllocMajor(0, kMajorWords);
  ASSERT_TRUE(rt.Poll(0).has_value());
  ASSERT_EQ(c.kept(), 1u);
  ASSERT_EQ(EntriesIn(rt, 0, TableKind::kThread), 1u);
  ASSERT_TRUE(rt.EnterThread(0, main).ok());
  if (refuse) rt.c_heap().Fail(CHeapSite::kEntries, 0, 1);
  ASSERT_TRUE(rt.EndThread(0, *t).ok());
  EXPECT_EQ(rt.memprof(0).thread_count(), 1u);
  EXPECT_EQ(EntriesIn(rt, 0, TableKind::kDomain), refuse ? 0u : 1u);
  CollectAll(rt, 0, {a.blocks[0], b.blocks[0]});
  // OCaml loses the entries of a thread it cannot transfer: no dealloc callback.
  EXPECT_EQ(c.total_deallocs(), refuse ? 0 : 1);
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
}

TEST(MemprofOutOfMemoryTest, EndingThreadLosesEntriesItCannotTransfer) {
  EndThreadWithEntry(false);
  EndThreadWithEntry(true);
}

TEST(MemprofOutOfMemoryTest, StartFailsWithOutOfMemoryAndChangesNothing) {
  for (CHeapSite site : {CHeapSite::kOrphanTable, CHeapSite::kEntries}) {
    SCOPED_TRACE(static_cast<int>(site));
    SimRuntime rt(SimConfig{4096});
    Counter old_tracker, new_tracker;
    auto old_profile = rt.memprof(0).Start(1.0, 1, old_tracker.Make());
    ASSERT_TRUE(old_profile.ok());
    auto a = rt.AllocMajor(0, kMajorWords);
    ASSERT_FALSE(rt.Poll(0));
    ASSERT_TRUE(rt.memprof(0).Stop().ok());
    rt.c_heap().Fail(site, 0, 1);
    auto refused = rt.memprof(0).Start(1.0, 1, new_tracker.Make());
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), ErrorCode::kResourceExhausted);
    EXPECT_EQ(refused.status().message(), "Out_of_memory");
    EXPECT_EQ(rt.memprof(0).profile(), *old_profile);  // still the stopped profile
    EXPECT_EQ(rt.memprof(0).orphan_table_count(), 0u);
    EXPECT_EQ(EntriesIn(rt, 0, TableKind::kDomain), 1u);
    // Not sampling: nothing new is tracked; the old entry still gets its dealloc.
    auto b = rt.AllocMajor(0, kMajorWords);
    CollectAll(rt, 0, {a.blocks[0], b.blocks[0]});
    EXPECT_EQ(old_tracker.total_deallocs(), 1);
    EXPECT_EQ(new_tracker.alloc_calls, 0);
    // The C heap recovered: Start works.
    EXPECT_TRUE(rt.memprof(0).Start(1.0, 1, new_tracker.Make()).ok());
    EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
  }
}

// Found by the fuzzer: a restart orphans the domain's and the thread's entries into one
// pre-sized table. The transfers into it must not need the C heap again (OCaml's shrink
// then grow), or the old profile's entries would stay in the thread's table and get
// their later callbacks from the new profile's tracker.
TEST(MemprofOutOfMemoryTest, RestartOrphansEverythingIntoThePreSizedTable) {
  SimRuntime rt(SimConfig{4096});
  Counter old_tracker, new_tracker;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, old_tracker.Make()).ok());
  std::vector<BlockId> blocks;
  for (int i = 0; i < 8; ++i) blocks.push_back(rt.AllocMajor(0, kMajorWords).blocks.at(0));
  ASSERT_FALSE(rt.Poll(0));  // 8 called-back entries in the domain's table
  for (int i = 0; i < 9; ++i) blocks.push_back(rt.AllocMajor(0, kMajorWords).blocks.at(0));
  ASSERT_TRUE(rt.memprof(0).Stop().ok());  // runs the thread's 9 allocation callbacks
  ASSERT_EQ(EntriesIn(rt, 0, TableKind::kThread), 9u);
  // The orphan table's own growth passes; any later growth would be refused.
  rt.c_heap().Fail(CHeapSite::kEntries, 1, 1);
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, new_tracker.Make()).ok());
  EXPECT_EQ(rt.c_heap().refusals(CHeapSite::kEntries), 0u);
  EXPECT_EQ(EntriesIn(rt, 0, TableKind::kThread), 0u);
  EXPECT_EQ(EntriesIn(rt, 0, TableKind::kOrphan), 17u);
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(new_tracker.alloc_calls, 0);
  rt.c_heap().Clear();
  CollectAll(rt, 0, blocks);
  EXPECT_EQ(old_tracker.total_deallocs(), 17);
  EXPECT_EQ(new_tracker.total_deallocs(), 0);
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
}

void EndDomainWithEntry(bool refuse) {
  SimRuntime rt(SimConfig{4096});
  Counter c;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, c.Make()).ok());
  auto child = rt.NewDomain(0);
  ASSERT_TRUE(child.ok());
  auto a = rt.AllocMajor(*child, kMajorWords);
  ASSERT_FALSE(rt.Poll(*child));
  ASSERT_EQ(c.kept(), 1u);
  if (refuse) rt.c_heap().Fail(CHeapSite::kOrphanTable, 0, 1);
  ASSERT_TRUE(rt.EndDomain(*child).ok());
  auto b = rt.AllocMajor(0, kMajorWords);  // domain 0 is unaffected
  CollectAll(rt, 0, {a.blocks[0], b.blocks[0]});
  EXPECT_EQ(c.kept(), 2u);
  // The ending domain's entries are lost when no orphan table can hold them.
  EXPECT_EQ(c.total_deallocs(), refuse ? 1 : 2);
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
}

TEST(MemprofOutOfMemoryTest, EndingDomainLosesEntriesWithoutAnOrphanTable) {
  EndDomainWithEntry(false);
  EndDomainWithEntry(true);
}

TEST(MemprofOutOfMemoryTest, ThreadStateRefusedMeansNoThread) {
  SimRuntime rt;
  rt.c_heap().Fail(CHeapSite::kThread, 0, 1);
  auto t = rt.NewThread(0);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(), "Out_of_memory");
  EXPECT_EQ(rt.memprof(0).thread_count(), 1u);
  EXPECT_TRUE(rt.NewThread(0).ok());
  EXPECT_EQ(rt.memprof(0).thread_count(), 2u);
}

TEST(MemprofOutOfMemoryTest, DomainStateRefusedMeansNoDomain) {
  SimRuntime rt;
  Counter c;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, c.Make()).ok());
  // The domain's own state, then its first thread's: either refusal fails the domain.
  for (CHeapSite site : {CHeapSite::kDomain, CHeapSite::kThread}) {
    rt.c_heap().Fail(site, 0, 1);
    auto d = rt.NewDomain(0);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.status().message(), "Out_of_memory");
    EXPECT_EQ(rt.domain_slots(), 1u);
  }
  auto d = rt.NewDomain(0);
  ASSERT_TRUE(d.ok());
  auto a = rt.AllocMajor(*d, kMajorWords);
  ASSERT_FALSE(rt.Poll(*d));
  EXPECT_EQ(c.kept(), 1u);  // the new domain samples under the inherited profile
}

}  // namespace
}  // namespace mpo::sim
