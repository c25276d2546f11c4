#include "core/tracer/ring_gc_observer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/ring/cursor.h"
#include "core/ring/event_names.h"
#include "core/sim/sim_runtime.h"

namespace mpo::tracer {
namespace {

// One ring event as the cursor delivers it: "B name" / "E name" / "C name=value" /
// "L kind", with its timestamp.
struct Event {
  std::string text;
  std::uint64_t ts;
};

struct PerRing final : ring::EventCallbacks {
  std::map<std::uint32_t, std::vector<Event>> rings;
  std::uint64_t lost = 0;
  static std::string Phase(unsigned id) {
    auto n = ring::PhaseName(ring::OcamlVersion::k5_3, id);
    return n ? std::string(*n) : "?" + std::to_string(id);
  }
  bool RuntimeBegin(std::uint32_t r, std::uint64_t ts, unsigned ph) override {
    rings[r].push_back({"B " + Phase(ph), ts});
    return true;
  }
  bool RuntimeEnd(std::uint32_t r, std::uint64_t ts, unsigned ph) override {
    rings[r].push_back({"E " + Phase(ph), ts});
    return true;
  }
  bool RuntimeCounter(std::uint32_t r, std::uint64_t ts, unsigned c, std::uint64_t v) override {
    auto n = ring::CounterName(ring::OcamlVersion::k5_3, c);
    rings[r].push_back({"C " + std::string(n ? *n : "?") + "=" + std::to_string(v), ts});
    return true;
  }
  bool LifecycleEvent(std::uint32_t r, std::uint64_t ts, unsigned k, std::int64_t) override {
    rings[r].push_back({"L " + std::to_string(k), ts});
    return true;
  }
  bool LostEvents(std::uint32_t, std::uint64_t w) override {
    lost += w;
    return true;
  }
};

std::vector<std::string> Texts(const std::vector<Event>& v) {
  std::vector<std::string> out;
  for (const Event& e : v) out.push_back(e.text);
  return out;
}

// The time between the first event `begin` and the next `end` after it.
std::uint64_t Span(const std::vector<Event>& v, const std::string& begin, const std::string& end) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].text != begin) continue;
    for (std::size_t j = i + 1; j < v.size(); ++j) {
      if (v[j].text == end) return v[j].ts - v[i].ts;
    }
  }
  ADD_FAILURE() << "no " << begin << " ... " << end;
  return 0;
}

std::vector<std::string> Minor(std::uint64_t words) {
  return {"B minor",
          "B minor_local_roots",
          "B minor_memprof_roots",
          "E minor_memprof_roots",
          "E minor_local_roots",
          "B minor_memprof_clean",
          "E minor_memprof_clean",
          "C minor_allocated=" + std::to_string(words),
          "E minor"};
}

class RingGcObserverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/ring_gc_observer";
    std::filesystem::create_directories(dir_);
    ring::ProducerOptions o;
    o.dir = dir_;
    o.pid = 5151;
    o.preserve = true;
    o.max_domains = 3;
    o.clock = [this] { return clock_.Nanoseconds(); };
    auto r = RingReporter::Start(o);
    ASSERT_TRUE(r.ok()) << r.status().message();
    reporter_ = std::move(*r);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  PerRing ReadBack() {
    const std::string path = reporter_->path();
    EXPECT_TRUE(reporter_->Stop().ok());
    PerRing seen;
    auto cursor = ring::Cursor::OpenFile(path);
    EXPECT_TRUE(cursor.ok()) << cursor.status().message();
    if (!cursor.ok()) return seen;
    while (true) {
      auto n = cursor->ReadPoll(seen);
      EXPECT_TRUE(n.ok());
      if (!n.ok() || *n == 0) break;
    }
    EXPECT_EQ(seen.lost, 0u);
    return seen;
  }

  std::string dir_;
  VirtualClock clock_{0};
  std::unique_ptr<RingReporter> reporter_;
};

