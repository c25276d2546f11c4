// Benchmarks of the memprof engine.
//
// - BM_Alloc/<1e6·λ>: a one-block allocation from OCaml code on the simulated runtime.
//   λ = 0 is the anchor (the runtime alone); the "ns_per_sample" counter is the extra
//   cost per sample over the anchor measured in the same run.
// - BM_AfterMinorGc_Young/<young>/<old> and BM_AfterMinorGc_Total/<young>/<old>: the
//   collector's after-minor-GC pass; it must scale with the young entries only.
// - BM_ScanRoots/<young>/<old>/<young_only>: the GC's memprof root scan; young-only
//   (minor GC) must scale with the young entries only.
// - BM_TableMemory/<entries>: bytes per tracked entry, capacity slack included.
// - BM_MillionTracked/<tracked>: allocation cost with that many blocks already tracked
//   (10^6 must not degrade).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/memprof/engine.h"
#include "core/sim/sim_runtime.h"

namespace mpo::memprof {
namespace {

using P = sync::StdPlatform;

void BM_Alloc(benchmark::State& state) {
  const double lambda = static_cast<double>(state.range(0)) / 1e6;
  sim::SimRuntime rt(sim::SimConfig{1 << 18});
  std::uint64_t samples = 0;
  Tracker t;
  t.alloc_minor = [&](const AllocationInfo& info) {
    samples += info.n_samples;
    return CallbackResult::Keep(info.n_samples);
  };
  if (lambda > 0) (void)rt.memprof(0).Start(lambda, 4, t);
  rt.SetCallstack(0, {1, 2, 3, 4});
  const std::uint64_t size[] = {3};
  for (auto _ : state) {
    benchmark::DoNotOptimize(rt.AllocCaml(0, size, false));
    (void)rt.Poll(0);
  }
  state.counters["samples_per_alloc"] =
      benchmark::Counter(static_cast<double>(samples) / static_cast<double>(state.iterations()));
  state.counters["samples"] = static_cast<double>(samples);
}
BENCHMARK(BM_Alloc)->Arg(0)->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000);

// A runtime whose "young" blocks are those at or above kYoung.
class FakeRuntime final : public RuntimeHooks {
 public:
  static constexpr BlockAddr kYoung = BlockAddr{1} << 40;
  BlockAddr YoungPtr() const override { return kYoung + 1000; }
  BlockAddr YoungStart() const override { return kYoung; }
  BlockAddr MemprofTrigger() const override { return kYoung; }
  void SetMemprofTrigger(BlockAddr) override {}
  bool IsYoung(BlockAddr b) const override { return b >= kYoung; }
  void SetActionPending() override {}
  void CaptureCallstack(std::uint32_t, int, std::vector<std::uint64_t>&) override {}
  void UndoYoungAllocation(std::uint64_t) override {}
  BlockAddr RedoYoungAllocation(std::uint64_t) override { return kYoung; }
};

struct TrackedDomain {
  explicit TrackedDomain(std::int64_t old_entries) : domain(engine, hooks, 0) {
    Tracker t;
    t.alloc_major = t.alloc_minor = [](const AllocationInfo&) { return CallbackResult::Keep(1); };
    (void)domain.Start(1.0, 0, t);
    for (std::int64_t i = 0; i < old_entries; ++i) domain.SampleBlock(1000 + 2 * i, 1, 1, {});
    (void)domain.RunCallbacks();
    domain.AfterMinorGc([](BlockAddr b) { return b; });
  }
  void AddYoung(std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) {
      domain.SampleBlock(FakeRuntime::kYoung + 2 * i, 1, 1, {});
    }
    (void)domain.RunCallbacks();  // allocation callbacks; entries move to the domain table
  }
  Engine<P> engine;
  FakeRuntime hooks;
  Domain<P> domain;
};

