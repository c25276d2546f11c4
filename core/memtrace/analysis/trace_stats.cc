#include "core/memtrace/analysis/trace_stats.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "core/base/json_writer.h"
#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/liveness_text.h"

namespace mpo::memtrace {
namespace {

using analysis::EstimatedBytes;
using analysis::Site;

// The first `top` sites ranked by `key`, descending (ties: the analysis's order, by
// samples then name).
// With `live_only`, only the sites with live blocks.
template <typename Key>
std::vector<std::size_t> Top(const analysis::TraceAnalysis& a, std::size_t top, bool live_only,
                             Key key) {
  std::vector<const Site*> order;
  order.reserve(a.sites.size());
  for (const Site& s : a.sites)
    if (!live_only || s.live.blocks > 0) order.push_back(&s);
  const std::size_t n = std::min(top, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](const Site* x, const Site* y) {
                      if (key(*x) != key(*y)) return key(*x) > key(*y);
                      return x < y;
                    });
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(static_cast<std::size_t>(order[i] - a.sites.data()));
  return out;
}

}  // namespace

const char* SiteRankName(SiteRank r) {
  switch (r) {
    case SiteRank::kBytes: return "bytes";
    case SiteRank::kSamples: return "samples";
    case SiteRank::kWords: return "words";
  }
  return "bytes";
}

Result<TraceStats> ComputeTraceStats(ByteSource& source, const StatsOptions& options) {
  auto analysed = analysis::AnalyzeTrace(source, options.analysis);
  if (!analysed.ok()) return analysed.status();
  TraceStats st;
  st.analysis = std::move(*analysed);
  const analysis::TraceAnalysis& a = st.analysis;
  st.info = a.info;
  st.version = a.version;
  st.duration_us = a.duration_us;
  st.blocks = a.allocated.blocks;
  st.samples = a.allocated.samples;
  st.words = a.allocated.words;
  st.est_bytes = EstimatedBytes(a.allocated.samples, a.info);
  std::copy(std::begin(a.by_source), std::end(a.by_source), std::begin(st.by_source));
  st.promotes = a.promotes;
  st.collects = a.collects;
  st.live_at_end = a.live.blocks;
  st.live_samples = a.live.samples;
  st.live_words = a.live.words;
  st.live_est_bytes = EstimatedBytes(a.live.samples, a.info);
  st.lifetimes = a.lifetimes.count;
  st.lifetime_mean = a.lifetimes.mean;
  st.lifetime_median = a.lifetimes.median;
  st.lifetime_p90 = a.lifetimes.p90;
  st.lifetime_max = a.lifetimes.max;
  st.lifetime_quantiles_exact = a.lifetimes.exact;
  st.collected_promoted = a.collected_promoted;
  st.sites = a.sites.size();
  for (const Site& s : a.sites) st.live_sites += s.live.blocks > 0;
  st.by = options.by;
  st.by_live = options.by_live;
  const bool words = options.by == SiteRank::kWords;
  if (options.by_live)
    st.top = words ? Top(a, options.top, true, [](const Site& s) { return s.live.words; })
                   : Top(a, options.top, true,
                         [](const Site& s) { return std::uint64_t(s.live.samples); });
  else
    st.top = words ? Top(a, options.top, false, [](const Site& s) { return s.allocated.words; })
                   : Top(a, options.top, false, [](const Site& s) { return s.allocated.samples; });
  return st;
}

Result<TraceStats> ComputeTraceStats(ByteSource& source, std::size_t top, const Limits& limits,
                                     const ProgressFn& progress) {
  StatsOptions o;
  o.top = top;
  o.analysis.limits = limits;
  o.analysis.progress = progress;
  return ComputeTraceStats(source, o);
}

