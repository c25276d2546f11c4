#include "core/sim/workload.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mpo::sim {
namespace {

using memprof::CallbackResult;

// Records everything the workload asks of its host, as text; tracks one external
// allocation in three.
struct Host final : WorkloadHost {
  std::vector<std::string> calls;
  std::uint64_t elapsed = 0, externals = 0, frees = 0;
  std::int64_t next = 0;
  void Elapse(std::uint64_t ns) override {
    elapsed += ns;
    calls.push_back("t" + std::to_string(ns));
  }
  void Running(std::uint32_t d) override { calls.push_back("r" + std::to_string(d)); }
  std::optional<std::int64_t> ExternalAlloc(std::uint32_t d, std::uint64_t bytes,
                                            std::span<const std::uint64_t> stack) override {
    ++externals;
    EXPECT_EQ(stack.size(), 3u);
    EXPECT_TRUE(IsWorkloadSiteFrame(stack[0]));
    EXPECT_EQ(stack[1], WorkloadDomainFrame(d));
    EXPECT_EQ(stack[2], kWorkloadMainFrame);
    calls.push_back("x" + std::to_string(d) + ":" + std::to_string(bytes));
    if (externals % 3 != 0) return std::nullopt;
    return next++;
  }
  void ExternalFree(std::uint32_t d, std::int64_t h) override {
    ++frees;
    calls.push_back("f" + std::to_string(d) + ":" + std::to_string(h));
  }
};

struct Outcome {
  std::vector<std::string> calls;
  WorkloadStats stats;
  std::uint64_t minors = 0, majors = 0, samples = 0, frees = 0;
  std::int64_t tracked_externals = 0;
  std::size_t live_blocks = 0;
};

Outcome RunWorkload(std::uint64_t seed, std::uint32_t domains, std::uint64_t steps,
                    double lambda = 0.01) {
  SimRuntime rt(SimConfig{32 * 1024});
  Outcome out;
  memprof::Tracker t;
  auto alloc = [&out](const memprof::AllocationInfo& i) {
    out.samples += i.n_samples;
    return CallbackResult::Keep(1);
  };
  t.alloc_minor = alloc;
  t.alloc_major = alloc;
  t.promote = [](memprof::UserData d) { return CallbackResult::Keep(d); };
  EXPECT_TRUE(rt.memprof(0).Start(lambda, 8, t).ok());
  Host host;
  auto w = Workload::Create(rt, host, {seed, domains, steps});
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return out;
  EXPECT_TRUE((*w)->Run().ok());
  EXPECT_TRUE((*w)->Teardown().ok());
  out.calls = std::move(host.calls);
  out.stats = (*w)->stats();
  out.minors = rt.minor_collections();
  out.majors = rt.major_collections();
  out.frees = host.frees;
  out.tracked_externals = host.next;
  out.live_blocks = rt.live_blocks();
  EXPECT_TRUE(rt.CheckInvariants().ok()) << rt.CheckInvariants().ToString();
  return out;
}

TEST(Workload, TheSameSeedGivesTheSameWorkload) {
  const Outcome a = RunWorkload(7, 3, 1500);
  const Outcome b = RunWorkload(7, 3, 1500);
  ASSERT_FALSE(a.calls.empty());
  EXPECT_EQ(a.calls, b.calls);
  EXPECT_EQ(a.stats.words_allocated, b.stats.words_allocated);
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.minors, b.minors);
}

TEST(Workload, ADifferentSeedGivesADifferentWorkload) {
  const Outcome a = RunWorkload(7, 3, 1500);
  const Outcome c = RunWorkload(8, 3, 1500);
  EXPECT_NE(a.calls, c.calls);
  EXPECT_NE(a.stats.words_allocated, c.stats.words_allocated);
}

TEST(Workload, StaysWithinItsStepBudget) {
  const Outcome r = RunWorkload(3, 4, 1000);
  // The last domain ends halfway through (after the slice that holds step 500).
  EXPECT_LE(r.stats.steps, 4u * 1000);
  EXPECT_GE(r.stats.steps, 3u * 1000 + 500);
  EXPECT_EQ(r.stats.domains_ended, 1u);
  // At most one structure of at most 24 allocations per step.
  EXPECT_LE(r.stats.allocations, r.stats.steps * 24);
  EXPECT_GT(r.stats.allocations, r.stats.steps / 2);
  EXPECT_EQ(r.stats.major_collections, 6u + 1);  // every steps / 6, and the teardown's
  EXPECT_EQ(r.majors, r.stats.major_collections);
  EXPECT_EQ(r.stats.compactions, 1u);
  EXPECT_GT(r.minors, r.majors);
  // Teardown: every block is garbage and collected, every tracked external freed.
  EXPECT_EQ(r.live_blocks, 0u);
  EXPECT_EQ(r.frees, static_cast<std::uint64_t>(r.tracked_externals));
  EXPECT_EQ(r.stats.external_frees, r.frees);
  EXPECT_GT(r.stats.external_allocations, 0u);
}

TEST(Workload, OneDomainNeverEnds) {
  const Outcome r = RunWorkload(5, 1, 700);
  EXPECT_EQ(r.stats.steps, 700u);
  EXPECT_EQ(r.stats.domains_ended, 0u);
}

TEST(Workload, EveryWordIsSampledAtLambdaOne) {
  const Outcome r = RunWorkload(2, 2, 200, 1.0);
  EXPECT_EQ(r.samples, r.stats.words_allocated);
}

TEST(Workload, BadDomainCountsAreTypedErrors) {
  SimRuntime rt;
  Host host;
  for (std::uint32_t n : {0u, kWorkloadMaxDomains + 1}) {
    auto w = Workload::Create(rt, host, {1, n, 10});
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.status().code(), ErrorCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace mpo::sim
