// Relacy models of the memprof orphan lifecycle (runtime/memprof.c, design §1.5, §2):
// domains ending (abandoning their entries tables to the global list) while others
// adopt them. Checked: no table lost, none adopted twice, no use after free, no race.
//
// 1. The global list alone (core/memprof/orphans.h), three domains each abandoning two
//    tables then adopting; the correct protocol passes, and Relacy must catch each
//    mutant: the "present" flag cleared outside the lock (a table is stranded), and
//    adoption without the lock (a data race on the list head).
// 2. The whole engine (core/memprof/engine.h over the Relacy platform): domains sample
//    tracked blocks and end or adopt concurrently; every allocation callback is matched
//    by exactly one deallocation callback once a last domain collects. The mutant
//    platform whose lock does nothing must be caught.
#include <cstdio>
#include <memory>
#include <vector>

#include "core/memprof/engine.h"
#include "core/memprof/orphans.h"
#include "models/memprof/model_support.h"
#include "models/model_runner.h"

namespace mpo::models {
namespace {

using sync::RelacyPlatform;

// Mutants of the list's protocol (core/memprof/orphans.h).
struct ClearFlagOutsideLock : memprof::OrphansNoFaults {
  static constexpr bool kClearFlagInsideLock = false;
};
struct AdoptWithoutLock : memprof::OrphansNoFaults {
  static constexpr bool kAdoptLocks = false;
};

struct Node {
  RelacyPlatform::Var<int> owner{0};
  std::unique_ptr<Node> next;
};

// kDomains: domains that each abandon two tables, then adopt (the search runs 2).
template <class Faults, int kDomains = 3>
struct OrphanListSuite : rl::test_suite<OrphanListSuite<Faults, kDomains>, kDomains> {
  using List = memprof::GlobalOrphans<RelacyPlatform, Node, Faults>;
  std::unique_ptr<List> list;
  rl::atomic<int> adopted;

  void before() {
    list = std::make_unique<List>();
    adopted($) = 0;
  }
  void thread(unsigned idx) {
    // This domain ends: its two tables go to the global list.
    auto tables = std::make_unique<Node>();
    tables->next = std::make_unique<Node>();
    tables->owner.Store(static_cast<int>(idx) + 1);
    tables->next->owner.Store(static_cast<int>(idx) + 1);
    list->Abandon(std::move(tables));
    // Another domain looks at the list (a collection, or a poll).
    std::unique_ptr<Node> got = list->Adopt();
    for (Node* n = got.get(); n != nullptr; n = n->next.get()) {
      RL_ASSERT(n->owner.Load() > 0);
      n->owner.Store(100 + static_cast<int>(idx));
      adopted($).fetch_add(1, rl::mo_relaxed);
    }
  }
  void after() {
    // The last domain standing looks once more; nothing may be left behind.
    int rest = 0;
    std::unique_ptr<Node> got = list->Adopt();
    for (Node* n = got.get(); n != nullptr; n = n->next.get()) ++rest;
    RL_ASSERT(adopted($).load(rl::mo_relaxed) + rest == 2 * kDomains);
    list.reset();
  }
};

// kDomains domains sample kBlocks blocks each; the last of them collects once (adopting
// what was abandoned so far) and ends like the others. kSurvive: the blocks outlive that
// collection, so the adopted tables are abandoned again when the collector ends, while
// another domain may be abandoning too (without the lock, a race on the list head).
template <class P, int kDomains = 3, int kBlocks = 2, bool kSurvive = false>
struct EngineOrphansSuite
    : rl::test_suite<EngineOrphansSuite<P, kDomains, kBlocks, kSurvive>, kDomains> {
  using Domain = memprof::Domain<P>;
  std::unique_ptr<memprof::Engine<P>> engine;
  MajorOnlyRuntime hooks[kDomains + 1];
  std::unique_ptr<Domain> domains[kDomains];
  rl::atomic<int> allocs;
  rl::atomic<int> deallocs;

  memprof::Tracker MakeTracker() {
    memprof::Tracker t;
    t.alloc_major = [this](const memprof::AllocationInfo& info) {
      allocs($).fetch_add(static_cast<int>(info.n_samples), rl::mo_relaxed);
      return memprof::CallbackResult::Keep(info.n_samples);
    };
    t.dealloc_major = [this](memprof::UserData n) {
      deallocs($).fetch_add(static_cast<int>(n), rl::mo_relaxed);
      return memprof::CallbackResult::Drop();
    };
    return t;
  }

  void before() {
    allocs($) = 0;
    deallocs($) = 0;
    engine = std::make_unique<memprof::Engine<P>>();
    domains[0] = std::make_unique<Domain>(*engine, hooks[0], 0);
    RL_ASSERT(domains[0]->Start(1.0, 0, MakeTracker()).ok());
    for (int i = 1; i < kDomains; ++i)
      domains[i] = std::make_unique<Domain>(*engine, hooks[i], static_cast<std::uint32_t>(i),
                                            domains[0].get());
  }
  void thread(unsigned idx) {
    Domain& d = *domains[idx];
    for (int k = 0; k < kBlocks; ++k) d.SampleBlock(1000 + 10 * idx + k, 2, 3, {});
    RL_ASSERT(!d.RunCallbacks());
    if (idx == kDomains - 1) {
      // This domain collects: it adopts whatever was abandoned so far.
      d.AfterMajorGc([](memprof::BlockAddr) { return kSurvive; });
      RL_ASSERT(!d.RunCallbacks());
    }
    domains[idx].reset();  // the domain ends
  }
  void after() {
    Domain last(*engine, hooks[kDomains], static_cast<std::uint32_t>(kDomains));
    last.AfterMajorGc([](memprof::BlockAddr) { return false; });
    RL_ASSERT(!last.RunCallbacks());
    RL_ASSERT(allocs($).load(rl::mo_relaxed) == kDomains * kBlocks * 3);
    RL_ASSERT(deallocs($).load(rl::mo_relaxed) == allocs($).load(rl::mo_relaxed));
    engine.reset();
  }
};

}  // namespace
}  // namespace mpo::models

