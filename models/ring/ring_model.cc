// Relacy models of the runtime events ring (core/ring/ring_protocol.h, the very code
// production runs) on a 16-word ring with wrap-around, padding and overwrite.
//
// A producer thread writes messages of 3-5 words whose payload is a checksum of their
// sequence number; the consumer polls while it writes, then once more after it stops.
// Invariants: every delivered message is intact and in order; delivered + lost +
// padding words equal everything written (the final tail); a valid producer never
// makes the consumer report a corrupt stream. The correct protocol must pass, with
// OCaml's per-message validation and with batched validation; each mutant must be
// caught. Also the pause/resume CAS and the poll gate.
#include <cstdint>
#include <cstdio>
#include <span>

#include "core/ring/ring_protocol.h"
#include "core/ring/ring_switch.h"
#include "models/model_runner.h"
#include "models/ring/model_ring.h"

namespace mpo::models {
namespace {

using sync::MemoryOrder;
using P = sync::RelacyPlatform;
using ring::ReadStatus;
using ring::SinkAction;

constexpr std::size_t kRingWords = 16;

constexpr std::uint64_t PayloadWords(unsigned seq) { return 1 + seq % 3; }
constexpr std::uint64_t Stamp(unsigned seq) { return 7 * seq + 1; }
constexpr std::uint64_t Check(unsigned seq, std::uint64_t j) { return 1000 * seq + j; }

// Checks each delivered message and accounts for every word.
struct CheckingSink {
  int last_seq = -1;
  std::uint64_t delivered_words = 0;
  std::uint64_t lost_words = 0;
  bool lost_since_last = false;

  bool Lost(std::uint64_t words) {
    lost_words += words;
    lost_since_last = true;
    return true;
  }
  SinkAction Message(std::uint64_t, std::span<const std::uint64_t> w) {
    const unsigned seq = ring::header::Id(w[0]);
    RL_ASSERT(ring::header::Type(w[0]) == 4 && !ring::header::IsUser(w[0]));
    RL_ASSERT(w.size() == 2 + PayloadWords(seq));
    RL_ASSERT(w[1] == Stamp(seq));
    for (std::uint64_t j = 0; j + 2 < w.size(); ++j) RL_ASSERT(w[2 + j] == Check(seq, j));
    // In order, and a gap only where a loss was reported.
    RL_ASSERT(static_cast<int>(seq) > last_seq);
    RL_ASSERT(static_cast<int>(seq) == last_seq + 1 || lost_since_last);
    last_seq = static_cast<int>(seq);
    lost_since_last = false;
    delivered_words += w.size();
    return SinkAction::kContinue;
  }
};

// kMessages are written in all; the first kPrefill before the consumer starts (4 fill
// the ring, so that the producer's next write already overwrites the message the
// consumer is copying); kPolls polls race the producer before the final one.
template <class Protocol, std::size_t kBatch, unsigned kMessages = 9, unsigned kPrefill = 4,
          unsigned kPolls = 2>
struct RingSuite : rl::test_suite<RingSuite<Protocol, kBatch, kMessages, kPrefill, kPolls>, 1> {
  static const rl::thread_id_t dynamic_thread_count = 1;

