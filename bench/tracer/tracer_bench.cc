// The memtrace tracer's cost on the simulated runtime.
//
// BM_Workload/<mode>/<1e6·λ>: one-block allocations from OCaml code (a fresh callstack
// site out of 64 every time), a minor collection every 4096 allocations (so samples are
// promoted or collected), polls in between. Mode 0 is the anchor: a tracker that only
// counts. Mode 1 writes a v3 memtrace trace (to memory, discarded). The counters give
// events per iteration and bytes written; compare the time per iteration of the two modes
// measured in the same run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/memtrace/byte_io.h"
#include "core/sim/sim_runtime.h"
#include "core/tracer/frame_locations.h"
#include "core/tracer/tracer.h"
#include "core/tracer/virtual_clock.h"

namespace mpo::tracer {
namespace {

class CountingSink : public memtrace::ByteSink {
 public:
  Status Write(std::span<const std::uint8_t> bytes) override {
    bytes_ += bytes.size();
    return Status::Ok();
  }
  std::uint64_t bytes_ = 0;
};

void BM_Workload(benchmark::State& state) {
  const bool traced = state.range(0) == 1;
  const double lambda = static_cast<double>(state.range(1)) / 1e6;
  sim::SimRuntime rt(sim::SimConfig{1 << 18});
  VirtualClock clock(1'700'000'000'000'000);
  CountingSink sink;
  FrameLocations frames;
  std::unique_ptr<Tracer> tracer;
  std::uint64_t events = 0;
  memprof::Tracker t;
  if (traced) {
    memtrace::Info info;
    info.sample_rate = lambda;
    info.pid = 1;
    TracerOptions o;
    o.sampling_rate = lambda;
    o.now_us = [&clock] { return clock.EpochMicroseconds(); };
    auto made = Tracer::Create(sink, info, o, frames);
    if (!made.ok()) {
      state.SkipWithError("tracer");
      return;
    }
    tracer = std::move(*made);
    t = tracer->MakeTracker();
  } else {
    t.alloc_minor = t.alloc_major = [&events](const memprof::AllocationInfo& i) {
      ++events;
      return memprof::CallbackResult::Keep(i.n_samples);
    };
    t.promote = [&events](memprof::UserData d) {
      ++events;
      return memprof::CallbackResult::Keep(d);
    };
    t.dealloc_minor = t.dealloc_major = [&events](memprof::UserData) {
      ++events;
      return memprof::CallbackResult::Drop();
    };
  }
  (void)rt.memprof(0).Start(lambda, 16, t);
  const std::uint64_t size[] = {3};
  std::uint64_t i = 0;
  std::vector<sim::BlockId> keep;
  for (auto _ : state) {
    rt.SetCallstack(0, {0x1000 + (i % 64), 0x2000 + (i % 7), 0x3000});
    auto a = rt.AllocCaml(0, size, i % 8 == 0);
    if (i % 8 == 0 && a.ok()) keep.push_back(a.blocks[0]);
    clock.Advance(100);
    if (++i % 4096 == 0) {
      rt.MinorGc();
      for (sim::BlockId b : keep) rt.Release(b);
      keep.clear();
    }
    if (i % 64 == 0) (void)rt.Poll(0);
  }
  if (tracer) {
    (void)tracer->Close();
    const TracerCounts& c = tracer->counts();
    events = c.allocs + c.promotes + c.collects;
  }
  state.counters["events_per_iter"] =
      benchmark::Counter(static_cast<double>(events) / static_cast<double>(state.iterations()));
  state.counters["trace_bytes"] = static_cast<double>(sink.bytes_);
}
BENCHMARK(BM_Workload)->ArgsProduct({{0, 1}, {1000, 100000}});

}  // namespace
}  // namespace mpo::tracer

BENCHMARK_MAIN();
