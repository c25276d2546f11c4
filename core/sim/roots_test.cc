// Memprof's GC roots (caml_memprof_scan_roots) on the simulated runtime with user data
// as values: what user data and a profile's tracker name stays alive, is promoted by a
// minor GC and moved by compaction, for entries in each kind of table (domain, thread,
// orphan); tracked blocks themselves stay weak. Each scenario runs on any fault policy
// (core/memprof/faults.h): on the correct engine it passes, and EachRootMutantIsCaught
// shows that it fails on the mutants (core/memprof/mutants.h) that skip its root.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "core/memprof/mutants.h"
#include "core/sim/sim_runtime.h"
#include "core/sim/sim_runtime_impl.h"

namespace mpo::sim {
namespace {

using memprof::AllocationInfo;
using memprof::CallbackResult;
using memprof::Exception;
using memprof::TableKind;
using memprof::Tracker;
using memprof::UserData;
using P = sync::StdPlatform;

constexpr std::uint64_t kTrackedWords = 300;  // a major block, sampled at λ = 1

SimConfig ValueConfig() {
  SimConfig c;
  c.minor_heap_words = 4096;
  c.user_data_are_values = true;
  return c;
}

// Which table of `domain` holds an entry whose user data names `block` (none: no entry).
template <class Rt>
std::optional<TableKind> RootHolder(Rt& rt, std::uint32_t domain, BlockId block) {
  std::optional<TableKind> holder;
  rt.memprof(domain).ForEachTable([&](const memprof::ProfiledTable<P>& pt, TableKind kind) {
    for (const memprof::Entry& e : pt.entries.entries()) {
      if (!e.deleted() && !e.stashed() && rt.BlockOf(e.user_data) == block) holder = kind;
    }
  });
  return holder;
}

// A tracker whose allocation callback allocates a fresh young block, reachable only from
// the user data it returns (or raises, the `raise_at`th time); its dealloc callback
// records the block the user data names then.
template <class Rt>
struct ValueTracker {
  explicit ValueTracker(Rt& runtime) : rt(runtime) {}
  Rt& rt;
  std::uint32_t domain = 0;
  int raise_at = -1;  // which allocation callback raises instead
  int calls = 0;
  std::vector<BlockId> made;
  std::vector<std::optional<BlockId>> dealloc_saw;

