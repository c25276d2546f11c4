// Producer cost per event (with and without the timestamp read) and consumer
// throughput (OCaml's per-message validation vs batched validation), each beside an
// anchor measured in the same run: a plain masked store of the same three words, and
// the clock read itself. Report ratios to the anchors, not raw numbers.
#include <benchmark/benchmark.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/ring/cursor.h"
#include "core/ring/mapped_ring.h"
#include "core/ring/producer.h"
#include "core/ring/ring_protocol.h"
#include "core/sync/std_platform.h"

namespace mpo::ring {
namespace {

constexpr std::uint64_t kRingWords = 1u << 16;

// One domain's header and ring in ordinary memory.
struct MemoryRing {
  std::vector<std::uint64_t> header = std::vector<std::uint64_t>(10, 0);
  std::vector<std::uint64_t> data = std::vector<std::uint64_t>(kRingWords, 0);
  MappedRing ring{header.data(), data.data(), kRingWords};
};

// Anchor: what any ring must at least do per 3-word event.
void BM_Anchor_PlainMaskedStores(benchmark::State& state) {
  std::vector<std::uint64_t> data(kRingWords);
  std::uint64_t tail = 0;
  for (auto _ : state) {
    const std::uint64_t o = tail & (kRingWords - 1);
    data[o] = 0xc2000000000000;
    data[(o + 1) & (kRingWords - 1)] = tail;
    data[(o + 2) & (kRingWords - 1)] = tail;
    tail += 3;
    benchmark::DoNotOptimize(data.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Anchor_PlainMaskedStores);

// Anchor: the timestamp OCaml takes for every event (CLOCK_MONOTONIC).
void BM_Anchor_ClockRead(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(MonotonicNanoseconds());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Anchor_ClockRead);

// The protocol's write path, timestamp supplied: a counter event (3 words), in steady
// state (every write overwrites, so the producer fence runs each time).
void BM_Producer_NoClock(benchmark::State& state) {
  MemoryRing m;
  std::uint64_t i = 0;
  for (auto _ : state) {
    const std::uint64_t v = i++;
    benchmark::DoNotOptimize(WriteEvent<sync::StdPlatform>(m.ring, false, 4, 4, i,
                                                           std::span<const std::uint64_t>(&v, 1)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Producer_NoClock);

// The same before the ring first fills (no overwrite, so no producer fence and no read
// of the oldest header): the ring is emptied every 16384 events.
void BM_Producer_NoClock_NoOverwrite(benchmark::State& state) {
  MemoryRing m;
  std::uint64_t i = 0;
  for (auto _ : state) {
    const std::uint64_t v = i++;
    if ((i & 16383) == 0) {
      m.ring.StoreHead(0, sync::MemoryOrder::kRelaxed);
      m.ring.StoreTail(0, sync::MemoryOrder::kRelaxed);
    }
    benchmark::DoNotOptimize(WriteEvent<sync::StdPlatform>(m.ring, false, 4, 4, i,
                                                           std::span<const std::uint64_t>(&v, 1)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Producer_NoClock_NoOverwrite);

// The full public path: RuntimeEvents::Counter on a mapped file, clock included.
void BM_Producer_WithClock(benchmark::State& state) {
  ProducerOptions o;
  const char* t = std::getenv("TEST_TMPDIR");
  o.dir = t ? t : "/tmp";
  o.max_domains = 1;
  o.pid = 900000 + static_cast<int>(state.thread_index());
  RuntimeEvents ev(o);
  if (!ev.Start().ok()) {
    state.SkipWithError("cannot create the ring file");
    return;
  }
  std::uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(ev.Counter(0, 4, i++));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Producer_WithClock);

struct CountingSink {
  std::uint64_t sum = 0;
  bool Lost(std::uint64_t) { return true; }
  SinkAction Message(std::uint64_t, std::span<const std::uint64_t> w) {
    sum += w[2];
    return SinkAction::kContinue;
  }
};

// OCaml's consumer: a sequentially consistent fence after every message.
struct OcamlConsumerFence : ProtocolNoFaults {
  static constexpr sync::MemoryOrder kConsumerFence = sync::MemoryOrder::kSeqCst;
};

// Consumer: a full ring of counter events read again and again; Arg = messages per
// fence (1 = OCaml's algorithm).
template <class Protocol>
void BM_Consumer_ReadRing(benchmark::State& state) {
  MemoryRing m;
  for (std::uint64_t i = 0; i < 2 * kRingWords; ++i) {
    const std::uint64_t v = i;
    (void)WriteEvent<sync::StdPlatform>(m.ring, false, 4, 4, i,
                                        std::span<const std::uint64_t>(&v, 1));
  }
  const std::uint64_t head = m.ring.LoadHead(sync::MemoryOrder::kAcquire);
  std::vector<std::uint64_t> buffer(4 * kMaxMessageWords);
  CountingSink sink;
  std::uint64_t events = 0;
  for (auto _ : state) {
    std::uint64_t pos = head;
    const ReadResult r = ReadRing<sync::StdPlatform, Protocol>(
        m.ring, &pos, sink, 0, ReadBuffer{buffer, static_cast<std::size_t>(state.range(0))});
    events += r.consumed;
  }
  benchmark::DoNotOptimize(sink.sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
}
BENCHMARK(BM_Consumer_ReadRing<OcamlConsumerFence>)->Arg(1);
BENCHMARK(BM_Consumer_ReadRing<ProtocolNoFaults>)->Arg(1)->Arg(16)->Arg(64);

struct NullCallbacks : EventCallbacks {
  std::uint64_t sum = 0;
  bool RuntimeCounter(std::uint32_t, std::uint64_t, unsigned, std::uint64_t v) override {
    sum += v;
    return true;
  }
};

// Consumer through the public Cursor and virtual callbacks, in steady state: each
// pass the producer (untimed) adds 8192 counter events, the cursor (timed) reads them.
void BM_Consumer_Cursor(benchmark::State& state) {
  ProducerOptions o;
  const char* t = std::getenv("TEST_TMPDIR");
  o.dir = t ? t : "/tmp";
  o.max_domains = 1;
  o.pid = 910000;
  o.clock = [] { return std::uint64_t{12345}; };
  RuntimeEvents ev(o);
  if (!ev.Start().ok()) {
    state.SkipWithError("cannot create the ring file");
    return;
  }
  auto c = Cursor::OpenCurrent(
      ev.path(),
      CursorOptions{.batch_messages = static_cast<std::size_t>(state.range(0)), .rules = {}});
  NullCallbacks cb;
  std::uint64_t events = 0;
  for (auto _ : state) {
    state.PauseTiming();
    for (std::uint64_t i = 0; i < 8192; ++i) (void)ev.Counter(0, 4, i);
    state.ResumeTiming();
    events += *c->ReadPoll(cb);
  }
  benchmark::DoNotOptimize(cb.sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
}
BENCHMARK(BM_Consumer_Cursor)->Arg(1)->Arg(16)->Arg(64);

struct LossCounting : NullCallbacks {
  std::uint64_t lost_words = 0;
  bool LostEvents(std::uint32_t, std::uint64_t w) override {
    lost_words += w;
    return true;
  }
};

// Live: Arg producers, one per domain, flood their rings (clock included) while the
// consumer polls on the other core. Reports what the consumer kept up with.
void BM_Live_ProducersAndConsumer(benchmark::State& state) {
  const int producers = static_cast<int>(state.range(0));
  ProducerOptions o;
  const char* t = std::getenv("TEST_TMPDIR");
  o.dir = t ? t : "/tmp";
  o.max_domains = static_cast<std::uint64_t>(producers);
  o.pid = 920000;
  RuntimeEvents ev(o);
  if (!ev.Start().ok()) {
    state.SkipWithError("cannot create the ring file");
    return;
  }
  auto c = Cursor::OpenCurrent(ev.path(), CursorOptions{.batch_messages = 16, .rules = {}});
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> produced{0};
  std::vector<std::thread> threads;
  for (int d = 0; d < producers; ++d) {
    threads.emplace_back([&, d] {
      std::uint64_t n = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        for (int k = 0; k < 256; ++k) (void)ev.Counter(static_cast<std::uint32_t>(d), 4, n++);
      }
      produced.fetch_add(n);
    });
  }
  LossCounting cb;
  std::uint64_t events = 0;
  for (auto _ : state) events += *c->ReadPoll(cb);
  stop.store(true);
  for (auto& th : threads) th.join();
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
  state.counters["produced/s"] =
      benchmark::Counter(static_cast<double>(produced.load()), benchmark::Counter::kIsRate);
  state.counters["lost_words/s"] =
      benchmark::Counter(static_cast<double>(cb.lost_words), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Live_ProducersAndConsumer)->Arg(1)->Arg(2)->UseRealTime();

}  // namespace
}  // namespace mpo::ring

BENCHMARK_MAIN();
