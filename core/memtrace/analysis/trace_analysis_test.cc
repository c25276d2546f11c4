#include "core/memtrace/analysis/trace_analysis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/leaks.h"
#include "core/memtrace/analysis/site_attribution.h"
#include "core/memtrace/analysis/site_compare.h"
#include "core/memtrace/internal/undefined_code.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::memtrace::analysis {
namespace {

constexpr OcamlInt kMain = 0x7a0000000100;
constexpr OcamlInt kF = 0x7a0000000200;  // A.inner inlined into A.outer
constexpr OcamlInt kG = 0x7a0000000300;
constexpr OcamlInt kC = 0x7a0000000400;  // no frames (a C or runtime frame)

// F's site is its innermost frame; the frame it was inlined into is its nearest caller.
const std::string kFName = "A.inner@a.ml:20:2-8";
const std::string kFOuterName = "A.outer@a.ml:10:0-30";
const std::string kGName = "G.g@g.ml:3:4-5";
const std::string kMainName = "Main@main.ml:1:0-10";

// Start 1000, rate 0.25 and 64-bit words: 32 estimated bytes per sample.
//   t   event                                   site (callers = 0)
//   10  alloc #0 len 4  samples 2 [Main, F]      F
//   20  alloc #1 len 10 samples 3 [Main, G, C]   G (C has no frames)
//   30  alloc #2 len 1  samples 1 [C]            no frames
//   40  collect #0
//   50  alloc #3 len 2  samples 5 [G, F]         F (caller G)
//   60  collect #2
//   70  promote #1
// `extra`: one more allocation at t 80, len 3, 4 samples, at Main.
std::vector<std::uint8_t> Trace(bool extra = false) {
  VectorSink sink;
  Info info;
  info.sample_rate = 0.25;
  info.executable_name = "prog";
  info.pid = 7;
  info.start_time = 1000;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  static const std::map<OcamlInt, std::vector<Location>> kFrames = {
      {kMain, {{"main.ml", 1, 0, 10, "Main"}}},
      // Stored as memtrace stores inlined frames: outermost first.
      {kF, {{"a.ml", 10, 0, 30, "A.outer"}, {"a.ml", 20, 2, 8, "A.inner"}}},
      {kG, {{"g.ml", 3, 4, 5, "G.g"}}},
      {kC, {}},
  };
  const LocationLookup lookup = [](OcamlInt code) -> const std::vector<Location>* {
    auto it = kFrames.find(code);
    return it == kFrames.end() ? nullptr : &it->second;
  };
  using Bt = std::vector<OcamlInt>;
  TraceWriter& t = **w;
  const auto minor = AllocationSource::kMinor;
  const OcamlInt a0 = *t.PutAlloc(0, 1010, 4, 2, minor, Bt{kMain, kF}, lookup);
  const OcamlInt a1 =
      *t.PutAlloc(0, 1020, 10, 3, AllocationSource::kMajor, Bt{kMain, kG, kC}, lookup);
  const OcamlInt a2 = *t.PutAlloc(0, 1030, 1, 1, minor, Bt{kC}, lookup);
  EXPECT_TRUE(t.PutCollect(0, 1040, a0).ok());
  EXPECT_TRUE(t.PutAlloc(0, 1050, 2, 5, minor, Bt{kG, kF}, lookup).ok());
  EXPECT_TRUE(t.PutCollect(0, 1060, a2).ok());
  EXPECT_TRUE(t.PutPromote(0, 1070, a1).ok());
  if (extra) {
    EXPECT_TRUE(t.PutAlloc(0, 1080, 3, 4, minor, Bt{kMain}, lookup).ok());
  }
  EXPECT_TRUE(t.Flush().ok());
  return sink.data;
}

Result<TraceAnalysis> Analyze(const std::vector<std::uint8_t>& bytes,
                              const AnalysisOptions& o = {}) {
  return AnalyzeTrace(*MemorySource(bytes), o);
}

const Site* Find(const TraceAnalysis& a, const std::vector<std::string>& names) {
  for (const Site& s : a.sites)
    if (s.names == names) return &s;
  return nullptr;
}

TEST(TraceAnalysis, TotalsAndEstimatedBytes) {
  auto a = Analyze(Trace());
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->duration_us, 70u);
  EXPECT_EQ(a->allocated.blocks, 4u);
  EXPECT_EQ(a->allocated.samples, 11u);
  EXPECT_EQ(a->allocated.words, 17u);
  EXPECT_DOUBLE_EQ(EstimatedBytes(a->allocated.samples, a->info), 11 * 32.0);
  EXPECT_EQ(a->by_source[0], 3u);
  EXPECT_EQ(a->by_source[1], 1u);
  EXPECT_EQ(a->promotes, 1u);
  EXPECT_EQ(a->collects, 2u);
  EXPECT_EQ(a->lifetimes.count, 2u);
  EXPECT_EQ(a->lifetimes.median, 30);
  EXPECT_EQ(a->lifetimes.max, 30);
  EXPECT_DOUBLE_EQ(a->lifetimes.mean, 30);
  EXPECT_TRUE(a->lifetimes.exact);
  EXPECT_EQ(a->live.blocks, 2u);
  EXPECT_EQ(a->live.samples, 8u);
}