std::string FormatTraceStats(const TraceStats& s, const std::string& name) {
  std::string out;
  auto p = [&out](const char* fmt, auto... args) {
    const int n = std::snprintf(nullptr, 0, fmt, args...);
    std::string buf(static_cast<std::size_t>(n) + 1, '\0');
    std::snprintf(buf.data(), buf.size(), fmt, args...);
    buf.pop_back();
    out += buf;
  };
  using analysis::BytesText;
  const Info& info = s.info;
  p("trace: %s (v%03d), %s, pid %" PRId64 ", sample rate %g\n", name.c_str(), s.version,
    info.executable_name.c_str(), info.pid, info.sample_rate);
  p("duration: %.6f s\n", static_cast<double>(s.duration_us) / 1e6);
  const std::string window = analysis::WindowText(s.analysis);
  if (!window.empty()) p("window:%s\n", window.substr(3).c_str());
  p("events: %" PRIu64 " allocs (%" PRIu64 " minor, %" PRIu64 " major, %" PRIu64
    " external), %" PRIu64 " promotes, %" PRIu64 " collects\n",
    s.blocks, s.by_source[0], s.by_source[1], s.by_source[2], s.promotes, s.collects);
  p("samples: %" PRIu64 ", sampled words: %" PRIu64 ", estimated bytes allocated: %s\n", s.samples,
    s.words, BytesText(s.est_bytes).c_str());
  const double a = s.blocks ? static_cast<double>(s.blocks) : 1.0;
  const bool at_end = s.analysis.live_at.kind == analysis::LiveAt::Kind::kEnd;
  p("promotion rate: %.4f, collection rate: %.4f, %s: %zu (est. %s)\n",
    static_cast<double>(s.promotes) / a, static_cast<double>(s.collects) / a,
    at_end ? "still live at end" : analysis::LiveAtPhrase(s.analysis).c_str(),
    static_cast<std::size_t>(s.live_at_end), BytesText(s.live_est_bytes).c_str());
  p("peak live heap: %s\n", analysis::PeakText(s.analysis).c_str());
  // "~": from the fixed-size histogram, within 0.4% (analysis/lifetime_summary.h).
  const char* approx = s.lifetime_quantiles_exact ? "" : "~";
  using analysis::DurationText;
  auto d = [](std::int64_t us) { return DurationText(static_cast<double>(us)); };
  if (s.lifetimes > 0)
    p("lifetimes (collected objects): mean %s, median %s%s, p90 %s%s, max %s; promoted before "
      "collection: %" PRIu64 "\n",
      DurationText(s.lifetime_mean).c_str(), approx, d(s.lifetime_median).c_str(), approx,
      d(s.lifetime_p90).c_str(), d(s.lifetime_max).c_str(), s.collected_promoted);
  // "estimated bytes", "samples", "words".
  const char* by = s.by == SiteRank::kBytes ? "estimated bytes" : SiteRankName(s.by);
  if (s.by_live)
    p("top allocation sites by %s of the blocks %s (of %zu with such blocks):\n", by,
      analysis::LiveAtPhrase(s.analysis).c_str(), s.live_sites);
  else
    p("top allocation sites by %s (of %zu):\n", by, s.sites);
  for (std::size_t i : s.top) {
    const Site& site = s.analysis.sites[i];
    const analysis::Tally& t = s.by_live ? site.live : site.allocated;
    p("  %12s %10" PRIu64 " samples %12" PRIu64 " words  ",
      BytesText(EstimatedBytes(t.samples, info)).c_str(), std::uint64_t(t.samples), t.words);
    out += analysis::SiteText(site);
    out += '\n';
    for (std::size_t c = 1; c < site.names.size(); ++c)
      p("  %48s<- %s\n", "", site.names[c].c_str());
  }
  return out;
}

std::string FormatTraceStatsJson(const TraceStats& s, const std::string& name) {
  const analysis::TraceAnalysis& a = s.analysis;
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  analysis::WriteTraceMember(w, name, a);
  analysis::WriteWindowMember(w, a);
  analysis::WriteDamageMember(w, a.damage);
  w.Key("allocated");
  analysis::WriteTally(w, a.allocated, a.info);
  w.Key("sources");
  w.BeginObject();
  w.Key("minor");
  w.Uint(s.by_source[0]);
  w.Key("major");
  w.Uint(s.by_source[1]);
  w.Key("external");
  w.Uint(s.by_source[2]);
  w.EndObject();
  w.Key("promotes");
  w.Uint(s.promotes);
  w.Key("collects");
  w.Uint(s.collects);
  w.Key("live_at_end");
  if (a.live_at.kind == analysis::LiveAt::Kind::kEnd)
    analysis::WriteTally(w, a.live, a.info);
  else
    w.Null();
  analysis::WriteLiveAtMember(w, a);
  analysis::WritePeakMember(w, a);
  w.Key("lifetimes_us");
  if (s.lifetimes == 0) {
    w.Null();
  } else {
    w.BeginObject();
    w.Key("count");
    w.Uint(s.lifetimes);
    w.Key("mean");
    w.Double(s.lifetime_mean);
    w.Key("median");
    w.Int(s.lifetime_median);
    w.Key("p90");
    w.Int(s.lifetime_p90);
    w.Key("max");
    w.Int(s.lifetime_max);
    w.Key("promoted_before_collection");
    w.Uint(s.collected_promoted);
    w.EndObject();
  }
  w.Key("by");
  w.Name(SiteRankName(s.by));
  w.Key("sites_by");
  w.Name(s.by_live ? "live" : "allocated");
  w.Key("sites");
  w.BeginArray();
  for (std::size_t i : s.top) analysis::WriteSite(w, a.sites[i], a.info);
  w.EndArray();
  w.Key("sites_total");
  w.Uint(s.sites);
  w.Key("sites_live_total");
  w.Uint(s.live_sites);
  analysis::WriteTimelineMember(w, a);
  w.EndObject();
  w.EndLine();
  return out;
}

}  // namespace mpo::memtrace
