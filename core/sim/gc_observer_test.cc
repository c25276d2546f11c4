#include "core/sim/gc_observer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/sim/sim_runtime.h"

namespace mpo::sim {
namespace {

using memprof::CallbackResult;

// Records every notification as one line: "B minor 0,1" / "E minor 0,1" / "A 0 7" /
// "S 1" / "T 1"; the memprof entry counts of phase begins separately.
struct Recorder final : GcObserver {
  std::vector<std::string> lines;
  std::vector<std::pair<GcPhase, std::uint64_t>> entries;

  static std::string Ids(std::span<const std::uint32_t> domains) {
    std::string s;
    for (std::uint32_t d : domains) s += (s.empty() ? "" : ",") + std::to_string(d);
    return s;
  }
  void PhaseBegin(GcPhase phase, std::span<const std::uint32_t> domains,
                  std::uint64_t memprof_entries) override {
    lines.push_back("B " + std::string(GcPhaseName(phase)) + " " + Ids(domains));
    entries.emplace_back(phase, memprof_entries);
  }
  void PhaseEnd(GcPhase phase, std::span<const std::uint32_t> domains) override {
    lines.push_back("E " + std::string(GcPhaseName(phase)) + " " + Ids(domains));
  }
  void MinorAllocated(std::uint32_t domain, std::uint64_t words) override {
    lines.push_back("A " + std::to_string(domain) + " " + std::to_string(words));
  }
  void DomainSpawn(std::uint32_t domain) override {
    lines.push_back("S " + std::to_string(domain));
  }
  void DomainTerminate(std::uint32_t domain) override {
    lines.push_back("T " + std::to_string(domain));
  }
};

// Every begin is closed by the matching end, innermost first.
void ExpectNested(const std::vector<std::string>& lines) {
  std::vector<std::string> open;
  for (const std::string& l : lines) {
    if (l[0] == 'B') {
      open.push_back(l.substr(2));
    } else if (l[0] == 'E') {
      ASSERT_FALSE(open.empty()) << "end without begin: " << l;
      EXPECT_EQ(open.back(), l.substr(2));
      open.pop_back();
    }
  }
  EXPECT_TRUE(open.empty());
}

std::vector<std::string> MinorLines(const std::string& ids, std::vector<std::string> counters) {
  std::vector<std::string> v = {"B minor " + ids,
                                "B minor_local_roots " + ids,
                                "B minor_memprof_roots " + ids,
                                "E minor_memprof_roots " + ids,
                                "E minor_local_roots " + ids,
                                "B minor_memprof_clean " + ids,
                                "E minor_memprof_clean " + ids};
  v.insert(v.end(), counters.begin(), counters.end());
  v.push_back("E minor " + ids);
  return v;
}

TEST(GcObserver, PhaseNamesAreOcamls) {
  EXPECT_EQ(GcPhaseName(GcPhase::kMinorMemprofRoots), "minor_memprof_roots");
  EXPECT_EQ(GcPhaseName(GcPhase::kMajorMemprofClean), "major_memprof_clean");
  EXPECT_EQ(GcPhaseName(GcPhase::kMajorMarkRoots), "major_mark_roots");
}

TEST(GcObserver, AMinorCollectionNestsItsMemprofPhasesAndCountsWords) {
  SimRuntime rt(SimConfig{4096});
  Recorder rec;
  rt.SetGcObserver(&rec);
  const std::uint64_t sizes[] = {4, 2};
  ASSERT_TRUE(rt.AllocCaml(0, sizes).ok());
  rt.MinorGc();
  EXPECT_EQ(rec.lines, MinorLines("0", {"A 0 8"}));
  ExpectNested(rec.lines);
  rec.lines.clear();
  rt.MinorGc();  // nothing allocated since
  EXPECT_EQ(rec.lines, MinorLines("0", {"A 0 0"}));
}

TEST(GcObserver, AMajorCollectionHoldsAMinorOneThenMarksAndSweeps) {
  SimRuntime rt(SimConfig{4096});
  Recorder rec;
  rt.SetGcObserver(&rec);
  auto d1 = rt.NewDomain(0);
  ASSERT_TRUE(d1.ok());
  const std::uint64_t one[] = {3};
  ASSERT_TRUE(rt.AllocCaml(*d1, one).ok());
  rt.MajorGc();
  std::vector<std::string> want = {"S 1", "B major 0,1"};
  for (const std::string& l : MinorLines("0,1", {"A 0 0", "A 1 4"})) want.push_back(l);
  for (const char* l : {"B major_mark_roots 0,1", "B major_memprof_roots 0,1",
                        "E major_memprof_roots 0,1", "E major_mark_roots 0,1", "B major_mark 0,1",
                        "E major_mark 0,1", "B major_sweep 0,1", "E major_sweep 0,1",
                        "B major_memprof_clean 0,1", "E major_memprof_clean 0,1", "E major 0,1"}) {
    want.emplace_back(l);
  }
  EXPECT_EQ(rec.lines, want);
  ExpectNested(rec.lines);
}

TEST(GcObserver, AnEndingDomainTakesPartInItsMinorCollectionThenTerminates) {
  SimRuntime rt(SimConfig{4096});
  Recorder rec;
  rt.SetGcObserver(&rec);
  ASSERT_TRUE(rt.NewDomain(0).ok());
  ASSERT_TRUE(rt.NewDomain(0).ok());
  const std::uint64_t one[] = {1};
  ASSERT_TRUE(rt.AllocCaml(2, one).ok());
  ASSERT_TRUE(rt.EndDomain(2).ok());
  std::vector<std::string> want = {"S 1", "S 2"};
  for (const std::string& l : MinorLines("0,1,2", {"A 0 0", "A 1 0", "A 2 2"})) {
    want.push_back(l);
  }
  want.emplace_back("T 2");
  EXPECT_EQ(rec.lines, want);
  rec.lines.clear();
  rt.MinorGc();
  EXPECT_EQ(rec.lines, MinorLines("0,1", {"A 0 0", "A 1 0"}));
}

TEST(GcObserver, MemprofPhasesCountTheEntriesOfTheBusiestDomain) {
  SimRuntime rt(SimConfig{4096});
  memprof::Tracker keep;
  keep.alloc_minor = [](const memprof::AllocationInfo&) { return CallbackResult::Keep(1); };
  keep.promote = [](memprof::UserData d) { return CallbackResult::Keep(d); };
  ASSERT_TRUE(rt.memprof(0).Start(1.0, 4, keep).ok());
  auto d1 = rt.NewDomain(0);
  ASSERT_TRUE(d1.ok());
  Recorder rec;
  rt.SetGcObserver(&rec);
  const std::uint64_t three[] = {1, 1, 1};
  const std::uint64_t one[] = {1};
  ASSERT_TRUE(rt.AllocCaml(0, three).ok());  // lambda 1: every block is tracked
  ASSERT_TRUE(rt.AllocCaml(*d1, one).ok());
  rt.MajorGc();
  auto seen = [&](GcPhase p) {
    for (const auto& [phase, n] : rec.entries) {
      if (phase == p) return n;
    }
    return ~std::uint64_t{0};
  };
  EXPECT_EQ(seen(GcPhase::kMinorMemprofRoots), 3u);  // domain 0's young entries
  EXPECT_EQ(seen(GcPhase::kMinorMemprofClean), 3u);
  EXPECT_EQ(seen(GcPhase::kMajorMemprofRoots), 3u);  // promoted, still tracked
  EXPECT_EQ(seen(GcPhase::kMinor), 0u);
  EXPECT_EQ(seen(GcPhase::kMajorMark), 0u);
}

TEST(GcObserver, NoObserverNoEventsAndUnsettingStopsThem) {
  SimRuntime rt(SimConfig{4096});
  Recorder rec;
  rt.MinorGc();
  rt.SetGcObserver(&rec);
  rt.SetGcObserver(nullptr);
  rt.MajorGc();
  ASSERT_TRUE(rt.NewDomain(0).ok());
  EXPECT_TRUE(rec.lines.empty());
}

}  // namespace
}  // namespace mpo::sim