// The site is the innermost entry with frames; C frames are passed over.
TEST(TraceAnalysis, SitesAreInnermostFramedEntry) {
  auto a = Analyze(Trace());
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_EQ(a->sites.size(), 3u);
  EXPECT_EQ(a->sites[0].names, std::vector<std::string>{kFName});
  EXPECT_EQ(a->sites[0].allocated.blocks, 2u);
  EXPECT_EQ(a->sites[0].allocated.samples, 7u);
  EXPECT_EQ(a->sites[0].allocated.words, 6u);
  EXPECT_EQ(a->sites[0].live.samples, 5u);
  EXPECT_EQ(a->sites[1].names, std::vector<std::string>{kGName});
  EXPECT_EQ(a->sites[1].live.blocks, 1u);
  EXPECT_TRUE(a->sites[2].names.empty());
  EXPECT_EQ(a->sites[2].allocated.samples, 1u);
  EXPECT_EQ(a->sites[2].live.blocks, 0u);
}

// Callers are frames, nearest first: F's inlined frame A.outer is the nearest caller of
// its site, before the entry that called F.
// External allocations recorded through memtrace's tracer belong to its caller
// (site_attribution.h); other allocations and tracer-only backtraces keep their frames.
TEST(TraceAnalysis, ExternalAllocationsSkipTheTracersFrames) {
  constexpr OcamlInt kSlow = 0x7a0000000500;  // the tracer's slow path
  constexpr OcamlInt kUser = 0x7a0000000600;  // User.f with the tracer's ext_alloc inlined
  VectorSink sink;
  Info info;
  info.sample_rate = 0.25;
  info.start_time = 1000;
  auto w = TraceWriter::Create(sink, info);
  ASSERT_TRUE(w.ok());
  static const std::map<OcamlInt, std::vector<Location>> kFrames = {
      {kMain, {{"main.ml", 1, 0, 10, "Main"}}},
      {kSlow,
       {{"src/memprof_tracer.ml", 141, 24, 54, "Memtrace__Memprof_tracer.ext_alloc_slowpath"}}},
      {kUser,
       {{"u.ml", 5, 2, 9, "User.f"},
        {"src/memprof_tracer.ml", 160, 2, 30, "Memtrace__Memprof_tracer.ext_alloc"}}},
  };
  const LocationLookup lookup = [](OcamlInt code) -> const std::vector<Location>* {
    auto it = kFrames.find(code);
    return it == kFrames.end() ? nullptr : &it->second;
  };
  using Bt = std::vector<OcamlInt>;
  TraceWriter& t = **w;
  const auto ext = AllocationSource::kExternal;
  ASSERT_TRUE(t.PutAlloc(0, 1010, 100, 2, ext, Bt{kMain, kSlow}, lookup).ok());
  ASSERT_TRUE(t.PutAlloc(0, 1020, 100, 3, ext, Bt{kMain, kUser, kSlow}, lookup).ok());
  ASSERT_TRUE(t.PutAlloc(0, 1030, 100, 5, ext, Bt{kSlow}, lookup).ok());
  ASSERT_TRUE(t.PutAlloc(0, 1040, 4, 7, AllocationSource::kMinor, Bt{kMain, kSlow}, lookup).ok());
  ASSERT_TRUE(t.Flush().ok());
  AnalysisOptions o;
  o.callers = 1;
  auto a = Analyze(sink.data, o);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  const std::string slow =
      "Memtrace__Memprof_tracer.ext_alloc_slowpath@src/memprof_tracer.ml:141:24-54";
  const Site* main = Find(*a, {kMainName});
  const Site* user = Find(*a, {"User.f@u.ml:5:2-9", kMainName});
  const Site* only_tracer = Find(*a, {slow});
  const Site* minor = Find(*a, {slow, kMainName});
  ASSERT_NE(main, nullptr);
  ASSERT_NE(user, nullptr);
  ASSERT_NE(only_tracer, nullptr);
  ASSERT_NE(minor, nullptr);
  EXPECT_EQ(main->allocated.samples, 2u);
  EXPECT_EQ(user->allocated.samples, 3u);
  EXPECT_EQ(only_tracer->allocated.samples, 5u);
  EXPECT_EQ(minor->allocated.samples, 7u);
  EXPECT_EQ(a->sites.size(), 4u);
}

