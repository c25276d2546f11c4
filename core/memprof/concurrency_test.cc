// The engine's cross-domain paths on real threads (StdPlatform): domains sampling under
// a shared profile, one stopping and discarding it, domains ending and their orphans
// adopted. Run under --config=tsan to check for races; counts must balance.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "core/memprof/engine.h"
#include "core/sync/std_platform.h"

namespace mpo::memprof {
namespace {

using P = sync::StdPlatform;

class MajorOnlyRuntime final : public RuntimeHooks {
 public:
  BlockAddr YoungPtr() const override { return 1000; }
  BlockAddr YoungStart() const override { return 0; }
  BlockAddr MemprofTrigger() const override { return 0; }
  void SetMemprofTrigger(BlockAddr) override {}
  bool IsYoung(BlockAddr) const override { return false; }
  void SetActionPending() override {}
  void CaptureCallstack(std::uint32_t, int, std::vector<std::uint64_t>&) override {}
  void UndoYoungAllocation(std::uint64_t) override {}
  BlockAddr RedoYoungAllocation(std::uint64_t) override { return 0; }
};

struct Counters {
  std::atomic<std::uint64_t> allocs{0}, deallocs{0};
  Tracker MakeTracker() {
    Tracker t;
    t.alloc_major = [this](const AllocationInfo& info) {
      allocs += info.n_samples;
      return CallbackResult::Keep(info.n_samples);
    };
    t.dealloc_major = [this](UserData n) {
      deallocs += n;
      return CallbackResult::Drop();
    };
    return t;
  }
};

TEST(ConcurrencyTest, EndingDomainsOrphansAreAdoptedExactlyOnce) {
  for (int round = 0; round < 20; ++round) {
    Engine<P> engine;
    Counters c;
    MajorOnlyRuntime hooks[5];
    auto root = std::make_unique<Domain<P>>(engine, hooks[0], 0);
    ASSERT_TRUE(root->Start(1.0, 0, c.MakeTracker()).ok());
    std::vector<std::unique_ptr<Domain<P>>> domains;
    for (std::uint32_t i = 1; i <= 3; ++i) {
      domains.push_back(std::make_unique<Domain<P>>(engine, hooks[i], i, root.get()));
    }
    std::vector<std::thread> threads;
    for (std::uint32_t i = 0; i < 3; ++i) {
      threads.emplace_back([&, i] {
        Domain<P>& d = *domains[i];
        for (int k = 0; k < 200; ++k) {
          d.SampleBlock(1 + 1000 * i + k, 2, 3, {});
          if (k % 16 == 0) (void)d.RunCallbacks();
        }
        (void)d.RunCallbacks();
        if (i == 2) {
          d.AfterMajorGc([](BlockAddr) { return false; });
          (void)d.RunCallbacks();
        }
        domains[i].reset();
      });
    }
    for (auto& t : threads) t.join();
    root->AfterMajorGc([](BlockAddr) { return false; });
    ASSERT_FALSE(root->RunCallbacks());
    EXPECT_EQ(c.allocs.load(), 3u * 200 * 3);
    EXPECT_EQ(c.deallocs.load(), c.allocs.load());
    EXPECT_FALSE(engine.orphans().present());
  }
}

TEST(ConcurrencyTest, StopAndDiscardRaceWithSamplingDomain) {
  for (int round = 0; round < 50; ++round) {
    Engine<P> engine;
    Counters c;
    MajorOnlyRuntime hooks[2];
    Domain<P> parent(engine, hooks[0], 0);
    auto profile = parent.Start(1.0, 0, c.MakeTracker());
    ASSERT_TRUE(profile.ok());
    Domain<P> child(engine, hooks[1], 1, &parent);
    std::atomic<bool> callback_after_discard{false};
    std::thread sampler([&] {
      for (int k = 0; k < 500; ++k) {
        child.SampleBlock(1 + k, 2, 3, {});
        const bool discarded = (*profile)->status() == ProfileStatusValue::kDiscarded;
        const std::uint64_t before = c.allocs.load() + c.deallocs.load();
        (void)child.RunCallbacks();
        child.AfterMajorGc([](BlockAddr) { return false; });
        (void)child.RunCallbacks();
        if (discarded && c.allocs.load() + c.deallocs.load() != before) {
          callback_after_discard = true;
        }
      }
    });
    ASSERT_TRUE(parent.Stop().ok());
    Status second_stop = Discard<P>(*profile);
    ASSERT_TRUE(second_stop.ok());
    sampler.join();
    EXPECT_FALSE(callback_after_discard.load());
    EXPECT_EQ(Discard<P>(*profile).message(), kDiscardAlreadyDiscarded);
  }
}

}  // namespace
}  // namespace mpo::memprof
