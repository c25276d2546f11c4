#include "core/export/folded.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/internal/undefined_code.h"
#include "core/memtrace/trace_writer.h"

namespace mpo::exporter {
namespace {

using namespace mpo::memtrace;

// main -> (outer with inner inlined) -> alloc site, plus a second site and a block
// without backtrace.
std::vector<std::uint8_t> SmallTrace(OcamlInt site_b_code = 3) {
  VectorSink sink;
  Info info;
  info.pid = 1;
  info.start_time = 1000;
  info.sample_rate = 0.01;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  std::map<OcamlInt, std::vector<Location>> locs = {
      {1, {{"main.ml", 3, 0, 1, "Main.run"}}},
      // Inlined frames stored as memtrace stores them: outermost first.
      {2, {{"a.ml", 10, 0, 1, "A.outer"}, {"a.ml", 20, 0, 1, "A.inner"}}},
      {site_b_code, {{"b.ml", 5, 0, 1, "B.make;list"}}},
  };
  auto lookup = [&](OcamlInt c) -> const std::vector<Location>* {
    auto it = locs.find(c);
    return it == locs.end() ? nullptr : &it->second;
  };
  const std::vector<OcamlInt> site_a = {1, 2};
  const std::vector<OcamlInt> site_b = {1, site_b_code};
  EXPECT_TRUE((*w)->PutAlloc(0, 1001, 4, 1, AllocationSource::kMinor, site_a, lookup).ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1002, 10, 3, AllocationSource::kMajor, site_a, lookup).ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1003, 2, 2, AllocationSource::kMinor, site_b, lookup).ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1004, 7, 1, AllocationSource::kMinor, {}, lookup).ok());
  EXPECT_TRUE((*w)->PutPromote(0, 1005, 0).ok());
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

TEST(Folded, SamplesCallerFirstInlinedFramesUnfolded) {
  const auto bytes = SmallTrace();
  auto text = FoldedStacks(MemorySource(bytes), FoldedWeight::kSamples);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(*text,
            "<no backtrace> 1\n"
            "Main.run (main.ml:3);A.outer (a.ml:10);A.inner (a.ml:20) 4\n"
            "Main.run (main.ml:3);B.make_list (b.ml:5) 2\n");
}

// An external allocation through memtrace's tracer counts at the tracer's caller; with
// live_at, only the blocks live then count (allocated at or before T, not collected by
// then), and a time after the last event is refused.
std::vector<std::uint8_t> ExternalTrace() {
  VectorSink sink;
  Info info;
  info.start_time = 1000;
  info.sample_rate = 0.01;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  const std::map<OcamlInt, std::vector<Location>> locs = {
      {1, {{"main.ml", 3, 0, 1, "Main.run"}}},
      {2, {{"src/memprof_tracer.ml", 141, 24, 54, "Memtrace__Memprof_tracer.ext_alloc_slowpath"}}},
      {3, {{"b.ml", 5, 0, 1, "B.make"}}},
  };
  auto lookup = [&](OcamlInt c) -> const std::vector<Location>* {
    auto it = locs.find(c);
    return it == locs.end() ? nullptr : &it->second;
  };
  TraceWriter& t = **w;
  const auto ext = AllocationSource::kExternal;
  const OcamlInt e0 = *t.PutAlloc(0, 1010, 100, 5, ext, std::vector<OcamlInt>{1, 2}, lookup);
  EXPECT_TRUE(
      t.PutAlloc(0, 1020, 2, 3, AllocationSource::kMinor, std::vector<OcamlInt>{1, 3}, lookup)
          .ok());
  EXPECT_TRUE(t.PutCollect(0, 1030, e0).ok());
  EXPECT_TRUE(
      t.PutAlloc(0, 1040, 2, 7, AllocationSource::kMinor, std::vector<OcamlInt>{1, 2}, lookup)
          .ok());
  EXPECT_TRUE(t.Flush().ok());
  return sink.data;
}

std::string FoldedText(const std::vector<std::uint8_t>& bytes, const FoldedOptions& o) {
  StringTextSink out;
  auto src = MemorySource(bytes);
  const Status s = WriteFoldedStacks(*src, o, out);
  return s.ok() ? out.text : "error: " + s.ToString();
}

