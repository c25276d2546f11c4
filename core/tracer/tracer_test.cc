#include "core/tracer/tracer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include "core/memtrace/trace_reader.h"
#include "core/ring/cursor.h"
#include "core/sim/sim_runtime.h"
#include "core/tracer/external_sampler.h"
#include "core/tracer/frame_locations.h"
#include "core/tracer/ring_reporter.h"
#include "core/tracer/virtual_clock.h"

namespace mpo::tracer {
namespace {

using memtrace::EventKind;
using memtrace::OcamlInt;

memtrace::Info TestInfo() {
  memtrace::Info info;
  info.sample_rate = 1.0;
  info.executable_name = "tracer_test";
  info.host_name = "sim";
  info.pid = 4242;
  info.start_time = 1'700'000'000'000'000;
  info.context = "test";
  return info;
}

struct Decoded {
  EventKind kind;
  OcamlInt id;
  std::uint16_t domain;
  OcamlInt length = 0, nsamples = 0;
  memtrace::AllocationSource source = memtrace::AllocationSource::kMinor;
  std::vector<OcamlInt> backtrace;
};

std::vector<Decoded> ReadAll(const std::vector<std::uint8_t>& bytes,
                             std::unique_ptr<memtrace::TraceReader>* keep = nullptr) {
  auto r = memtrace::TraceReader::Open(memtrace::MemorySource(bytes));
  EXPECT_TRUE(r.ok()) << r.status().message();
  std::vector<Decoded> out;
  if (!r.ok()) return out;
  while (true) {
    auto ev = (*r)->Next();
    EXPECT_TRUE(ev.ok()) << ev.status().message();
    if (!ev.ok() || *ev == nullptr) break;
    const memtrace::Event& e = **ev;
    out.push_back({e.kind, e.obj_id, e.domain, e.length, e.nsamples, e.source,
                   std::vector<OcamlInt>(e.backtrace.begin(), e.backtrace.end())});
  }
  if (keep) *keep = std::move(*r);
  return out;
}

TEST(ExternalSampler, LogApproxIsCloseToTheLog) {
  for (std::uint32_t n : {0u, 1u, 1000u, 1u << 20, (1u << 30) - 1}) {
    const double exact = std::log((2.0 * n + 1.0) / 2147483648.0);
    EXPECT_NEAR(LogApprox(n), exact, 0.01) << n;
  }
}

TEST(ExternalSampler, MeanSamplesMatchTheRate) {
  ExternalSampler s(0.01, 7);
  std::uint64_t samples = 0;
  const std::uint64_t allocations = 200000, bytes = 64;  // 8 words each
  for (std::uint64_t i = 0; i < allocations; ++i) samples += s.SamplesFor(bytes);
  const double expected = 0.01 * allocations * 8;
  EXPECT_NEAR(static_cast<double>(samples), expected, 6 * std::sqrt(expected));
}

TEST(ExternalSampler, RateZeroNeverSamplesAndRateOneSamplesEveryWord) {
  ExternalSampler never(0.0, 1);
  EXPECT_EQ(never.SamplesFor(1 << 20), 0u);
  ExternalSampler always(1.0, 1);
  EXPECT_EQ(always.Draw(), 1u);
  EXPECT_EQ(always.SamplesFor(80), 10u);
}

TEST(ExternalSampler, SameSeedSameDraws) {
  ExternalSampler a(1e-3, 99), b(1e-3, 99), c(1e-3, 100);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = a.Draw();
    EXPECT_EQ(x, b.Draw());
    differs |= x != c.Draw();
  }
  EXPECT_TRUE(differs);
}

TEST(FrameLocations, SynthesisIsDeterministicAndDefinitionsWin) {
  FrameLocations f;
  const auto* a = f.Lookup(0x1234);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(*a, FrameLocations::Synthesize(0x1234));
  EXPECT_FALSE(a->front().filename.empty());
  EXPECT_LT(a->front().start_char, a->front().end_char);
  f.Define(7, {memtrace::Location{"demo.ml", 3, 2, 9, "Demo.main"}});
  EXPECT_EQ(f.Lookup(7)->front().defname, "Demo.main");
  // Pointers stay valid as the table grows.
  for (int i = 0; i < 1000; ++i) f.Lookup(100 + i);
  EXPECT_EQ(*a, FrameLocations::Synthesize(0x1234));
}

class TracerOnSim : public ::testing::Test {
 protected:
  std::unique_ptr<Tracer> Make(int version, std::function<std::int64_t()> getpid = {}) {
    TracerOptions o;
    o.format_version = version;
    o.sampling_rate = 1.0;
    o.now_us = [this] { return clock_.EpochMicroseconds(); };
    o.getpid = std::move(getpid);
    auto t = Tracer::Create(sink_, TestInfo(), o, frames_);
    EXPECT_TRUE(t.ok()) << t.status().message();
    return t.ok() ? std::move(*t) : nullptr;
  }
  VirtualClock clock_{1'700'000'000'000'000};
  memtrace::VectorSink sink_;
  FrameLocations frames_;
};

TEST_F(TracerOnSim, AllocPromoteCollectWithBacktraces) {
  auto t = Make(3);
  sim::SimRuntime rt;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 16, t->MakeTracker()).ok());
  rt.SetCallstack(0, {0x30, 0x20, 0x10});  // innermost first
  t->SetCurrentDomain(0);
  auto a = rt.AllocCaml(0, std::vector<std::uint64_t>{3});
  ASSERT_TRUE(a.ok());
  clock_.Advance(5000);
  auto big = rt.AllocMajor(0, 1000);
  ASSERT_TRUE(big.ok());
  ASSERT_FALSE(rt.Poll(0).has_value());
  rt.MinorGc();
  ASSERT_FALSE(rt.Poll(0).has_value());
  rt.Release(a.blocks[0]);
  rt.Release(big.blocks[0]);
  rt.MajorGc();
  ASSERT_FALSE(rt.Poll(0).has_value());
  ASSERT_TRUE(t->Close().ok());