  Tracker Make() {
    Tracker t;
    t.alloc_minor = t.alloc_major = [this](const AllocationInfo&) {
      if (calls++ == raise_at) return CallbackResult::Raise(Exception{1});
      auto a = rt.AllocSmallFromC(domain, 3, /*reachable=*/false);
      made.push_back(a.blocks.at(0));
      return CallbackResult::Keep(rt.ValueOf(a.blocks[0]));
    };
    t.dealloc_minor = t.dealloc_major = [this](UserData v) {
      dealloc_saw.push_back(rt.BlockOf(v));
      return CallbackResult::Drop();
    };
    return t;
  }
};

// The held block survives minor and major GCs and compaction, the user data following it
// each time it moves, while `holder` is the table kind holding it.
template <class Rt>
void ExpectRootedThroughCollections(Rt& rt, std::uint32_t domain, BlockId held, TableKind holder) {
  ASSERT_EQ(RootHolder(rt, domain, held), holder);
  EXPECT_TRUE(rt.IsAllocated(held));
  rt.MinorGc();
  ASSERT_TRUE(rt.IsAllocated(held)) << "a young block named only by user data died";
  EXPECT_EQ(RootHolder(rt, domain, held), holder) << "user data not updated on promotion";
  rt.MajorGc();
  rt.MajorGc();
  ASSERT_TRUE(rt.IsAllocated(held)) << "a block named only by user data died";
  const BlockAddr before = *rt.AddressOf(held);
  rt.Compact();
  EXPECT_NE(*rt.AddressOf(held), before);
  EXPECT_EQ(RootHolder(rt, domain, held), holder) << "user data not updated by compaction";
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
}

template <class Faults>
void DomainTableUserDataIsAStrongRoot() {
  BasicSimRuntime<Faults> rt(ValueConfig());
  ValueTracker vt(rt);
  auto profile = rt.memprof(0).Start(1.0, 1, vt.Make());
  ASSERT_TRUE(profile.ok());
  auto tracked = rt.AllocMajor(0, kTrackedWords);
  ASSERT_TRUE(tracked.ok());
  // A minor GC before the callback: the entry is old when young user data arrives.
  rt.MinorGc();
  ASSERT_FALSE(rt.Poll(0));
  ASSERT_EQ(vt.made.size(), 1u);
  const BlockId held = vt.made[0];
  ExpectRootedThroughCollections(rt, 0, held, TableKind::kDomain);

  // The tracked block is weak: released, it dies, and the dealloc callback gets user
  // data that still names the held block at its current address.
  rt.Release(tracked.blocks[0]);
  rt.MajorGc();
  EXPECT_FALSE(rt.IsAllocated(tracked.blocks[0]));
  ASSERT_FALSE(rt.Poll(0));
  ASSERT_EQ(vt.dealloc_saw.size(), 1u);
  EXPECT_EQ(vt.dealloc_saw[0], held);
  // Tracking ended: nothing roots the held block any more.
  rt.MajorGc();
  EXPECT_FALSE(rt.IsAllocated(held));
}

template <class Faults>
void ThreadTableUserDataIsAStrongRoot() {
  BasicSimRuntime<Faults> rt(ValueConfig());
  ValueTracker vt(rt);
  vt.raise_at = 1;  // the second allocation callback raises
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, vt.Make()).ok());
  ASSERT_TRUE(rt.AllocMajor(0, kTrackedWords).ok());
  ASSERT_TRUE(rt.AllocMajor(0, kTrackedWords).ok());
  rt.MinorGc();
  // The exception stops the poll before the thread's entries move to the domain: the
  // first entry, with its user data, stays in the thread's table.
  ASSERT_TRUE(rt.Poll(0).has_value());
  ASSERT_EQ(vt.made.size(), 1u);
  ExpectRootedThroughCollections(rt, 0, vt.made[0], TableKind::kThread);
}

template <class Faults>
void OrphanTableUserDataIsAStrongRoot() {
  BasicSimRuntime<Faults> rt(ValueConfig());
  ValueTracker vt(rt);
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, vt.Make()).ok());
  ASSERT_TRUE(rt.AllocMajor(0, kTrackedWords).ok());
  rt.MinorGc();
  ASSERT_FALSE(rt.Poll(0));
  ASSERT_EQ(vt.made.size(), 1u);
  // Restarting orphans the old profile's entries; the held block is still young.
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
  ValueTracker other(rt);
  ASSERT_TRUE(rt.memprof(0).Start(0.0, 1, other.Make()).ok());
  ASSERT_EQ(rt.memprof(0).orphan_table_count(), 1u);
  ExpectRootedThroughCollections(rt, 0, vt.made[0], TableKind::kOrphan);
}

template <class Faults>
void GlobalOrphansAreAdoptedAndScanned() {
  BasicSimRuntime<Faults> rt(ValueConfig());
  ValueTracker vt(rt);
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 1, vt.Make()).ok());
  auto child = rt.NewDomain(0);
  ASSERT_TRUE(child.ok());
  vt.domain = *child;
  auto tracked = rt.AllocMajor(*child, kTrackedWords);
  ASSERT_TRUE(tracked.ok());
  ASSERT_FALSE(rt.Poll(*child));
  ASSERT_EQ(vt.made.size(), 1u);
  const BlockId held = vt.made[0];
  // The ending domain abandons its entries; the next collection adopts them into
  // domain 0 while scanning roots.
  ASSERT_TRUE(rt.EndDomain(*child).ok());
  rt.MajorGc();
  ASSERT_TRUE(rt.IsAllocated(held)) << "an abandoned orphan's user data was not scanned";
  ExpectRootedThroughCollections(rt, 0, held, TableKind::kOrphan);
  // The adopted entry still gets its dealloc callback, on domain 0.
  vt.domain = 0;
  rt.Release(tracked.blocks[0]);
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  ASSERT_EQ(vt.dealloc_saw.size(), 1u);
  EXPECT_EQ(vt.dealloc_saw[0], held);
}