TEST(Folded, ExternalAllocationsAtTheTracersCaller) {
  const std::string slow =
      "Main.run (main.ml:3);Memtrace__Memprof_tracer.ext_alloc_slowpath "
      "(src/memprof_tracer.ml:141)";
  // The minor allocation through the same frames keeps them.
  EXPECT_EQ(FoldedText(ExternalTrace(), {}),
            "Main.run (main.ml:3) 5\nMain.run (main.ml:3);B.make (b.ml:5) 3\n" + slow + " 7\n");
}

TEST(Folded, LiveAt) {
  using analysis::LiveAt;
  const auto bytes = ExternalTrace();
  FoldedOptions o;
  o.live_at = LiveAt{LiveAt::Kind::kTime, 25};  // the external block is not collected yet
  EXPECT_EQ(FoldedText(bytes, o),
            "Main.run (main.ml:3) 5\nMain.run (main.ml:3);B.make (b.ml:5) 3\n");
  o.live_at = LiveAt{LiveAt::Kind::kTime, 30};  // collected at 30: not live
  EXPECT_EQ(FoldedText(bytes, o), "Main.run (main.ml:3);B.make (b.ml:5) 3\n");
  o.live_at = LiveAt{LiveAt::Kind::kEnd, 0};
  EXPECT_EQ(FoldedText(bytes, o),
            "Main.run (main.ml:3);B.make (b.ml:5) 3\nMain.run (main.ml:3);"
            "Memtrace__Memprof_tracer.ext_alloc_slowpath (src/memprof_tracer.ml:141) 7\n");
  // The peak: 8 samples live from 20 to 30 (and 10 from 40 on: the end is the peak).
  o.live_at = LiveAt{LiveAt::Kind::kPeak, 0};
  EXPECT_EQ(
      FoldedText(bytes, o),
      FoldedText(bytes, FoldedOptions{.limits = {}, .live_at = LiveAt{LiveAt::Kind::kEnd, 0}}));
  o.live_at = LiveAt{LiveAt::Kind::kTime, 41};
  EXPECT_TRUE(FoldedText(bytes, o).starts_with("error: ")) << FoldedText(bytes, o);
  // A window: the blocks allocated in it only.
  o.live_at = LiveAt{LiveAt::Kind::kTime, 25};
  o.from_us = 15;
  EXPECT_EQ(FoldedText(bytes, o), "Main.run (main.ml:3);B.make (b.ml:5) 3\n");
}

TEST(Folded, Words) {
  const auto bytes = SmallTrace();
  auto text = FoldedStacks(MemorySource(bytes), FoldedWeight::kWords);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text,
            "<no backtrace> 7\n"
            "Main.run (main.ml:3);A.outer (a.ml:10);A.inner (a.ml:20) 14\n"
            "Main.run (main.ml:3);B.make_list (b.ml:5) 2\n");
}

TEST(Folded, BadTraceIsTypedError) {
  auto bytes = SmallTrace();
  bytes[0] ^= 1;
  auto text = FoldedStacks(MemorySource(bytes), FoldedWeight::kSamples);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().field(), "packet header: magic");
  EXPECT_EQ(text.status().byte_offset(), std::optional<std::uint64_t>(0));
}

// The decoded view's policy: a code no location event defined is a typed error at the
// event that first uses it, not a made-up frame name.
TEST(Folded, UndefinedLocationCodeIsTypedError) {
  constexpr OcamlInt kSite = 0x5a5a5a5a1234;
  const auto bad = memtrace::testing::WithUndefinedCode(SmallTrace(kSite), kSite);
  ASSERT_FALSE(bad.empty());
  const std::uint64_t first_use = memtrace::testing::FirstUseOffset(bad, kSite);
  ASSERT_GT(first_use, 0u);
  auto text = FoldedStacks(MemorySource(bad), FoldedWeight::kSamples);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(text.status().field(), "backtrace: location code");
  EXPECT_EQ(text.status().byte_offset(), std::optional<std::uint64_t>(first_use));
}

// C frames (codes without frames) and recursion: start -> main -> f -> f -> f (at two
// lines) -> C -> alloc at g.
std::vector<std::uint8_t> RecursiveTrace() {
  VectorSink sink;
  Info info;
  info.pid = 1;
  info.start_time = 1000;
  info.sample_rate = 0.5;  // 16 estimated bytes per sample
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  std::map<OcamlInt, std::vector<Location>> locs = {
      {10, {}},
      {11, {{"main.ml", 3, 0, 1, "Main.run"}}},
      {12, {{"f.ml", 7, 0, 1, "F.f"}}},
      {13, {{"f.ml", 9, 0, 1, "F.f"}}},
      {14, {}},
      {15, {{"g.ml", 2, 0, 1, "G.g"}}},
  };
  auto lookup = [&](OcamlInt c) -> const std::vector<Location>* {
    auto it = locs.find(c);
    return it == locs.end() ? nullptr : &it->second;
  };
  const std::vector<OcamlInt> deep = {10, 11, 12, 12, 13, 14, 15};
  const std::vector<OcamlInt> c_only = {10, 14};
  EXPECT_TRUE((*w)->PutAlloc(0, 1010, 4, 3, AllocationSource::kMinor, deep, lookup).ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1020, 4, 1, AllocationSource::kMinor, c_only, lookup).ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1030, 2, 2, AllocationSource::kMinor, deep, lookup).ok());
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