  const auto events = ReadAll(sink_.data);
  std::map<OcamlInt, std::vector<EventKind>> by_id;
  for (const auto& e : events) by_id[e.id].push_back(e.kind);
  ASSERT_EQ(by_id.size(), 2u);
  const auto& minor = events.front();
  EXPECT_EQ(minor.kind, EventKind::kAlloc);
  EXPECT_EQ(minor.length, 3);
  EXPECT_EQ(minor.nsamples, 4);  // λ = 1: every word, header included
  EXPECT_EQ(minor.source, memtrace::AllocationSource::kMinor);
  // Caller first; the sim adds the combined allocation's own site innermost.
  ASSERT_EQ(minor.backtrace.size(), 4u);
  EXPECT_EQ(std::vector<OcamlInt>(minor.backtrace.begin(), minor.backtrace.begin() + 3),
            (std::vector<OcamlInt>{0x10, 0x20, 0x30}));
  EXPECT_EQ(by_id[minor.id],
            (std::vector<EventKind>{EventKind::kAlloc, EventKind::kPromote, EventKind::kCollect}));
  for (const auto& [id, kinds] : by_id) {
    if (id == minor.id) continue;
    EXPECT_EQ(kinds, (std::vector<EventKind>{EventKind::kAlloc, EventKind::kCollect}));
  }
  EXPECT_EQ(t->counts().allocs, 2u);
  EXPECT_EQ(t->counts().promotes, 1u);
  EXPECT_EQ(t->counts().collects, 2u);
}

TEST_F(TracerOnSim, LocationsComeFromFrameLocations) {
  frames_.Define(0x10, {memtrace::Location{"bin/main.ml", 12, 4, 30, "Main.run"}});
  auto t = Make(3);
  sim::SimRuntime rt;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 16, t->MakeTracker()).ok());
  rt.SetCallstack(0, {0x11, 0x10});
  ASSERT_TRUE(rt.AllocCaml(0, std::vector<std::uint64_t>{2}).ok());
  ASSERT_TRUE(t->Close().ok());
  std::unique_ptr<memtrace::TraceReader> reader;
  const auto events = ReadAll(sink_.data, &reader);
  ASSERT_EQ(events.size(), 1u);
  const auto* main = reader->LookupLocation(0x10);
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->front().defname, "Main.run");
  const auto* inner = reader->LookupLocation(0x11);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(*inner, FrameLocations::Synthesize(0x11));
}

TEST_F(TracerOnSim, DomainsGetTheirOwnStreamsInV3AndShareOneInV2) {
  for (int version : {3, 2}) {
    sink_.data.clear();
    auto t = Make(version);
    sim::SimRuntime rt;
    ASSERT_TRUE(rt.memprof(0).Start(1.0, 4, t->MakeTracker()).ok());
    auto d1 = rt.NewDomain(0);
    ASSERT_TRUE(d1.ok());
    for (std::uint32_t d : {0u, *d1}) {
      t->SetCurrentDomain(d);
      rt.SetCallstack(d, {0x100 + d});
      ASSERT_TRUE(rt.AllocCaml(d, std::vector<std::uint64_t>{2}).ok());
      clock_.Advance(1000);
    }
    ASSERT_TRUE(t->Close().ok());
    std::unique_ptr<memtrace::TraceReader> reader;
    const auto events = ReadAll(sink_.data, &reader);
    ASSERT_EQ(events.size(), 2u) << version;
    EXPECT_EQ(reader->version(), version);
    std::set<std::uint16_t> domains;
    for (const auto& e : events) domains.insert(e.domain);
    EXPECT_EQ(domains.size(), version == 3 ? 2u : 1u);
  }
}