template <class Faults>
void TrackerRootsLiveAsLongAsATableUsesTheProfile() {
  BasicSimRuntime<Faults> rt(ValueConfig());
  auto young = rt.AllocSmallFromC(0, 5, /*reachable=*/false);
  ASSERT_TRUE(young.ok());
  const BlockId captured = young.blocks[0];
  Tracker t;
  t.roots = {rt.ValueOf(captured), memprof::UserData{sim::IntValue(7)}};
  auto profile = rt.memprof(0).Start(0.5, 1, t);
  ASSERT_TRUE(profile.ok());
  std::vector<UserData>& roots = (*profile)->roots();
  rt.MinorGc();
  ASSERT_TRUE(rt.IsAllocated(captured)) << "a young tracker root was not scanned";
  EXPECT_EQ(rt.BlockOf(roots[0]), captured);
  EXPECT_EQ(roots[1], sim::IntValue(7));
  rt.MajorGc();
  ASSERT_TRUE(rt.IsAllocated(captured));
  const BlockAddr before = *rt.AddressOf(captured);
  rt.Compact();
  EXPECT_NE(*rt.AddressOf(captured), before);
  EXPECT_EQ(rt.BlockOf(roots[0]), captured);
  // Stopped, the profile is still every table's: still a root.
  ASSERT_TRUE(rt.memprof(0).Stop().ok());
  rt.MajorGc();
  ASSERT_TRUE(rt.IsAllocated(captured));
  // Discarded, the tables forget it at the next scan: the block dies.
  ASSERT_TRUE(memprof::Discard<P>(*profile).ok());
  rt.MajorGc();
  EXPECT_FALSE(rt.IsAllocated(captured));
}

template <class Faults>
void ImmediatesAndStashedCallstacksAreLeftAlone() {
  BasicSimRuntime<Faults> rt(ValueConfig());
  std::vector<std::uint64_t> frames;
  std::vector<UserData> deallocs;
  Tracker t;
  t.alloc_major = [&](const AllocationInfo& info) {
    frames.assign(info.callstack.begin(), info.callstack.end());
    return CallbackResult::Keep(IntValue(-3));
  };
  t.dealloc_major = [&](UserData v) {
    deallocs.push_back(v);
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 4, t).ok());
  rt.SetCallstack(0, {11, 22, 33});
  auto tracked = rt.AllocMajor(0, kTrackedWords);
  ASSERT_TRUE(tracked.ok());
  // The entry's stashed callstack is C memory: scanning must not touch it.
  rt.MinorGc();
  rt.MajorGc();
  rt.Compact();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(frames, (std::vector<std::uint64_t>{11, 22, 33}));
  rt.Release(tracked.blocks[0]);
  rt.Compact();
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(deallocs, std::vector<UserData>{IntValue(-3)});
}

