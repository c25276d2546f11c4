// Liveness (liveness.h) on hand-built traces, with exact figures: blocks live at a time,
// the peak and its time, live at the peak, and the timeline's min/max envelope.
#include "core/memtrace/analysis/liveness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/leaks.h"
#include "core/memtrace/analysis/liveness_text.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace::analysis {
namespace {

constexpr OcamlInt kA = 0x7a0000000100;
constexpr OcamlInt kB = 0x7a0000000200;
const std::string kAName = "A.a@a.ml:1:0-5";
const std::string kBName = "B.b@b.ml:2:0-5";

// One event of a hand-built trace: t in us from the start (1000); an allocation of
// `n` samples (words = n + 1) at site kA or kB, or the promotion or collection of the
// n-th allocation.
struct Op {
  std::int64_t t;
  char kind;        // 'a' alloc, 'p' promote, 'c' collect, 'f' flush (ends the packet)
  std::uint64_t n;  // alloc: samples; promote, collect: the allocation's index
  OcamlInt site = kA;
  AllocationSource source = AllocationSource::kMinor;
};

// Rate 0.5, 64-bit words: 16 estimated bytes per sample.
std::vector<std::uint8_t> Build(const std::vector<Op>& ops) {
  VectorSink sink;
  Info info;
  info.sample_rate = 0.5;
  info.start_time = 1000;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  static const std::map<OcamlInt, std::vector<Location>> kFrames = {
      {kA, {{"a.ml", 1, 0, 5, "A.a"}}}, {kB, {{"b.ml", 2, 0, 5, "B.b"}}}};
  const LocationLookup lookup = [](OcamlInt code) { return &kFrames.at(code); };
  std::vector<OcamlInt> ids;
  for (const Op& op : ops) {
    const std::int64_t t = 1000 + op.t;
    if (op.kind == 'a') {
      const std::vector<OcamlInt> bt{op.site};
      auto id = (*w)->PutAlloc(0, t, static_cast<OcamlInt>(op.n + 1), static_cast<OcamlInt>(op.n),
                               op.source, bt, lookup);
      EXPECT_TRUE(id.ok());
      ids.push_back(*id);
    } else if (op.kind == 'f') {
      EXPECT_TRUE((*w)->Flush().ok());
    } else if (op.kind == 'p') {
      EXPECT_TRUE((*w)->PutPromote(0, t, ids.at(op.n)).ok());
    } else {
      EXPECT_TRUE((*w)->PutCollect(0, t, ids.at(op.n)).ok());
    }
  }
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

TraceAnalysis Analyze(const std::vector<std::uint8_t>& bytes, LiveAt at = {},
                      std::int64_t from_us = 0,
                      std::int64_t to_us = std::numeric_limits<std::int64_t>::max()) {
  AnalysisOptions o;
  o.live_at = at;
  o.from_us = from_us;
  o.to_us = to_us;
  auto a = AnalyzeTrace(*MemorySource(bytes), o);
  EXPECT_TRUE(a.ok()) << a.status().ToString();
  return a.ok() ? std::move(*a) : TraceAnalysis{};
}

LiveAt At(std::int64_t us) { return LiveAt{LiveAt::Kind::kTime, us}; }
constexpr LiveAt kPeak{LiveAt::Kind::kPeak, 0};

std::uint64_t SiteLive(const TraceAnalysis& a, const std::string& name) {
  for (const Site& s : a.sites)
    if (!s.names.empty() && s.names[0] == name) return s.live.samples;
  return ~std::uint64_t{0};
}

// The live heap in samples, step by step:
//   t  10: alloc #0 A 2 (minor)     2
//   t  20: alloc #1 B 3 (major)     5
//   t  30: alloc #2 A 1 (external)  6
//   t  40: collect #0               4
//   t  50: alloc #3 A 5, promote #1 9   <- the peak: #1, #2, #3 (3 blocks, 12 words)
//   t  60: collect #2               8
//   t  70: promote #3               8   (promotions change nothing)
std::vector<std::uint8_t> Steps() {
  using S = AllocationSource;
  return Build({{10, 'a', 2, kA},
                {20, 'a', 3, kB, S::kMajor},
                {30, 'a', 1, kA, S::kExternal},
                {40, 'c', 0},
                {50, 'a', 5, kA},
                {50, 'p', 1},
                {60, 'c', 2},
                {70, 'p', 3}});
}

TEST(Liveness, PeakAndItsTime) {
  const TraceAnalysis a = Analyze(Steps());
  ASSERT_TRUE(a.peak.has_value());
  EXPECT_EQ(a.peak->t_us, 50);
  EXPECT_EQ(a.peak->live.blocks, 3u);
  EXPECT_EQ(a.peak->live.samples, 9u);
  EXPECT_EQ(a.peak->live.words, 4u + 2u + 6u);
  EXPECT_DOUBLE_EQ(EstimatedBytes(a.peak->live.samples, a.info), 144);
  // Live at the end: #1 and #3, never collected.
  EXPECT_EQ(a.live_at.kind, LiveAt::Kind::kEnd);
  EXPECT_EQ(a.live_at_us, 70);
  EXPECT_EQ(a.live.blocks, 2u);
  EXPECT_EQ(a.live.samples, 8u);
  EXPECT_EQ(a.live_heap.samples, 8u);
}

// Live at T: allocated at or before T, not collected at or before T.
TEST(Liveness, LiveAtATime) {
  const auto trace = Steps();
  const std::map<std::int64_t, std::uint64_t> expected = {
      {0, 0},  {9, 0},  {10, 2}, {19, 2}, {20, 5},
      {30, 6}, {39, 6}, {40, 4},  // #0 collected at 40: not live at 40
      {49, 4}, {50, 9}, {59, 9}, {60, 8}, {70, 8}};
  for (const auto& [t, samples] : expected) {
    const TraceAnalysis a = Analyze(trace, At(t));
    EXPECT_EQ(a.live_at_us, t);
    EXPECT_EQ(a.live_heap.samples, samples) << "at " << t;
    EXPECT_EQ(a.live.samples, samples) << "at " << t;  // the window is the whole trace
  }
  // Per site at 40: #1 at B (3), #2 at A (1, collected at 60).
  const TraceAnalysis at40 = Analyze(trace, At(40));
  EXPECT_EQ(at40.live.blocks, 2u);
  EXPECT_EQ(SiteLive(at40, kAName), 1u);
  EXPECT_EQ(SiteLive(at40, kBName), 3u);
  const auto leaks = LeakSites(at40, 10);
  ASSERT_EQ(leaks.size(), 2u);
  EXPECT_EQ(leaks[0]->names[0], kBName);
}

// Live at the peak: the blocks live when the peak was reached, collected later or never.
TEST(Liveness, LiveAtThePeak) {
  const TraceAnalysis a = Analyze(Steps(), kPeak);
  EXPECT_EQ(a.live_at_us, 50);
  EXPECT_EQ(a.live_heap.blocks, 3u);
  EXPECT_EQ(a.live_heap.samples, 9u);
  EXPECT_EQ(a.live.samples, 9u);
  EXPECT_EQ(SiteLive(a, kAName), 6u);  // #2 (collected at 60) and #3
  EXPECT_EQ(SiteLive(a, kBName), 3u);
}

// Leak candidates: allocated in [A, B], live at the end or at T.
TEST(Liveness, WindowAndTime) {
  const auto trace = Steps();
  // [25, 55]: #2 and #3. At the end only #3 (5) is live; at 40 only #2 (1, #3 is not
  // allocated yet); at the peak (50) both; the live heap counts #1 besides.
  EXPECT_EQ(Analyze(trace, {}, 25, 55).live.samples, 5u);
  const TraceAnalysis at40 = Analyze(trace, At(40), 25, 55);
  EXPECT_EQ(at40.live.blocks, 1u);
  EXPECT_EQ(at40.live.samples, 1u);
  EXPECT_EQ(at40.live_heap.samples, 4u);
  const TraceAnalysis peak = Analyze(trace, kPeak, 25, 55);
  EXPECT_EQ(peak.live.samples, 6u);
  EXPECT_EQ(peak.live_heap.samples, 9u);
  // The peak is the whole trace's, whatever the window.
  ASSERT_TRUE(peak.peak.has_value());
  EXPECT_EQ(peak.peak->t_us, 50);
}

// The peak is a value of the step function: events sharing a time count together, and
// the first time the maximum is reached is the peak's.
TEST(Liveness, PeakOfTheStepFunction) {
  // At 10: alloc #0 (5), collect it, alloc #1 (1): the live heap at 10 is 1, never 5.
  const TraceAnalysis a =
      Analyze(Build({{10, 'a', 5}, {10, 'c', 0}, {10, 'a', 1}, {20, 'a', 2}, {30, 'c', 1}}));
  ASSERT_TRUE(a.peak.has_value());
  EXPECT_EQ(a.peak->t_us, 20);
  EXPECT_EQ(a.peak->live.samples, 3u);
  for (const TimelinePoint& p : a.timeline) EXPECT_LE(p.max_samples, 3u) << p.t_us;
  // 3 at 10, 0 at 20, 3 at 30: the first.
  const TraceAnalysis first = Analyze(Build({{10, 'a', 3}, {20, 'c', 0}, {30, 'a', 3}}), kPeak);
  ASSERT_TRUE(first.peak.has_value());
  EXPECT_EQ(first.peak->t_us, 10);
  EXPECT_EQ(first.live_at_us, 10);
  EXPECT_EQ(first.live_heap.samples, 3u);
  EXPECT_EQ(first.live.blocks, 1u);  // #0, collected at 20
  // A later, higher peak replaces an earlier one, and what was live at the first is
  // forgotten: here #0 (collected before the second peak) is not live at the peak.
  const TraceAnalysis later =
      Analyze(Build({{10, 'a', 3}, {20, 'c', 0}, {30, 'a', 4, kB}, {40, 'c', 1}}), kPeak);
  EXPECT_EQ(later.live_at_us, 30);
  EXPECT_EQ(later.live.samples, 4u);
  EXPECT_EQ(SiteLive(later, kAName), 0u);
  EXPECT_EQ(SiteLive(later, kBName), 4u);
}

// A trace cut inside its second packet: the peak and liveness of the first packet's events.
TEST(Liveness, DamagedTraceGivesThePartialResult) {
  auto cut = Build({{10, 'a', 4}, {20, 'a', 2}, {30, 'c', 0}, {0, 'f', 0}, {40, 'a', 9}});
  cut.resize(cut.size() - 2);
  AnalysisOptions o;
  o.stop_at_damage = true;
  o.live_at = kPeak;
  auto a = AnalyzeTrace(*MemorySource(cut), o);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(a->damage.has_value());
  ASSERT_TRUE(a->peak.has_value());
  EXPECT_EQ(a->peak->t_us, 20);
  EXPECT_EQ(a->peak->live.samples, 6u);
  EXPECT_EQ(a->live_heap.samples, 6u);
  o.live_at = At(35);  // after the last event read (30)
  EXPECT_EQ(AnalyzeTrace(*MemorySource(cut), o).status().field(), "--live-at");
}

TEST(Liveness, NoPeakWithoutAllocations) {
  const TraceAnalysis a = Analyze(Build({{10, 'a', 0}}), kPeak);
  EXPECT_FALSE(a.peak.has_value());
  EXPECT_EQ(a.live_heap.blocks, 0u);
}

// Each step of the timeline keeps the least and the most the live heap held in it: with
// 2 points over 70 us, the peak of 9 at 50 is the second step's max.
TEST(Liveness, TimelineEnvelope) {
  AnalysisOptions o;
  o.timeline_points = 2;
  auto a = AnalyzeTrace(*MemorySource(Steps()), o);
  ASSERT_TRUE(a.ok());
  std::vector<std::vector<std::uint64_t>> got;
  for (const TimelinePoint& p : a->timeline)
    got.push_back(
        {static_cast<std::uint64_t>(p.t_us), p.live_samples, p.min_samples, p.max_samples});
  // Steps of 64 us: [0, 63] ends at 8 (min 2 at 10, max 9 at 50); [64, 127] holds the end,
  // its time clamped to the trace's last event.
  EXPECT_EQ(got, (std::vector<std::vector<std::uint64_t>>{{63, 8, 2, 9}, {70, 8, 8, 8}}));
  // Fine steps: every point's envelope is its own value.
  const TraceAnalysis fine = Analyze(Steps());
  ASSERT_EQ(fine.timeline.size(), 71u);
  EXPECT_EQ(fine.timeline[50].max_samples, 9u);
  EXPECT_EQ(fine.timeline[50].min_samples, 9u);
  EXPECT_EQ(fine.timeline.back().t_us, 70);
}

TEST(Liveness, TimeAfterTheEndIsAnError) {
  const auto trace = Steps();
  AnalysisOptions o;
  o.live_at = At(70);
  EXPECT_TRUE(AnalyzeTrace(*MemorySource(trace), o).ok());
  o.live_at = At(71);
  const Status s = AnalyzeTrace(*MemorySource(trace), o).status();
  EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.field(), "--live-at");
  EXPECT_NE(s.ToString().find("the trace lasts 0.000070 s"), std::string::npos) << s.ToString();
  o.live_at = At(-1);
  EXPECT_EQ(AnalyzeTrace(*MemorySource(trace), o).status().code(), ErrorCode::kInvalidArgument);
}

TEST(Liveness, ParseLiveAt) {
  EXPECT_EQ(ParseLiveAt("end")->kind, LiveAt::Kind::kEnd);
  EXPECT_EQ(ParseLiveAt("peak")->kind, LiveAt::Kind::kPeak);
  auto t = ParseLiveAt("0.25");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->kind, LiveAt::Kind::kTime);
  EXPECT_EQ(t->t_us, 250'000);
  EXPECT_EQ(ParseLiveAt("0")->t_us, 0);
  EXPECT_EQ(ParseLiveAt("1e9")->t_us, 1'000'000'000'000'000);
  for (const char* bad :
       {"-1", "-0.5", "nan", "NaN", "inf", "", "x", "1s", "2 ", "1e10", "1e-400", "Peak"}) {
    const auto r = ParseLiveAt(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(r.status().field(), "--live-at");
  }
  EXPECT_EQ(LiveAtText(*ParseLiveAt("0.5")), "0.500000 s");
}

}  // namespace
}  // namespace mpo::memtrace::analysis

namespace mpo::memtrace::analysis {
namespace {

TEST(LivenessText, HumanUnits) {
  EXPECT_EQ(BytesText(512), "512 B");
  EXPECT_EQ(BytesText(1023), "1023 B");
  EXPECT_EQ(BytesText(1024), "1.00 KiB");
  EXPECT_EQ(BytesText(1536), "1.50 KiB");
  EXPECT_EQ(BytesText(15360), "15.0 KiB");
  EXPECT_EQ(BytesText(153600), "150 KiB");
  EXPECT_EQ(BytesText(1000 * 1024.0), "0.98 MiB");  // never "1000.00 KiB"
  EXPECT_EQ(BytesText(-1536, true), "-1.50 KiB");
  EXPECT_EQ(DurationText(850), "850 us");
  EXPECT_EQ(DurationText(999.4), "999 us");
  EXPECT_EQ(DurationText(999.6), "1.00 ms");
  EXPECT_EQ(DurationText(12'500), "12.5 ms");
  EXPECT_EQ(DurationText(3.2e6), "3.20 s");
  EXPECT_EQ(DurationText(125e6), "2 min 5 s");
  EXPECT_EQ(DurationText(3720e6), "1 h 02 min");
}

TEST(LivenessText, LeaksSayWhenTheBlocksAreLive) {
  const auto trace = Steps();
  const TraceAnalysis end = Analyze(trace);
  EXPECT_NE(
      FormatLeaks(end, "t", 5)
          .find("t: 2 blocks (8 samples, 10 words, est. 128 B) allocated and never collected, "
                "at 2 sites\n"),
      std::string::npos)
      << FormatLeaks(end, "t", 5);
  const TraceAnalysis peak = Analyze(trace, kPeak);
  EXPECT_NE(FormatLeaks(peak, "t", 5)
                .find("allocated and still live at the peak (0.000050 s), "
                      "at 2 sites\n"),
            std::string::npos);
  const TraceAnalysis at40 = Analyze(trace, At(40), 25, 55);
  EXPECT_NE(FormatLeaks(at40, "t", 5)
                .find("t: 1 blocks (1 samples, 2 words, est. 16 B) allocated "
                      "in [0.000025 s, 0.000055 s] and still live at "
                      "0.000040 s, at 1 sites\n"),
            std::string::npos)
      << FormatLeaks(at40, "t", 5);
  const std::string json = FormatLeaksJson(at40, "t", 5);
  EXPECT_NE(json.find("\"live_at\":{\"at\":\"time\",\"t_s\":"), std::string::npos) << json;
  EXPECT_NE(json.find(",\"heap\":{\"blocks\":2,\"samples\":4,\"words\":6,\"est_bytes\":64}}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(",\"blocks\":3,\"samples\":9,\"words\":12,\"est_bytes\":144},\"live\":{"
                      "\"blocks\":1,\"samples\":1,\"words\":2,\"est_bytes\":16}"),
            std::string::npos)
      << json;
  EXPECT_EQ(PeakText(peak), "est. 144 B at 0.000050 s (3 blocks)");
  std::string none;
  JsonWriter w(none);
  WritePeakMember(w, Analyze(Build({{10, 'a', 0}})));
  EXPECT_EQ(none, "\"peak\":null");
}

}  // namespace
}  // namespace mpo::memtrace::analysis