void AfterMinorGc(benchmark::State& state) {
  const std::int64_t young = state.range(0);
  TrackedDomain td(state.range(1));
  const MinorFate die = [](BlockAddr) -> std::optional<BlockAddr> { return std::nullopt; };
  for (auto _ : state) {
    state.PauseTiming();
    td.AddYoung(young);
    state.ResumeTiming();
    td.domain.AfterMinorGc(die);
    state.PauseTiming();
    (void)td.domain.RunCallbacks();  // dealloc callbacks; dead entries evicted
    state.ResumeTiming();
  }
  state.counters["young"] = static_cast<double>(young);
  state.counters["total"] = static_cast<double>(young + state.range(1));
}
void BM_AfterMinorGc_Young(benchmark::State& state) { AfterMinorGc(state); }
void BM_AfterMinorGc_Total(benchmark::State& state) { AfterMinorGc(state); }
// Young entries grow, old entries fixed.
BENCHMARK(BM_AfterMinorGc_Young)
    ->Args({10, 100000})
    ->Args({100, 100000})
    ->Args({1000, 100000})
    ->Args({10000, 100000});
// Old entries grow, young entries fixed.
BENCHMARK(BM_AfterMinorGc_Total)
    ->Args({100, 1000})
    ->Args({100, 10000})
    ->Args({100, 100000})
    ->Args({100, 1000000});

// A minor GC's root scan (young_only): from each table's young index, so its cost follows
// the young entries, not all tracked ones; the last pair is the full (major GC) scan.
void BM_ScanRoots(benchmark::State& state) {
  const std::int64_t young = state.range(0);
  const bool young_only = state.range(2) != 0;
  TrackedDomain td(state.range(1));
  td.AddYoung(young);
  std::uint64_t visited = 0;
  for (auto _ : state) {
    td.domain.ScanRoots(
        young_only, false, [&](UserData& v) { visited += v; }, [](BlockAddr&) {});
  }
  benchmark::DoNotOptimize(visited);
  state.counters["young"] = static_cast<double>(young);
  state.counters["total"] = static_cast<double>(young + state.range(1));
}
BENCHMARK(BM_ScanRoots)
    ->Args({100, 1000, 1})
    ->Args({100, 100000, 1})
    ->Args({10000, 100000, 1})
    ->Args({100, 100000, 0});

void BM_TableMemory(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  double bytes_per_entry = 0;
  for (auto _ : state) {
    TrackedDomain td(n);
    std::size_t capacity = 0, size = 0;
    td.domain.ForEachTable([&](const ProfiledTable<P>& pt, TableKind) {
      capacity += pt.entries.capacity();
      size += pt.entries.size();
    });
    bytes_per_entry = static_cast<double>(capacity * sizeof(Entry)) / static_cast<double>(size);
  }
  state.counters["entry_bytes"] = static_cast<double>(sizeof(Entry));
  state.counters["bytes_per_entry_with_slack"] = bytes_per_entry;
}
BENCHMARK(BM_TableMemory)->Arg(1000)->Arg(1000000)->Iterations(1)->Unit(benchmark::kMillisecond);

// Allocation cost (λ = 0.01, every block kept) with `tracked` blocks already tracked.
void BM_MillionTracked(benchmark::State& state) {
  sim::SimRuntime rt(sim::SimConfig{1 << 18});
  Tracker t;
  t.alloc_minor = [](const AllocationInfo&) { return CallbackResult::Keep(1); };
  t.promote = [](UserData d) { return CallbackResult::Keep(d); };
  (void)rt.memprof(0).Start(1.0, 0, t);
  const std::uint64_t size[] = {1};
  for (std::int64_t i = 0; i < state.range(0); ++i) {
    (void)rt.AllocCaml(0, size, true);
    if (i % 4096 == 0) (void)rt.Poll(0);
  }
  rt.MinorGc();
  (void)rt.Poll(0);
  (void)rt.memprof(0).Stop();
  (void)rt.memprof(0).Start(0.01, 0, t);  // the old profile's blocks stay tracked (orphaned)
  std::size_t tracked = 0;
  rt.memprof(0).ForEachTable(
      [&](const ProfiledTable<P>& pt, TableKind) { tracked += pt.entries.size(); });
  for (auto _ : state) {
    benchmark::DoNotOptimize(rt.AllocCaml(0, size, false));
    (void)rt.Poll(0);
  }
  state.counters["tracked"] = static_cast<double>(tracked);
  state.counters["minor_gcs"] = static_cast<double>(rt.minor_collections());
}
BENCHMARK(BM_MillionTracked)->Arg(1000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kNanosecond);

}  // namespace
}  // namespace mpo::memprof

BENCHMARK_MAIN();