TEST(SiteAttribution, TracerFramesAreTheTracersExtAllocOnly) {
  EXPECT_TRUE(IsTracerFrame("Memtrace__Memprof_tracer.ext_alloc_slowpath"));
  EXPECT_TRUE(IsTracerFrame("Memtrace__Memprof_tracer.ext_alloc"));
  EXPECT_TRUE(IsTracerFrame("Memtrace.Memprof_tracer.ext_alloc"));
  EXPECT_FALSE(IsTracerFrame("Memtrace__Memprof_tracer.ext_free"));
  EXPECT_FALSE(IsTracerFrame("Memtrace__Memprof_tracer.ext_alloc_slowpath_x"));
  EXPECT_FALSE(IsTracerFrame("User.Memtrace__Memprof_tracer.ext_alloc"));
  EXPECT_FALSE(IsTracerFrame("Memprof_tracer.ext_alloc"));
  EXPECT_FALSE(IsTracerFrame(""));
}

TEST(TraceAnalysis, CallersSplitSites) {
  AnalysisOptions o;
  o.callers = 1;
  auto one = Analyze(Trace(), o);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  ASSERT_EQ(one->sites.size(), 3u);
  const Site* f = Find(*one, {kFName, kFOuterName});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->allocated.samples, 7u);
  EXPECT_EQ(CallersText(*f), kFOuterName);
  o.callers = 2;
  auto a = Analyze(Trace(), o);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_EQ(a->sites.size(), 4u);
  const Site* fg = Find(*a, {kFName, kFOuterName, kGName});
  const Site* fm = Find(*a, {kFName, kFOuterName, kMainName});
  const Site* gm = Find(*a, {kGName, kMainName});
  ASSERT_TRUE(fg && fm && gm);
  EXPECT_EQ(fg->allocated.samples, 5u);
  EXPECT_EQ(fm->allocated.samples, 2u);
  EXPECT_EQ(gm->allocated.samples, 3u);
  EXPECT_EQ(CallersText(*fg), kFOuterName + " <- " + kGName);
}

// In [25, 55] us: allocations #2 and #3; #0's collection is not counted (allocated
// before the window). #2 is collected at 60, after the window: not a leak candidate (it
// is not live at the end of the trace), and its collection is not the window's. #3 is
// never collected: the one candidate.
TEST(TraceAnalysis, Window) {
  AnalysisOptions o;
  o.from_us = 25;
  o.to_us = 55;
  auto a = Analyze(Trace(), o);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->allocated.blocks, 2u);
  EXPECT_EQ(a->allocated.samples, 6u);
  EXPECT_EQ(a->collects, 0u);
  EXPECT_EQ(a->lifetimes.count, 0u);
  EXPECT_EQ(a->live.blocks, 1u);
  EXPECT_EQ(a->live.samples, 5u);
  EXPECT_EQ(a->duration_us, 70u);
  const auto leaks = LeakSites(*a, 10);
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0]->names, std::vector<std::string>{kFName});
  EXPECT_EQ(leaks[0]->live.blocks, 1u);
  EXPECT_EQ(leaks[0]->allocated.blocks, 1u);
  // Ending the window after #2's collection changes nothing for it.
  o.to_us = 65;
  auto longer = Analyze(Trace(), o);
  ASSERT_TRUE(longer.ok());
  EXPECT_EQ(longer->live.blocks, 1u);
  EXPECT_EQ(longer->collects, 1u);
}

