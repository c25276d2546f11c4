#include "core/sim/sim_runtime.h"

#include <gtest/gtest.h>

namespace mpo::sim {
namespace {

using memprof::CallbackResult;

TEST(SimRuntimeTest, AllocatesDownwardsAndPromotesSurvivors) {
  SimRuntime rt(SimConfig{4096});
  const std::uint64_t sizes[] = {3, 1};
  auto a = rt.AllocCaml(0, sizes);
  ASSERT_TRUE(a.ok());
  ASSERT_EQ(a.blocks.size(), 2u);
  const BlockAddr first = *rt.AddressOf(a.blocks[0]);
  EXPECT_EQ(*rt.AddressOf(a.blocks[1]), first + 4);
  auto b = rt.AllocCaml(0, sizes);
  EXPECT_EQ(*rt.AddressOf(b.blocks[0]), first - 6);
  rt.Release(b.blocks[0]);
  rt.MinorGc();
  EXPECT_FALSE(rt.IsAllocated(b.blocks[0]));
  EXPECT_TRUE(rt.IsAllocated(a.blocks[0]));
  EXPECT_NE(*rt.AddressOf(a.blocks[0]), first);  // promoted: moved
  EXPECT_EQ(rt.live_blocks(), 3u);
  rt.Release(a.blocks[0]);
  rt.MajorGc();
  EXPECT_EQ(rt.live_blocks(), 2u);
  const BlockAddr before = *rt.AddressOf(a.blocks[1]);
  rt.Compact();
  EXPECT_NE(*rt.AddressOf(a.blocks[1]), before);
  EXPECT_EQ(rt.minor_words(0), 12u);
}

TEST(SimRuntimeTest, FullMinorHeapTriggersCollection) {
  SimRuntime rt(SimConfig{1024});
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t size[] = {3};
    ASSERT_TRUE(rt.AllocCaml(0, size, false).ok());
  }
  EXPECT_GE(rt.minor_collections(), 3u);
}

TEST(SimRuntimeTest, RejectsBadRequests) {
  SimRuntime rt;
  const std::uint64_t too_big[] = {257};
  EXPECT_EQ(rt.AllocCaml(0, too_big).status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(rt.AllocCaml(0, {}).status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(rt.AllocCaml(5, too_big).status.code(), ErrorCode::kNotFound);
  EXPECT_EQ(rt.AllocSmallFromC(0, 0).status.code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(rt.EndDomain(3).ok());
}

TEST(SimRuntimeTest, CallstacksAreSynthetic) {
  SimRuntime rt;
  rt.SetCallstack(0, {7, 8, 9});
  std::vector<std::vector<std::uint64_t>> seen;
  memprof::Tracker t;
  t.alloc_minor = [&](const memprof::AllocationInfo& info) {
    seen.emplace_back(info.callstack.begin(), info.callstack.end());
    return CallbackResult::Drop();
  };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 3, t).ok());
  const std::uint64_t sizes[] = {1, 1};
  ASSERT_TRUE(rt.AllocCaml(0, sizes).ok());
  ASSERT_EQ(seen.size(), 2u);
  // Sub-allocations are called back from the last one (highest address) down.
  EXPECT_EQ(seen[0], (std::vector<std::uint64_t>{kAllocSiteBase + 1, 7, 8}));
  EXPECT_EQ(seen[1], (std::vector<std::uint64_t>{kAllocSiteBase, 7, 8}));
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
}

}  // namespace
}  // namespace mpo::sim
