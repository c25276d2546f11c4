// Relacy model of models/message_passing.h: the correct mailbox passes, the relaxed
// mutants are caught. Exits 0 only if all three outcomes are as expected.
#include <cstdio>

#include "models/message_passing.h"
#include "models/model_runner.h"

namespace mpo::models {
namespace {

using sync::MemoryOrder;

template <MemoryOrder kPublish, MemoryOrder kObserve>
struct MailboxSuite : rl::test_suite<MailboxSuite<kPublish, kObserve>, 1> {
  static const rl::thread_id_t dynamic_thread_count = 1;
  void thread(unsigned) {
    Mailbox<sync::RelacyPlatform, kPublish, kObserve> box;
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
  using mpo::models::MailboxSuite;
  using MO = mpo::sync::MemoryOrder;
  // --search: the whole schedule tree (a few hundred executions) instead of samples.
  const bool search = mpo::models::SearchMode(argc, argv);
  const auto scheduler = search ? rl::sched_full : rl::sched_random;
  const unsigned iterations = search ? 0 : 200000;
  bool ok = true;
  ok &= ExpectModel<MailboxSuite<MO::kRelease, MO::kAcquire>>("mailbox release/acquire", true,
                                                              iterations, scheduler);
  ok &= ExpectModel<MailboxSuite<MO::kRelaxed, MO::kAcquire>>("mailbox relaxed publish", false,
                                                              iterations, scheduler);
  ok &= ExpectModel<MailboxSuite<MO::kRelease, MO::kRelaxed>>("mailbox relaxed observe", false,
                                                              iterations, scheduler);
  std::printf("%s\n", ok ? "all model outcomes as expected" : "MODEL OUTCOME MISMATCH");
  return ok ? 0 : 1;
}