// The timeline is the true live heap, whatever the window: blocks allocated before the
// window count until they are collected.
TEST(TraceAnalysis, WindowKeepsTheTrueLiveHeap) {
  AnalysisOptions o;
  auto whole = Analyze(Trace(), o);
  o.from_us = 25;
  o.to_us = 55;
  auto window = Analyze(Trace(), o);
  ASSERT_TRUE(whole.ok() && window.ok());
  ASSERT_EQ(window->timeline.size(), whole->timeline.size());
  for (std::size_t i = 0; i < whole->timeline.size(); ++i) {
    EXPECT_EQ(window->timeline[i].t_us, whole->timeline[i].t_us);
    EXPECT_EQ(window->timeline[i].live_samples, whole->timeline[i].live_samples) << i;
  }
  // At 30 us, #0 (2 samples, allocated at 10, before the window) and #1 (3) are live
  // besides #2 (1): 6 samples, where the window's own allocations hold 1.
  EXPECT_EQ(window->timeline[30].live_samples, 6u);
}

TEST(TraceAnalysis, WindowPastTheEndIsAnError) {
  AnalysisOptions o;
  o.from_us = 70;  // the last event
  EXPECT_TRUE(Analyze(Trace(), o).ok());
  o.from_us = 71;
  const Status s = Analyze(Trace(), o).status();
  EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.field(), "--from");
  EXPECT_NE(s.ToString().find("the trace lasts 0.000070 s"), std::string::npos) << s.ToString();
  EXPECT_TRUE(CheckWindowStart(0, 0).ok());
  EXPECT_FALSE(CheckWindowStart(1, 0).ok());
}

// Two event packets: allocs #0 (t 10, 2 samples) and #1 (t 20, 3 samples), then a
// packet with a collection of #0 and alloc #2 (t 40, 4 samples). *second: where the
// second packet starts.
std::vector<std::uint8_t> TwoPackets(std::size_t* second) {
  VectorSink sink;
  Info info;
  info.sample_rate = 0.25;
  info.start_time = 1000;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  static const std::vector<Location> kMainFrames = {{"main.ml", 1, 0, 10, "Main"}};
  const LocationLookup lookup = [](OcamlInt) { return &kMainFrames; };
  using Bt = std::vector<OcamlInt>;
  TraceWriter& t = **w;
  const auto minor = AllocationSource::kMinor;
  const OcamlInt a0 = *t.PutAlloc(0, 1010, 4, 2, minor, Bt{kMain}, lookup);
  EXPECT_TRUE(t.PutAlloc(0, 1020, 4, 3, minor, Bt{kMain}, lookup).ok());
  EXPECT_TRUE(t.Flush().ok());
  *second = sink.data.size();
  EXPECT_TRUE(t.PutCollect(0, 1030, a0).ok());
  EXPECT_TRUE(t.PutAlloc(0, 1040, 4, 4, minor, Bt{kMain}, lookup).ok());
  EXPECT_TRUE(t.Flush().ok());
  return sink.data;
}

// A trace cut inside its last packet (an out-of-memory kill): by default a typed error;
// with stop_at_damage, the figures of the whole packets before the cut and where it
// stopped.
TEST(TraceAnalysis, StopsAtDamage) {
  std::size_t second = 0;
  auto cut = TwoPackets(&second);
  ASSERT_TRUE(Analyze(cut).ok());
  cut.resize(cut.size() - 2);
  EXPECT_EQ(Analyze(cut).status().code(), ErrorCode::kTruncated);
  AnalysisOptions o;
  o.stop_at_damage = true;
  auto a = Analyze(cut, o);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(a->damage.has_value());
  // The error's offset: the second packet's size field, in its header.
  EXPECT_EQ(a->damage->offset, a->damage->error.byte_offset().value_or(0));
  EXPECT_GE(a->damage->offset, second);
  EXPECT_LT(a->damage->offset, second + 16);
  const std::string at = std::to_string(a->damage->offset);
  EXPECT_EQ(a->damage->events_read, 2u);
  EXPECT_EQ(a->damage->error.code(), ErrorCode::kTruncated);
  EXPECT_EQ(a->allocated.blocks, 2u);
  EXPECT_EQ(a->allocated.samples, 5u);
  EXPECT_EQ(a->live.blocks, 2u);
  EXPECT_EQ(a->duration_us, 20u);
  EXPECT_EQ(
      DamageText("t.ctf", *a->damage).rfind("t.ctf: stopped at byte " + at + " (truncated: ", 0),
      0u);
  const std::string json = FormatLeaksJson(*a, "t.ctf", 1);
  EXPECT_NE(json.find("\"damage\":{\"offset\":" + at +
                      ",\"events_read\":2,\"error\":{\"code\":\"truncated\""),
            std::string::npos)
      << json;
  // A clean read says so.
  auto clean = Analyze(TwoPackets(&second), o);
  ASSERT_TRUE(clean.ok());
  EXPECT_FALSE(clean->damage.has_value());
  EXPECT_NE(FormatLeaksJson(*clean, "t.ctf", 1).find("\"damage\":null"), std::string::npos);
}