Result<std::string> Folded(const std::vector<std::uint8_t>& bytes, const FoldedOptions& o) {
  StringTextSink out;
  MPO_RETURN_IF_ERROR(WriteFoldedStacks(*MemorySource(bytes), o, out));
  return std::move(out.text);
}

// No "$CODE" frame for the codes without frames: neither as the root nor in between.
TEST(Folded, CodesWithoutFramesContributeNone) {
  auto text = Folded(RecursiveTrace(), {});
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(*text,
            "<no backtrace> 1\n"
            "Main.run (main.ml:3);F.f (f.ml:7);F.f (f.ml:7);F.f (f.ml:9);G.g (g.ml:2) 5\n");
}

TEST(Folded, CollapseRecursionAndFunctions) {
  FoldedOptions o;
  o.collapse_recursion = true;
  auto collapsed = Folded(RecursiveTrace(), o);
  ASSERT_TRUE(collapsed.ok());
  EXPECT_EQ(*collapsed,
            "<no backtrace> 1\n"
            "Main.run (main.ml:3);F.f (f.ml:7);F.f (f.ml:9);G.g (g.ml:2) 5\n");
  o.functions = true;
  auto both = Folded(RecursiveTrace(), o);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(*both, "<no backtrace> 1\nMain.run;F.f;G.g 5\n");
  o.collapse_recursion = false;
  auto functions = Folded(RecursiveTrace(), o);
  ASSERT_TRUE(functions.ok());
  EXPECT_EQ(*functions, "<no backtrace> 1\nMain.run;F.f;F.f;F.f;G.g 5\n");
}

TEST(Folded, WindowAndEstimatedBytes) {
  FoldedOptions o;
  o.from_us = 15;
  o.weight = FoldedWeight::kBytes;
  auto text = Folded(RecursiveTrace(), o);
  ASSERT_TRUE(text.ok());
  // Samples 1 and 2 at 16 bytes each; the allocation at 10 us is outside the window.
  EXPECT_EQ(*text,
            "<no backtrace> 16\n"
            "Main.run (main.ml:3);F.f (f.ml:7);F.f (f.ml:7);F.f (f.ml:9);G.g (g.ml:2) 32\n");
  o.from_us = 0;
  o.to_us = 5;
  auto none = Folded(RecursiveTrace(), o);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, "");
}

// A window starting after the last event is an error, before any output.
TEST(Folded, WindowPastTheEndIsAnError) {
  FoldedOptions o;
  o.from_us = 1'000'000;
  auto text = Folded(RecursiveTrace(), o);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(text.status().ToString().find("the trace lasts"), std::string::npos);
}

// Two packets, the second cut short (an out-of-memory kill): refused by default; with
// `damage`, the stacks of the first packet and where the read stopped.
TEST(Folded, StopsAtDamage) {
  VectorSink sink;
  Info info;
  info.start_time = 1000;
  info.sample_rate = 1;
  auto w = TraceWriter::Create(sink, info);
  ASSERT_TRUE(w.ok());
  const std::vector<Location> main = {{"main.ml", 3, 0, 1, "Main.run"}};
  auto lookup = [&](OcamlInt) { return &main; };
  const std::vector<OcamlInt> bt = {1};
  EXPECT_TRUE((*w)->PutAlloc(0, 1001, 4, 5, AllocationSource::kMinor, bt, lookup).ok());
  EXPECT_TRUE((*w)->Flush().ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1002, 4, 2, AllocationSource::kMinor, bt, lookup).ok());
  EXPECT_TRUE((*w)->Flush().ok());
  sink.data.resize(sink.data.size() - 2);
  StringTextSink refused;
  FoldedOptions o;
  EXPECT_EQ(WriteFoldedStacks(*MemorySource(sink.data), o, refused).code(), ErrorCode::kTruncated);
  EXPECT_EQ(refused.text, "");
  std::optional<memtrace::analysis::Damage> damage;
  o.damage = &damage;
  StringTextSink out;
  ASSERT_TRUE(WriteFoldedStacks(*MemorySource(sink.data), o, out).ok());
  EXPECT_EQ(out.text, "Main.run (main.ml:3) 5\n");
  ASSERT_TRUE(damage.has_value());
  EXPECT_EQ(damage->events_read, 1u);
  EXPECT_EQ(damage->error.code(), ErrorCode::kTruncated);
}