// Regression (demo --steps 480000 --domains 4): a domain ends with a promotion whose
// callback has not run; the entry is orphaned and domain 0 runs it. The object's id is
// from domain 1's chunk, beyond every id domain 0's stream allocated, so the promote
// goes on domain 1's stream: on domain 0's the writer refused it ("not allocated yet").
TEST_F(TracerOnSim, AnAdoptedPromotionGoesOnTheStreamThatAllocated) {
  auto t = Make(3);
  sim::SimRuntime rt;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 4, t->MakeTracker()).ok());
  auto d1 = rt.NewDomain(0);
  ASSERT_TRUE(d1.ok());
  t->SetCurrentDomain(0);
  rt.SetCallstack(0, {0x100});
  ASSERT_TRUE(rt.AllocCaml(0, std::vector<std::uint64_t>{2}, /*reachable=*/false).ok());
  t->SetCurrentDomain(*d1);
  rt.SetCallstack(*d1, {0x101});
  auto kept = rt.AllocCaml(*d1, std::vector<std::uint64_t>{2}, /*reachable=*/true);
  ASSERT_TRUE(kept.ok());
  ASSERT_TRUE(rt.EndDomain(*d1).ok());  // promotes; the callback is left to an adopter
  t->SetCurrentDomain(0);
  for (int i = 0; i < 3; ++i) {
    ASSERT_FALSE(rt.Poll(0).has_value());
    rt.MajorGc();
  }
  ASSERT_TRUE(t->failure().ok()) << t->failure().message();
  ASSERT_TRUE(t->Close().ok());
  const auto events = ReadAll(sink_.data);
  std::map<OcamlInt, std::uint16_t> alloc_stream;
  int promotes = 0;
  for (const auto& e : events) {
    if (e.kind == EventKind::kAlloc) alloc_stream[e.id] = e.domain;
    if (e.kind != EventKind::kPromote) continue;
    ++promotes;
    EXPECT_EQ(e.domain, *d1);
    EXPECT_EQ(alloc_stream[e.id], *d1);
    EXPECT_GE(e.id, 10000);  // domain 1's chunk, past domain 0's ids
  }
  EXPECT_EQ(promotes, 1);
}

TEST_F(TracerOnSim, ExternalAllocationsAreSampledAndFreed) {
  auto t = Make(3);
  const std::uint64_t stack[] = {0x77, 0x66};
  // λ = 1: memtrace counts one sample per 8 bytes (20 bytes: 2, 4 bytes carried over)
  // and rounds the length up to words (3).
  auto id = t->ExtAlloc(0, 20, stack);
  ASSERT_TRUE(id.has_value());
  clock_.Advance(2000);
  t->ExtFree(0, *id);
  ASSERT_TRUE(t->Close().ok());
  const auto events = ReadAll(sink_.data);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].source, memtrace::AllocationSource::kExternal);
  EXPECT_EQ(events[0].length, 3);
  EXPECT_EQ(events[0].nsamples, 2);
  EXPECT_EQ(events[0].backtrace, (std::vector<OcamlInt>{0x66, 0x77}));
  EXPECT_EQ(events[1].kind, EventKind::kCollect);
  EXPECT_EQ(events[1].id, *id);
}