// A corrupt byte after some events stops the read there too; one before any event, and
// a budget passed, still fail.
TEST(TraceAnalysis, StopsAtCorruptionAfterEventsOnly) {
  AnalysisOptions o;
  o.stop_at_damage = true;
  const auto undefined_first = testing::WithUndefinedCode(Trace(), kMain);
  ASSERT_FALSE(undefined_first.empty());
  EXPECT_EQ(Analyze(undefined_first, o).status().code(), ErrorCode::kCorrupt);
  const auto undefined_later = testing::WithUndefinedCode(Trace(), kG);
  ASSERT_FALSE(undefined_later.empty());
  auto a = Analyze(undefined_later, o);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(a->damage.has_value());
  EXPECT_EQ(a->damage->error.field(), "backtrace: location code");
  EXPECT_EQ(a->damage->events_read, 1u);  // #1, the first to use G, is not read
  EXPECT_EQ(a->allocated.blocks, 1u);
  AnalysisOptions tight = o;
  tight.limits.max_location_bytes = 4;
  EXPECT_EQ(Analyze(Trace(), tight).status().code(), ErrorCode::kResourceExhausted);
}

TEST(TraceAnalysis, Timeline) {
  AnalysisOptions o;
  auto fine = Analyze(Trace(), o);
  ASSERT_TRUE(fine.ok());
  ASSERT_EQ(fine->timeline.size(), 71u);  // 1 us steps up to the last event, at t = 70
  EXPECT_EQ(fine->timeline[50].live_samples, 9u);
  EXPECT_EQ(fine->timeline.back().t_us, 70);
  EXPECT_EQ(fine->timeline.back().live_samples, 8u);
  o.timeline_points = 4;
  auto coarse = Analyze(Trace(), o);
  ASSERT_TRUE(coarse.ok());
  std::vector<std::pair<std::int64_t, std::uint64_t>> got;
  for (const TimelinePoint& p : coarse->timeline) got.emplace_back(p.t_us, p.live_samples);
  EXPECT_EQ(got, (std::vector<std::pair<std::int64_t, std::uint64_t>>{{31, 6}, {63, 8}, {70, 8}}));
}

TEST(TraceAnalysis, LeaksText) {
  auto a = Analyze(Trace());
  ASSERT_TRUE(a.ok());
  const std::string text = FormatLeaks(*a, "t.ctf", 10);
  EXPECT_NE(text.find("t.ctf: 2 blocks (8 samples, 12 words, est. 256 B) allocated and never "
                      "collected, at 2 sites\n"),
            std::string::npos)
      << text;
  const std::string json = FormatLeaksJson(*a, "t.ctf", 1);
  EXPECT_NE(json.find("\"sites\":[{\"site\":\"" + kFName +
                      "\",\"callers\":[],\"blocks\":2,\"samples\":7,\"words\":6,"
                      "\"est_bytes\":224,\"live_blocks\":1,\"live_samples\":5,"
                      "\"live_words\":2,\"live_est_bytes\":160}]}"),
            std::string::npos)
      << json;
}

TEST(TraceAnalysis, Compare) {
  auto a = Analyze(Trace());
  auto b = Analyze(Trace(true));
  ASSERT_TRUE(a.ok() && b.ok());
  const auto changes = CompareSites(*a, *b);
  ASSERT_EQ(changes.size(), 4u);
  EXPECT_STREQ(changes[0].status(), "new");
  EXPECT_EQ(changes[0].b->names, std::vector<std::string>{kMainName});
  EXPECT_DOUBLE_EQ(changes[0].change(), 4 * 32.0);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_STREQ(changes[i].status(), "same");
  const auto back = CompareSites(*b, *a);
  EXPECT_STREQ(back[0].status(), "gone");
  const std::string json = FormatCompareJson(*a, "a", *b, "b", 1);
  EXPECT_NE(json.find("\"change_est_bytes\":128,\"grew\":0,\"shrank\":0,\"new\":1,\"gone\":0,"
                      "\"same\":3,\"within_noise\":0"),
            std::string::npos)
      << json;
  // Four new samples: z = 4 / sqrt(4) = 2, just outside the noise.
  EXPECT_NE(json.find("\"change_est_bytes\":128,\"z\":2,\"within_noise\":false}"),
            std::string::npos)
      << json;
}