// One location of three inlined frames, stored outermost first as memtrace's writer
// stores them (R.split inlines R.next, which inlines R.bits): R.bits allocated, called
// from R.next, called from R.split, called from Main.run, which R.split recurses into
// through one more entry. Every reader of the backtrace agrees on that order
// (core/memtrace/analysis/backtrace_frames.h).
std::vector<std::uint8_t> InlinedTrace() {
  VectorSink sink;
  Info info;
  info.pid = 1;
  info.start_time = 1000;
  info.sample_rate = 1;
  auto w = TraceWriter::Create(sink, info);
  EXPECT_TRUE(w.ok());
  std::map<OcamlInt, std::vector<Location>> locs = {
      {1, {{"main.ml", 3, 0, 1, "Main.run"}}},
      {2,
       {{"r.ml", 329, 0, 1, "R.split"},
        {"r.ml", 300, 0, 1, "R.next"},
        {"r.ml", 258, 0, 1, "R.bits"}}},
      {3, {{"r.ml", 329, 0, 1, "R.split"}}},
  };
  auto lookup = [&](OcamlInt c) -> const std::vector<Location>* {
    auto it = locs.find(c);
    return it == locs.end() ? nullptr : &it->second;
  };
  const std::vector<OcamlInt> direct = {1, 2};
  const std::vector<OcamlInt> recursive = {1, 3, 2};
  EXPECT_TRUE((*w)->PutAlloc(0, 1001, 4, 5, AllocationSource::kMinor, direct, lookup).ok());
  EXPECT_TRUE((*w)->PutAlloc(0, 1002, 4, 2, AllocationSource::kMinor, recursive, lookup).ok());
  EXPECT_TRUE((*w)->Flush().ok());
  return sink.data;
}

TEST(Folded, InlinedFramesOneOrderEverywhere) {
  const auto bytes = InlinedTrace();
  FoldedOptions o;
  o.functions = true;
  auto folded = Folded(bytes, o);
  ASSERT_TRUE(folded.ok()) << folded.status().ToString();
  EXPECT_EQ(*folded,
            "Main.run;R.split;R.next;R.bits 5\n"
            "Main.run;R.split;R.split;R.next;R.bits 2\n");
  o.collapse_recursion = true;
  auto collapsed = Folded(bytes, o);
  ASSERT_TRUE(collapsed.ok());
  EXPECT_EQ(*collapsed, "Main.run;R.split;R.next;R.bits 7\n");

  // The site is the innermost frame; its callers run outwards, the inlined ones first.
  memtrace::analysis::AnalysisOptions a;
  a.callers = 3;
  auto analysed = memtrace::analysis::AnalyzeTrace(*MemorySource(bytes), a);
  ASSERT_TRUE(analysed.ok()) << analysed.status().ToString();
  ASSERT_EQ(analysed->sites.size(), 2u);
  const memtrace::analysis::Site& direct = analysed->sites[0];
  EXPECT_EQ(memtrace::analysis::SiteText(direct), "R.bits@r.ml:258:0-1");
  EXPECT_EQ(memtrace::analysis::CallersText(direct),
            "R.next@r.ml:300:0-1 <- R.split@r.ml:329:0-1 <- Main.run@main.ml:3:0-1");
  EXPECT_EQ(memtrace::analysis::CallersText(analysed->sites[1]),
            "R.next@r.ml:300:0-1 <- R.split@r.ml:329:0-1 <- R.split@r.ml:329:0-1");
  a.callers = 0;
  auto plain = memtrace::analysis::AnalyzeTrace(*MemorySource(bytes), a);
  ASSERT_TRUE(plain.ok());
  ASSERT_EQ(plain->sites.size(), 1u);
  EXPECT_EQ(plain->sites[0].names, std::vector<std::string>{"R.bits@r.ml:258:0-1"});
  EXPECT_EQ(plain->sites[0].allocated.samples, 7u);
}

}  // namespace
}  // namespace mpo::exporter