  void thread(unsigned) {
    ModelRing<P, kRingWords> r;
    auto write = [&r](unsigned seq) {
      std::uint64_t payload[3];
      for (std::uint64_t j = 0; j < PayloadWords(seq); ++j) payload[j] = Check(seq, j);
      const auto out = ring::WriteEvent<P, Protocol>(
          r, false, 4, seq, Stamp(seq), std::span<const std::uint64_t>(payload, PayloadWords(seq)));
      RL_ASSERT(out == ring::WriteOutcome::kWritten);
    };
    for (unsigned seq = 0; seq < kPrefill; ++seq) write(seq);
    auto producer = P::Thread::Start([&] {
      for (unsigned seq = kPrefill; seq < kMessages; ++seq) write(seq);
    });
    CheckingSink sink;
    std::uint64_t position = 0;
    std::uint64_t padding = 0;
    std::uint64_t buffer[ring::kMaxMessageWords];
    auto poll = [&] {
      const ring::ReadResult res = ring::ReadRing<P, Protocol>(
          r, &position, sink, 0, ring::ReadBuffer{std::span(buffer), kBatch});
      RL_ASSERT(res.status == ReadStatus::kDrained);
      padding += res.padding_words;
    };
    for (unsigned i = 0; i < kPolls; ++i) poll();
    producer.Join();
    poll();
    const std::uint64_t tail = r.LoadTail(MemoryOrder::kRelaxed);
    RL_ASSERT(position == tail);
    RL_ASSERT(sink.delivered_words + sink.lost_words + padding == tail);
    RL_ASSERT(sink.last_seq == static_cast<int>(kMessages) - 1);
  }
};

struct RelaxedTailStore : ring::ProtocolNoFaults {
  static constexpr MemoryOrder kTailStore = MemoryOrder::kRelaxed;
};
struct NoHeadRecheck : ring::ProtocolNoFaults {
  static constexpr bool kRecheckHead = false;
};
struct NoProducerFence : ring::ProtocolNoFaults {
  static constexpr bool kProducerFence = false;
};
struct RelaxedHeadStore : ring::ProtocolNoFaults {
  static constexpr MemoryOrder kHeadStore = MemoryOrder::kRelaxed;
};
struct RelaxedHeadStoreNoFence : RelaxedHeadStore {
  static constexpr bool kProducerFence = false;
};

// Two threads pause at once: exactly one wins (and would write the pause event).
struct PauseSuite : rl::test_suite<PauseSuite, 2> {
  ring::RingSwitch<P>* sw = nullptr;
  P::Atomic<int>* wins = nullptr;
  void before() {
    sw = new ring::RingSwitch<P>();
    wins = new P::Atomic<int>(0);
    sw->SetEnabled(true);
  }
  void thread(unsigned idx) {
    if (sw->Pause()) wins->FetchAdd(1, MemoryOrder::kRelaxed);
    if (idx == 1 && sw->Resume()) wins->FetchAdd(10, MemoryOrder::kRelaxed);
  }
  void after() {
    const int w = wins->Load(MemoryOrder::kRelaxed);
    // One pause won; the resume wins iff it ran after a pause.
    RL_ASSERT(w == 1 || w == 11 || w == 12);
    delete wins;
    delete sw;
  }
};

// Mutant of the poll gate: check, then set, which lets two polls in.
struct CheckThenSetGate : ring::PollGateNoFaults {
  template <class Flag>
  static bool Claim(Flag& busy) {
    if (busy.Load(MemoryOrder::kAcquire) != 0) return false;
    busy.Store(1, MemoryOrder::kRelease);
    return true;
  }
};

// The poll gate keeps two polls of one cursor apart: the plain counter they both
// update is never raced.
template <class Faults>
struct GateSuite : rl::test_suite<GateSuite<Faults>, 2> {
  ring::PollGate<P, Faults>* gate = nullptr;
  P::Var<int>* polls = nullptr;
  void before() {
    gate = new ring::PollGate<P, Faults>();
    polls = new P::Var<int>(0);
  }
  void thread(unsigned) {
    if (gate->TryEnter()) {
      polls->Store(polls->Load() + 1);
      gate->Leave();
    }
  }
  void after() {
    delete polls;
    delete gate;
  }
};

}  // namespace
}  // namespace mpo::models

