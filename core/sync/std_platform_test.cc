#include "core/sync/std_platform.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace mpo::sync {
namespace {

using P = StdPlatform;
using MO = MemoryOrder;

TEST(SourceLocTest, PointsAtTheCaller) {
  SourceLoc here = SourceLoc::Here();
  const unsigned expected_line = __LINE__ - 1;
  EXPECT_EQ(here.line, expected_line);
  EXPECT_NE(std::strstr(here.file, "std_platform_test.cc"), nullptr);
}

SourceLoc Passthrough(SourceLoc loc = SourceLoc::Here()) { return loc; }

TEST(SourceLocTest, DefaultArgumentCapturesCallSite) {
  const unsigned line = __LINE__ + 1;
  SourceLoc loc = Passthrough();
  EXPECT_EQ(loc.line, line);
}

TEST(StdPlatformTest, AtomicOperations) {
  P::Atomic<int> a(5);
  EXPECT_EQ(a.Load(MO::kAcquire), 5);
  a.Store(7, MO::kRelease);
  EXPECT_EQ(a.Exchange(9, MO::kAcqRel), 7);
  int expected = 1;
  EXPECT_FALSE(a.CompareExchange(expected, 2, MO::kAcqRel, MO::kAcquire));
  EXPECT_EQ(expected, 9);
  EXPECT_TRUE(a.CompareExchange(expected, 2, MO::kAcqRel, MO::kAcquire));
  EXPECT_EQ(a.FetchAdd(3, MO::kRelaxed), 2);
  EXPECT_EQ(a.Load(MO::kSeqCst), 5);
}

TEST(StdPlatformTest, ThreadsMutexAndVarCount) {
  P::Mutex m;
  P::Var<long> counter(0);
  P::Atomic<long> atomic_counter(0);
  std::vector<P::Thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.push_back(P::Thread::Start([&] {
      for (int i = 0; i < 10000; ++i) {
        {
          P::Lock lock(m);
          counter.Store(counter.Load() + 1);
        }
        atomic_counter.FetchAdd(1, MO::kRelaxed);
        if (i % 1000 == 0) P::Yield();
      }
    }));
  }
  for (auto& t : threads) t.Join();
  P::Fence(MO::kSeqCst);
  EXPECT_EQ(counter.Load(), 40000);
  EXPECT_EQ(atomic_counter.Load(MO::kRelaxed), 40000);
}

}  // namespace
}  // namespace mpo::sync
