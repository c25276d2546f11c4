// Relacy models of the profile status (runtime/memprof.c, design §2): the one field
// domains write concurrently, when a profile is stopped or discarded while other
// domains sample under it and run its callbacks.
//
// 1. The status alone (core/memprof/profile.h): two domains race to stop and discard the
//    same profile while a third samples. Exactly one stop and one discard succeed, and
//    the sampler never sees the status go backwards. Mutants that must be caught: a
//    plain (non-atomic) status, and a check-then-store transition (two stops succeed).
// 2. The whole engine: a parent domain stops and discards the profile while its child
//    domain samples and runs callbacks. No callback after the child saw the discard;
//    the mutant platform whose atomics are plain variables must be caught.
#include <cstdio>
#include <memory>

#include "core/memprof/engine.h"
#include "core/memprof/profile.h"
#include "models/memprof/model_support.h"
#include "models/model_runner.h"

namespace mpo::models {
namespace {

using memprof::ProfileStatusValue;
using sync::RelacyPlatform;

// Mutants of the status (core/memprof/profile.h).
struct PlainStatus : memprof::StatusNoFaults {
  static constexpr bool kAtomicCell = false;
};
struct LoadThenStoreStatus : memprof::StatusNoFaults {
  static constexpr bool kTransitionIsCas = false;
};

template <class Faults>
struct StatusSuite : rl::test_suite<StatusSuite<Faults>, 3> {
  using Profile = memprof::Profile<RelacyPlatform, Faults>;
  std::unique_ptr<Profile> profile;
  rl::atomic<int> stops;
  rl::atomic<int> discards;

  void before() {
    stops($) = 0;
    discards($) = 0;
    profile =
        std::make_unique<Profile>(*memprof::ProfileParams::Make(0.5, 0), memprof::Tracker{}, 1);
  }
  void thread(unsigned idx) {
    if (idx < 2) {
      if (profile->Transition(ProfileStatusValue::kSampling, ProfileStatusValue::kStopped)) {
        stops($).fetch_add(1, rl::mo_relaxed);
      }
      if (memprof::DiscardProfile(*profile).ok()) discards($).fetch_add(1, rl::mo_relaxed);
    } else {
      // A sampling domain polls the status: it only moves forwards.
      int last = 0;
      for (int k = 0; k < 3; ++k) {
        const int now = static_cast<int>(profile->status());
        RL_ASSERT(now >= last);
        last = now;
      }
    }
  }
  void after() {
    RL_ASSERT(stops($).load(rl::mo_relaxed) == 1);
    RL_ASSERT(discards($).load(rl::mo_relaxed) == 1);
    RL_ASSERT(profile->status() == ProfileStatusValue::kDiscarded);
    profile.reset();
  }
};

// kRounds: sample-and-collect rounds of the child (the search runs the smallest, 1).
template <class P, int kRounds = 2>
struct EngineStatusSuite : rl::test_suite<EngineStatusSuite<P, kRounds>, 2> {
  using Domain = memprof::Domain<P>;
  std::unique_ptr<memprof::Engine<P>> engine;
  MajorOnlyRuntime hooks[2];
  std::unique_ptr<Domain> parent;
  std::unique_ptr<Domain> child;
  memprof::ProfileRef<P> profile;
  rl::atomic<int> callbacks;
  bool child_saw_discard = false;  // written and read by the child's thread only

  void before() {
    callbacks($) = 0;
    child_saw_discard = false;
    engine = std::make_unique<memprof::Engine<P>>();
    parent = std::make_unique<Domain>(*engine, hooks[0], 0);
    memprof::Tracker t;
    t.alloc_major = [this](const memprof::AllocationInfo&) {
      RL_ASSERT(!child_saw_discard);
      callbacks($).fetch_add(1, rl::mo_relaxed);
      return memprof::CallbackResult::Keep(1);
    };
    t.dealloc_major = [this](memprof::UserData) {
      RL_ASSERT(!child_saw_discard);
      callbacks($).fetch_add(1, rl::mo_relaxed);
      return memprof::CallbackResult::Drop();
    };
    auto p = parent->Start(1.0, 0, std::move(t));
    RL_ASSERT(p.ok());
    profile = *p;
    child = std::make_unique<Domain>(*engine, hooks[1], 1, parent.get());
  }
  void thread(unsigned idx) {
    if (idx == 0) {
      RL_ASSERT(parent->Stop().ok());
      RL_ASSERT(memprof::Discard<P>(profile).ok());
    } else {
      for (int k = 0; k < kRounds; ++k) {
        child->SampleBlock(1000 + k, 2, 3, {});
        if (profile->status() == ProfileStatusValue::kDiscarded) child_saw_discard = true;
        RL_ASSERT(!child->RunCallbacks());
        child->AfterMajorGc([](memprof::BlockAddr) { return false; });
        if (profile->status() == ProfileStatusValue::kDiscarded) child_saw_discard = true;
        RL_ASSERT(!child->RunCallbacks());
      }
    }
  }
  void after() {
    RL_ASSERT(callbacks($).load(rl::mo_relaxed) <=
              2 * kRounds);  // an allocation and a deallocation per round
    child.reset();
    parent.reset();
    profile.reset();
    engine.reset();
  }
};

}  // namespace
}  // namespace mpo::models

namespace mpo::models {
namespace {

using memprof::StatusNoFaults;

bool RunRandom() {
  bool ok = true;
  ok &= ExpectModel<StatusSuite<StatusNoFaults>>("status: atomic transitions", true);
  ok &= ExpectModel<StatusSuite<PlainStatus>>("status: plain variable", false);
  ok &= ExpectModel<StatusSuite<LoadThenStoreStatus>>("status: load then store", false);
  ok &= ExpectModel<EngineStatusSuite<RelacyPlatform>>("status: engine", true, 20000);
  ok &= ExpectModel<EngineStatusSuite<PlainAtomicPlatform>>("status: engine, plain atomics", false,
                                                            20000);
  return ok;
}

// Context-bounded: every schedule with at most kPreemptions preemptions, on the
// smallest engine configuration (one round).
bool RunSearch() {
  constexpr auto kBound = rl::sched_bound;
  constexpr unsigned kPreemptions = 2;
  constexpr unsigned kEnginePreemptions = 1;
  bool ok = true;
  ok &= ExpectModel<StatusSuite<StatusNoFaults>>("status: atomic transitions", true, 0, kBound,
                                                 kPreemptions);
  ok &= ExpectModel<StatusSuite<PlainStatus>>("status: plain variable", false, 0, kBound,
                                              kPreemptions);
  ok &= ExpectModel<StatusSuite<LoadThenStoreStatus>>("status: load then store", false, 0, kBound,
                                                      kPreemptions);
  ok &= ExpectModel<EngineStatusSuite<RelacyPlatform, 1>>("status: engine, 1 round", true, 0,
                                                          kBound, kEnginePreemptions);
  ok &= ExpectModel<EngineStatusSuite<PlainAtomicPlatform, 1>>(
      "status: engine, 1 round, plain atomics", false, 0, kBound, kEnginePreemptions);
  return ok;
}

}  // namespace
}  // namespace mpo::models

int main(int argc, char** argv) {
  const bool ok =
      mpo::models::SearchMode(argc, argv) ? mpo::models::RunSearch() : mpo::models::RunRandom();
  std::printf("%s\n", ok ? "all model outcomes as expected" : "MODEL OUTCOME MISMATCH");
  return ok ? 0 : 1;
}