TEST_F(TracerOnSim, PidChangeStopsTracingSilently) {
  std::int64_t pid = 4242;
  auto t = Make(3, [&pid] { return pid; });
  sim::SimRuntime rt;
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 4, t->MakeTracker()).ok());
  rt.SetCallstack(0, {0x1});
  ASSERT_TRUE(rt.AllocCaml(0, std::vector<std::uint64_t>{1}).ok());
  ASSERT_TRUE(t->Close().ok());  // the parent flushes what it traced
  // A second tracer that sees a fork after its first event.
  sink_.data.clear();
  pid = 4242;
  auto u = Make(3, [&pid] { return pid; });
  sim::SimRuntime rt2;
  ASSERT_TRUE(rt2.memprof(0).Start(1.0, 4, u->MakeTracker()).ok());
  rt2.SetCallstack(0, {0x1});
  auto first = rt2.AllocCaml(0, std::vector<std::uint64_t>{1});
  ASSERT_TRUE(first.ok());
  pid = 4243;  // fork: we are the child now
  ASSERT_TRUE(rt2.AllocCaml(0, std::vector<std::uint64_t>{1}).ok());
  EXPECT_FALSE(u->tracing());
  EXPECT_TRUE(u->pid_changed());
  EXPECT_TRUE(u->Close().ok());
  EXPECT_TRUE(u->failure().ok());
  EXPECT_EQ(u->counts().allocs, 1u);
  EXPECT_GE(u->counts().dropped, 1u);
  // Only the info packet: the child never flushes the parent's buffered event.
  const auto events = ReadAll(sink_.data);
  EXPECT_TRUE(events.empty());
  // The engine stopped tracking the child's block: no callbacks come back for it.
  rt2.Release(first.blocks[0]);
  rt2.MajorGc();
  EXPECT_FALSE(rt2.Poll(0).has_value());
}

TEST(RingReporter, WritesMemprofPhasesInThe53NumberingAndReadsBack) {
  auto ids = MemprofPhases::Resolve();
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(ids->major_memprof_roots, 9u);
  EXPECT_EQ(ids->minor_memprof_roots, 13u);
  EXPECT_EQ(ids->minor_memprof_clean, 14u);
  EXPECT_EQ(ids->major_memprof_clean, 37u);
  EXPECT_FALSE(Phase53("no_such_phase").ok());

  const std::string dir = ::testing::TempDir() + "/ring_reporter";
  std::filesystem::create_directories(dir);
  ring::ProducerOptions o;
  o.dir = dir;
  o.pid = 31337;
  o.preserve = true;
  o.max_domains = 2;
  std::uint64_t now = 0;
  o.clock = [&now] { return now += 10; };
  auto r = RingReporter::Start(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto& p = (*r)->ids();
  ASSERT_TRUE((*r)->DomainSpawn(1).ok());
  ASSERT_TRUE((*r)->Begin(1, p.minor).ok());
  ASSERT_TRUE((*r)->Begin(1, p.minor_memprof_clean).ok());
  ASSERT_TRUE((*r)->End(1, p.minor_memprof_clean).ok());
  ASSERT_TRUE((*r)->Counter(1, p.minor_allocated, 123).ok());
  ASSERT_TRUE((*r)->End(1, p.minor).ok());
  ASSERT_TRUE((*r)->DomainTerminate(1).ok());
  const std::string path = (*r)->path();
  ASSERT_TRUE((*r)->Stop().ok());

  auto cursor = ring::Cursor::OpenFile(path);
  ASSERT_TRUE(cursor.ok()) << cursor.status().message();
  struct Seen : ring::EventCallbacks {
    std::vector<std::pair<char, unsigned>> events;
    std::uint64_t lost = 0;
    bool RuntimeBegin(std::uint32_t, std::uint64_t, unsigned ph) override {
      events.push_back({'B', ph});
      return true;
    }
    bool RuntimeEnd(std::uint32_t, std::uint64_t, unsigned ph) override {
      events.push_back({'E', ph});
      return true;
    }
    bool RuntimeCounter(std::uint32_t, std::uint64_t, unsigned c, std::uint64_t v) override {
      events.push_back({'C', c});
      EXPECT_EQ(v, 123u);
      return true;
    }
    bool LifecycleEvent(std::uint32_t, std::uint64_t, unsigned k, std::int64_t) override {
      events.push_back({'L', k});
      return true;
    }
    bool LostEvents(std::uint32_t, std::uint64_t w) override {
      lost += w;
      return true;
    }
  } seen;
  auto n = cursor->ReadPoll(seen);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(seen.lost, 0u);
  const std::vector<std::pair<char, unsigned>> want = {
      {'L', 0},  // ring_start (domain 0)
      {'L', 6},
      {'B', p.minor},
      {'B', p.minor_memprof_clean},
      {'E', p.minor_memprof_clean},
      {'C', p.minor_allocated},
      {'E', p.minor},
      {'L', 7},
      {'L', 1},  // ring_stop (domain 0)
  };
  // Rings are visited in turn: compare as a multiset plus domain 1's order.
  EXPECT_EQ(seen.events.size(), want.size());
  auto sorted = [](auto v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(sorted(seen.events), sorted(want));
  const auto& w = (*r)->written();
  EXPECT_EQ(w.begins + w.ends + w.counters + w.lifecycle, want.size());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mpo::tracer