// A change's z: the difference of the estimates over its standard deviation when each
// count is Poisson. 100 -> 110 samples at one rate is noise; 100 -> 200 is not; so is
// one new sample, and a doubled rate with half the samples is no change at all.
TEST(TraceAnalysis, SamplingNoiseOfAChange) {
  Info info;
  info.sample_rate = 1e-3;
  info.word_size = 64;
  EXPECT_NEAR(ChangeZ(100, info, 110, info), 10 / std::sqrt(210.0), 1e-12);
  EXPECT_NEAR(ChangeZ(100, info, 200, info), 100 / std::sqrt(300.0), 1e-12);
  EXPECT_NEAR(ChangeZ(200, info, 100, info), -100 / std::sqrt(300.0), 1e-12);
  EXPECT_DOUBLE_EQ(ChangeZ(0, info, 1, info), 1.0);
  EXPECT_DOUBLE_EQ(ChangeZ(0, info, 0, info), 0.0);
  Info twice = info;
  twice.sample_rate = 2e-3;
  EXPECT_DOUBLE_EQ(ChangeZ(100, info, 200, twice), 0.0);
  Info broken = info;
  broken.sample_rate = 0;
  EXPECT_DOUBLE_EQ(ChangeZ(100, broken, 200, broken), 0.0);

  SiteChange c;
  c.a_bytes = 1, c.b_bytes = 2, c.z = 1.9;
  EXPECT_TRUE(c.within_noise());
  c.z = -2.5;
  EXPECT_FALSE(c.within_noise());
  c.b_bytes = 1, c.z = 0;
  EXPECT_FALSE(c.within_noise());  // "same" is not a change
}

TEST(TraceAnalysis, UndefinedCodeAndBadOptionsAreTypedErrors) {
  const auto bad = testing::WithUndefinedCode(Trace(), kG);
  ASSERT_FALSE(bad.empty());
  auto a = Analyze(bad);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(a.status().field(), "backtrace: location code");
  AnalysisOptions o;
  o.from_us = 10;
  o.to_us = 5;
  EXPECT_EQ(Analyze(Trace(), o).status().code(), ErrorCode::kInvalidArgument);
  auto truncated = Trace();
  truncated.resize(truncated.size() / 2);
  EXPECT_FALSE(Analyze(truncated).status().ok() && Analyze(truncated)->allocated.blocks == 4);
}