namespace mpo::models {
namespace {

using ring::ProtocolNoFaults;

bool RunRandom() {
  constexpr unsigned kIterations = 100000;
  bool ok = true;
  ok &= ExpectModel<RingSuite<ProtocolNoFaults, 1>>("ring: OCaml per-message check", true,
                                                    kIterations);
  ok &= ExpectModel<RingSuite<ProtocolNoFaults, 4>>("ring: batched check (4)", true, kIterations);
  ok &= ExpectModel<RingSuite<ProtocolNoFaults, 64>>("ring: batched check (64)", true, kIterations);
  ok &=
      ExpectModel<RingSuite<RelaxedTailStore, 1>>("mutant: relaxed tail store", false, kIterations);
  ok &= ExpectModel<RingSuite<NoHeadRecheck, 1>>("mutant: no head re-check", false, kIterations);
  ok &= ExpectModel<RingSuite<NoHeadRecheck, 4>>("mutant: no head re-check (batch)", false,
                                                 kIterations);
  ok &= ExpectModel<RingSuite<NoProducerFence, 1>>("mutant: no producer fence", false, kIterations);
  ok &= ExpectModel<RingSuite<NoProducerFence, 4>>("mutant: no producer fence (batch)", false,
                                                   kIterations);
  ok &= ExpectModel<RingSuite<RelaxedHeadStoreNoFence, 1>>("mutant: relaxed head, no fence", false,
                                                           kIterations);
  // With the fence after it, the head store's own order does not matter: the fence
  // publishes it (the brief's "relaxed head store" mutant is only a bug without it).
  ok &= ExpectModel<RingSuite<RelaxedHeadStore, 1>>("relaxed head store + fence (safe)", true,
                                                    kIterations);
  ok &= ExpectModel<PauseSuite>("pause/resume CAS", true, 20000);
  ok &= ExpectModel<GateSuite<ring::PollGateNoFaults>>("poll gate CAS", true, 20000);
  ok &= ExpectModel<GateSuite<CheckThenSetGate>>("mutant: poll gate check-then-set", false, 20000);
  return ok;
}

// The smallest ring that still overwrites: four messages fill it, a fifth written by
// the producer overwrites the oldest while one poll races it.
template <class Protocol, std::size_t kBatch>
using SmallRing = RingSuite<Protocol, kBatch, 5, 4, 1>;

// Context-bounded: every schedule with at most kPreemptions preemptions (the full tree
// of this model has ~10^11 executions). The mutants are caught within 2 preemptions.
bool RunSearch() {
  constexpr auto kBound = rl::sched_bound;
  constexpr unsigned kPreemptions = 3;
  constexpr unsigned kMutantPreemptions = 2;
  bool ok = true;
  ok &= ExpectModel<SmallRing<ProtocolNoFaults, 1>>("ring: OCaml per-message check", true, 0,
                                                    kBound, kPreemptions);
  ok &= ExpectModel<SmallRing<ProtocolNoFaults, 4>>("ring: batched check (4)", true, 0, kBound,
                                                    kPreemptions);
  ok &= ExpectModel<SmallRing<RelaxedTailStore, 1>>("mutant: relaxed tail store", false, 0, kBound,
                                                    kMutantPreemptions);
  ok &= ExpectModel<SmallRing<NoHeadRecheck, 1>>("mutant: no head re-check", false, 0, kBound,
                                                 kMutantPreemptions);
  ok &= ExpectModel<SmallRing<NoProducerFence, 1>>("mutant: no producer fence", false, 0, kBound,
                                                   kMutantPreemptions);
  ok &= ExpectModel<SmallRing<RelaxedHeadStoreNoFence, 1>>("mutant: relaxed head, no fence", false,
                                                           0, kBound, kMutantPreemptions);
  // Two threads, a few steps each: the whole schedule tree is small.
  ok &= ExpectModel<PauseSuite>("pause/resume CAS", true, 0, rl::sched_full);
  ok &= ExpectModel<GateSuite<ring::PollGateNoFaults>>("poll gate CAS", true, 0, rl::sched_full);
  ok &= ExpectModel<GateSuite<CheckThenSetGate>>("mutant: poll gate check-then-set", false, 0,
                                                 rl::sched_full);
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