TEST_F(RingGcObserverTest, SimulatedCollectionsReachTheRingNestedAndTimed) {
  sim::SimRuntime rt(sim::SimConfig{4096});
  RingGcObserver observer(*reporter_, clock_);
  rt.SetGcObserver(&observer);
  auto d1 = rt.NewDomain(0);
  ASSERT_TRUE(d1.ok());
  const std::uint64_t five[] = {4};
  ASSERT_TRUE(rt.AllocCaml(*d1, five).ok());
  rt.MinorGc();
  rt.MajorGc();
  ASSERT_TRUE(rt.EndDomain(*d1).ok());
  rt.MinorGc();  // domain 0 alone
  rt.SetGcObserver(nullptr);
  rt.MinorGc();  // unsubscribed: not in the ring
  ASSERT_TRUE(observer.status().ok()) << observer.status().ToString();
  const PerRing seen = ReadBack();

  std::vector<std::string> major = {"B major"};
  for (const std::string& s : Minor(0)) major.push_back(s);
  for (const char* s :
       {"B major_mark_roots", "B major_memprof_roots", "E major_memprof_roots",
        "E major_mark_roots", "B major_mark", "E major_mark", "B major_sweep", "E major_sweep",
        "B major_memprof_clean", "E major_memprof_clean", "E major"}) {
    major.emplace_back(s);
  }
  std::vector<std::string> want1 = {"L 6"};  // domain_spawn
  for (const auto& part : {Minor(5), major, Minor(0)}) {
    want1.insert(want1.end(), part.begin(), part.end());
  }
  want1.emplace_back("L 7");  // domain_terminate
  ASSERT_EQ(seen.rings.count(1), 1u);
  EXPECT_EQ(Texts(seen.rings.at(1)), want1);

  std::vector<std::string> want0 = {"L 0"};  // ring_start
  for (const auto& part : {Minor(0), major, Minor(0), Minor(0)}) {
    want0.insert(want0.end(), part.begin(), part.end());
  }
  want0.emplace_back("L 1");  // ring_stop
  ASSERT_EQ(seen.rings.count(0), 1u);
  EXPECT_EQ(Texts(seen.rings.at(0)), want0);

  // The modelled times, read back from the timestamps (no memprof profile: no entries).
  const auto& r1 = seen.rings.at(1);
  EXPECT_EQ(Span(r1, "B minor_local_roots", "E minor_local_roots"),
            kMinorLocalRootsNs + kMinorMemprofRootsNs);
  EXPECT_EQ(Span(r1, "B minor_memprof_roots", "E minor_memprof_roots"), kMinorMemprofRootsNs);
  EXPECT_EQ(Span(r1, "B major_mark", "E major_mark"), kMajorMarkNs);
  EXPECT_EQ(Span(r1, "B major_mark_roots", "E major_mark_roots"), kMajorMemprofRootsNs);
  EXPECT_EQ(Span(r1, "B major", "E major"),
            kMinorLocalRootsNs + kMinorMemprofRootsNs + kMinorMemprofCleanNs +
                kMajorMemprofRootsNs + kMajorMarkNs + kMajorSweepNs + kMajorMemprofCleanNs);
  // Stop the world: both domains' phases carry the same timestamps.
  const auto& r0 = seen.rings.at(0);
  EXPECT_EQ(r0[1].ts, r1[1].ts);
  const auto& w = reporter_->written();
  EXPECT_EQ(w.begins, w.ends);
  EXPECT_EQ(w.counters, 4u + 3);  // one per minor collection and domain
  EXPECT_EQ(w.padding_words, 0u);
  EXPECT_EQ(w.words, kPhaseEventWords * (w.begins + w.ends) + kCounterEventWords * w.counters +
                         kLifecycleEventWords * (w.lifecycle - 1) + kRingStopEventWords);
}

TEST_F(RingGcObserverTest, MemprofRootsTakeLongerWithMoreEntries) {
  EXPECT_EQ(ModelledPhaseNs(sim::GcPhase::kMinorMemprofRoots, 0), kMinorMemprofRootsNs);
  EXPECT_EQ(ModelledPhaseNs(sim::GcPhase::kMinorMemprofRoots, 800), kMinorMemprofRootsNs + 100);
  EXPECT_EQ(ModelledPhaseNs(sim::GcPhase::kMajorMemprofRoots, 80), kMajorMemprofRootsNs + 10);
  EXPECT_EQ(ModelledPhaseNs(sim::GcPhase::kMajor, 80), 0u);
  EXPECT_TRUE(reporter_->Stop().ok());
}

TEST_F(RingGcObserverTest, AFailedWriteIsKeptAndStopsWriting) {
  RingGcObserver observer(*reporter_, clock_);
  const std::uint32_t unknown[] = {7};  // beyond max_domains: the producer refuses it
  observer.PhaseBegin(sim::GcPhase::kMinor, unknown, 0);
  EXPECT_FALSE(observer.status().ok());
  const std::uint64_t begins = reporter_->written().begins;
  const std::uint32_t zero[] = {0};
  observer.PhaseBegin(sim::GcPhase::kMinor, zero, 0);
  EXPECT_EQ(reporter_->written().begins, begins);
  EXPECT_TRUE(reporter_->Stop().ok());
}

}  // namespace
}  // namespace mpo::tracer