template <class Faults>
void OpaqueUserDataIsNeverInterpreted() {
  BasicSimRuntime<Faults> rt;  // user data as plain numbers (tracers' object ids)
  auto young = rt.AllocSmallFromC(0, 5, /*reachable=*/false);
  ASSERT_TRUE(young.ok());
  const UserData looks_like_a_block = rt.ValueOf(young.blocks[0]);
  std::vector<UserData> deallocs;
  Tracker t;
  t.alloc_major = [&](const AllocationInfo&) { return CallbackResult::Keep(looks_like_a_block); };
  t.dealloc_major = [&](UserData v) {
    deallocs.push_back(v);
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 0, t).ok());
  auto tracked = rt.AllocMajor(0, kTrackedWords);
  ASSERT_FALSE(rt.Poll(0));
  rt.MinorGc();
  EXPECT_FALSE(rt.IsAllocated(young.blocks[0]));  // not a root
  rt.Release(tracked.blocks[0]);
  rt.Compact();
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0));
  EXPECT_EQ(deallocs, std::vector<UserData>{looks_like_a_block});  // unchanged
}

template <class Faults>
void RunEveryScenario() {
  DomainTableUserDataIsAStrongRoot<Faults>();
  ThreadTableUserDataIsAStrongRoot<Faults>();
  OrphanTableUserDataIsAStrongRoot<Faults>();
  GlobalOrphansAreAdoptedAndScanned<Faults>();
  TrackerRootsLiveAsLongAsATableUsesTheProfile<Faults>();
  ImmediatesAndStashedCallstacksAreLeftAlone<Faults>();
  OpaqueUserDataIsNeverInterpreted<Faults>();
}

TEST(MemprofRootsTest, DomainTableUserDataIsAStrongRoot) {
  DomainTableUserDataIsAStrongRoot<memprof::NoFaults>();
}
TEST(MemprofRootsTest, ThreadTableUserDataIsAStrongRoot) {
  ThreadTableUserDataIsAStrongRoot<memprof::NoFaults>();
}
TEST(MemprofRootsTest, OrphanTableUserDataIsAStrongRoot) {
  OrphanTableUserDataIsAStrongRoot<memprof::NoFaults>();
}
TEST(MemprofRootsTest, GlobalOrphansAreAdoptedAndScanned) {
  GlobalOrphansAreAdoptedAndScanned<memprof::NoFaults>();
}
TEST(MemprofRootsTest, TrackerRootsLiveAsLongAsATableUsesTheProfile) {
  TrackerRootsLiveAsLongAsATableUsesTheProfile<memprof::NoFaults>();
}
TEST(MemprofRootsTest, ImmediatesAndStashedCallstacksAreLeftAlone) {
  ImmediatesAndStashedCallstacksAreLeftAlone<memprof::NoFaults>();
}
TEST(MemprofRootsTest, OpaqueUserDataIsNeverInterpreted) {
  OpaqueUserDataIsNeverInterpreted<memprof::NoFaults>();
}
// Runs every scenario on the mutant `Faults`, intercepting their failures: the mutant is
// caught when one of them reports `expected`. Prints how.
template <class Faults>
void ExpectCaught(const std::string& expected) {
  testing::TestPartResultArray failures;
  {
    testing::ScopedFakeTestPartResultReporter intercept(
        testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    RunEveryScenario<Faults>();
  }
  bool caught = false;
  for (int i = 0; i < failures.size(); ++i) {
    const testing::TestPartResult& failure = failures.GetTestPartResult(i);
    if (std::string(failure.message()).find(expected) == std::string::npos) continue;
    caught = true;
    std::cout << "mutant " << Faults::kName << " caught: " << failure.file_name() << ":"
              << failure.line_number() << ": " << expected << "\n";
    break;
  }
  EXPECT_TRUE(caught) << "mutant " << Faults::kName << " escaped (" << failures.size()
                      << " other failures); expected: " << expected;
}

// The mutants that skip a root, and what the scenario about that root reports.
TEST(MemprofRootsTest, EachRootMutantIsCaught) {
  ExpectCaught<memprof::SkipUserDataRoots>("a young block named only by user data died");
  ExpectCaught<memprof::SkipConfigRoots>("a young tracker root was not scanned");
  ExpectCaught<memprof::YoungUserDataNotNoted>("a young block named only by user data died");
}

}  // namespace
}  // namespace mpo::sim