// Every truncation and every single-bit flip of the trace: a result or a typed error,
// and the outputs of a result print (no crash, UB or hang; ASan/UBSan runs make this
// stronger). The results of damaged traces are checked for internal consistency.
TEST(TraceAnalysis, DamagedTracesGiveTypedErrorsOrConsistentResults) {
  const auto good = Trace(true);
  std::size_t errors = 0;
  auto run = [&](const std::vector<std::uint8_t>& bytes) {
    AnalysisOptions o;
    o.callers = 2;
    o.timeline_points = 3;
    auto a = Analyze(bytes, o);
    if (!a.ok()) {
      EXPECT_NE(a.status().code(), ErrorCode::kOk);
      ++errors;
      return;
    }
    Tally sum;
    for (const Site& s : a->sites) {
      sum.blocks += s.allocated.blocks;
      sum.samples += s.allocated.samples;
      EXPECT_LE(s.live.blocks, s.allocated.blocks);
    }
    EXPECT_EQ(sum.blocks, a->allocated.blocks);
    EXPECT_EQ(sum.samples, a->allocated.samples);
    EXPECT_LE(a->timeline.size(), 3u);
    (void)FormatLeaks(*a, "x", 5);
    (void)FormatLeaksJson(*a, "x", 5);
    (void)FormatCompareJson(*a, "x", *a, "y", 5);
  };
  // Stopping at damage: a clean trace reads as before, a damaged one either fails as
  // before or stops at a typed error after the events it names.
  auto stopping = [&](const std::vector<std::uint8_t>& bytes) {
    AnalysisOptions o;
    o.stop_at_damage = true;
    auto plain = Analyze(bytes);
    auto a = Analyze(bytes, o);
    if (plain.ok()) {
      ASSERT_TRUE(a.ok());
      EXPECT_FALSE(a->damage.has_value());
      EXPECT_EQ(a->allocated.samples, plain->allocated.samples);
      return;
    }
    if (!a.ok()) {
      EXPECT_EQ(a.status().code(), plain.status().code());
      return;
    }
    ASSERT_TRUE(a->damage.has_value());
    EXPECT_EQ(a->damage->error.code(), plain.status().code());
    EXPECT_TRUE(IsDamage(a->damage->error, a->damage->events_read));
    EXPECT_LE(a->allocated.blocks, a->damage->events_read);
    (void)FormatLeaksJson(*a, "x", 5);
  };
  for (std::size_t n = 0; n < good.size(); ++n) {
    const std::vector<std::uint8_t> cut(good.begin(),
                                        good.begin() + static_cast<std::ptrdiff_t>(n));
    run(cut);
    stopping(cut);
  }
  for (std::size_t bit = 0; bit < good.size() * 8; ++bit) {
    auto bad = good;
    bad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    run(bad);
    stopping(bad);
  }
  EXPECT_GT(errors, 0u);
}

// 100 sites, each with one distinct outermost frame and 64 frames of one long name: the
// name is rendered once but held 64 times by every site (callers = 64).
std::vector<std::uint8_t> ManyDeepSites() {
  VectorSink sink;
  Info info;
  info.sample_rate = 1;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  constexpr OcamlInt kLong = 0x7b0000000000;
  static const std::vector<Location> long_frame = {{"l.ml", 1, 0, 1, std::string(2000, 'x')}};
  static std::map<OcamlInt, std::vector<Location>> frames;
  frames[kLong] = long_frame;
  for (OcamlInt i = 1; i <= 100; ++i) frames[kLong + 16 * i] = {{"s.ml", i, 0, 1, "S"}};
  const LocationLookup lookup = [](OcamlInt code) -> const std::vector<Location>* {
    auto it = frames.find(code);
    return it == frames.end() ? nullptr : &it->second;
  };
  for (OcamlInt i = 1; i <= 100; ++i) {
    std::vector<OcamlInt> bt(65, kLong);
    bt[0] = kLong + 16 * i;
    EXPECT_TRUE((*w)->PutAlloc(0, 10 + i, 1, 1, AllocationSource::kMinor, bt, lookup).ok());
  }
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

TEST(TraceAnalysis, SiteBudgetsCountWhatIsHeld) {
  const auto bytes = ManyDeepSites();
  AnalysisOptions o;
  o.callers = 64;
  o.limits.max_location_bytes = 1 << 20;  // > the distinct text, < the 12.8 MB held
  auto a = Analyze(bytes, o);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), ErrorCode::kResourceExhausted);
  EXPECT_NE(a.status().message().find("--max-location-bytes"), std::string::npos);
  o.callers = 0;  // one site of one frame
  ASSERT_TRUE(Analyze(bytes, o).ok());
  EXPECT_EQ(Analyze(bytes, o)->sites.size(), 1u);

  AnalysisOptions f;
  f.callers = 64;
  f.limits.max_held_frames = 1000;  // > one backtrace, < the 6,500 frames of 100 keys
  auto held = Analyze(bytes, f);
  ASSERT_FALSE(held.ok());
  EXPECT_NE(held.status().message().find("--max-held-frames"), std::string::npos);
  f.limits.max_held_frames = 6500;
  auto fits = Analyze(bytes, f);
  ASSERT_TRUE(fits.ok()) << fits.status().message();
  EXPECT_EQ(fits->sites.size(), 100u);
  EXPECT_EQ(fits->sites[0].names.size(), 65u);
}

TEST(TraceAnalysis, SecondsToMicros) {
  EXPECT_EQ(SecondsToMicros(1.5), 1'500'000);
  EXPECT_EQ(SecondsToMicros(0), 0);
  EXPECT_EQ(SecondsToMicros(1e300), std::numeric_limits<std::int64_t>::max());
}

}  // namespace
}  // namespace mpo::memtrace::analysis