namespace mpo::models {
namespace {

using memprof::OrphansNoFaults;

bool RunRandom() {
  bool ok = true;
  ok &= ExpectModel<OrphanListSuite<OrphansNoFaults>>("orphans: list protocol", true);
  ok &= ExpectModel<OrphanListSuite<ClearFlagOutsideLock>>("orphans: flag cleared outside lock",
                                                           false);
  ok &= ExpectModel<OrphanListSuite<AdoptWithoutLock>>("orphans: adopt without lock", false);
  ok &= ExpectModel<EngineOrphansSuite<RelacyPlatform>>("orphans: engine", true, 20000);
  ok &= ExpectModel<EngineOrphansSuite<NoLockPlatform>>("orphans: engine, no lock", false, 20000);
  return ok;
}

// Context-bounded: every schedule with at most two preemptions (the flag mutant needs
// two) on the smallest list configuration, two domains. The engine, two domains with one
// block each, whose tables die at the collection or outlive it (then both domains abandon
// concurrently, which is where the no-lock mutant races): every schedule in which a
// thread runs until it ends or blocks (either may start), with every value each load
// may read; under `--deep` (ci/models_deep.sh) also one preemption anywhere (5.5 million
// executions, about ten minutes).
bool RunSearch(bool deep) {
  constexpr auto kBound = rl::sched_bound;
  constexpr unsigned kPreemptions = 2;
  const unsigned engine_preemptions = deep ? 1 : 0;
  bool ok = true;
  ok &= ExpectModel<OrphanListSuite<OrphansNoFaults, 2>>("orphans: list protocol, 2 domains", true,
                                                         0, kBound, kPreemptions);
  ok &= ExpectModel<OrphanListSuite<ClearFlagOutsideLock, 2>>("orphans: flag cleared outside lock",
                                                              false, 0, kBound, kPreemptions);
  ok &= ExpectModel<OrphanListSuite<AdoptWithoutLock, 2>>("orphans: adopt without lock", false, 0,
                                                          kBound, kPreemptions);
  ok &= ExpectModel<EngineOrphansSuite<RelacyPlatform, 2, 1>>(
      "orphans: engine, 2 domains, blocks die", true, 0, kBound, engine_preemptions);
  ok &= ExpectModel<EngineOrphansSuite<RelacyPlatform, 2, 1, true>>(
      "orphans: engine, 2 domains, blocks live", true, 0, kBound, engine_preemptions);
  ok &= ExpectModel<EngineOrphansSuite<NoLockPlatform, 2, 1, true>>(
      "orphans: engine, blocks live, no lock", false, 0, kBound, engine_preemptions);
  return ok;
}

}  // namespace
}  // namespace mpo::models

int main(int argc, char** argv) {
  const bool ok = mpo::models::SearchMode(argc, argv)
                      ? mpo::models::RunSearch(mpo::models::DeepMode(argc, argv))
                      : mpo::models::RunRandom();
  std::printf("%s\n", ok ? "all model outcomes as expected" : "MODEL OUTCOME MISMATCH");
  return ok ? 0 : 1;
}
