// Relacy model of models/message_passing.h: the correct mailbox passes, the relaxed
// mutants are caught. Exits 0 only if all three outcomes are as expected.
#include <cstdio>

#include "models/message_passing.h"
#include "models/model_runner.h"

namespace mpo::models {
namespace {

using sync::MemoryOrder;

// Mutants: relaxed on one side.
struct RelaxedPublish : MailboxNoFaults {
  static constexpr MemoryOrder kPublish = MemoryOrder::kRelaxed;
};
struct RelaxedObserve : MailboxNoFaults {
  static constexpr MemoryOrder kObserve = MemoryOrder::kRelaxed;
};

template <class Faults>
struct MailboxSuite : rl::test_suite<MailboxSuite<Faults>, 1> {
  static const rl::thread_id_t dynamic_thread_count = 1;
  void thread(unsigned) {
    Mailbox<sync::RelacyPlatform, Faults> box;
    auto producer = sync::RelacyPlatform::Thread::Start([&] { box.Put(42); });
    int got = box.TryTake();
    RL_ASSERT(got == -1 || got == 42);
    producer.Join();
    RL_ASSERT(box.TryTake() == 42);
  }
};

}  // namespace
}  // namespace mpo::models

int main(int argc, char** argv) {
  using mpo::models::ExpectModel;
  using mpo::models::MailboxNoFaults;
  using mpo::models::MailboxSuite;
  using mpo::models::RelaxedObserve;
  using mpo::models::RelaxedPublish;
  // --search: the whole schedule tree (a few hundred executions) instead of samples.
  const bool search = mpo::models::SearchMode(argc, argv);
  const auto scheduler = search ? rl::sched_full : rl::sched_random;
  const unsigned iterations = search ? 0 : 200000;
  bool ok = true;
  ok &= ExpectModel<MailboxSuite<MailboxNoFaults>>("mailbox release/acquire", true, iterations,
                                                   scheduler);
  ok &= ExpectModel<MailboxSuite<RelaxedPublish>>("mailbox relaxed publish", false, iterations,
                                                  scheduler);
  ok &= ExpectModel<MailboxSuite<RelaxedObserve>>("mailbox relaxed observe", false, iterations,
                                                  scheduler);
  std::printf("%s\n", ok ? "all model outcomes as expected" : "MODEL OUTCOME MISMATCH");
  return ok ? 0 : 1;
}
