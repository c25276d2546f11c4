#include "core/memtrace/analysis/trace_stats.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "core/base/json_text.h"
#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/liveness_text.h"

namespace mpo::memtrace {
namespace {

using analysis::EstimatedBytes;
using analysis::Site;

SiteStats StatsOf(const Site& s, const Info& info) {
  SiteStats out;
  out.allocs = s.allocated.blocks;
  out.samples = s.allocated.samples;
  out.words = s.allocated.words;
  out.est_bytes = EstimatedBytes(s.allocated.samples, info);
  out.live_blocks = s.live.blocks;
  out.live_samples = static_cast<std::uint64_t>(s.live.samples);
  out.live_words = s.live.words;
  out.live_est_bytes = EstimatedBytes(s.live.samples, info);
  out.frames = analysis::SiteText(s);
  out.has_frames = !s.names.empty();
  if (s.names.size() > 1) out.callers.assign(s.names.begin() + 1, s.names.end());
  return out;
}

// The first `top` sites ranked by `key`, descending (ties: the analysis's order, by
// samples then name).
// With `live_only`, only the sites with live blocks.
template <typename Key>
std::vector<SiteStats> Top(const analysis::TraceAnalysis& a, std::size_t top, bool live_only,
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
  std::vector<SiteStats> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(StatsOf(*order[i], a.info));
  return out;
}

}  // namespace

Result<TraceStats> ComputeTraceStats(ByteSource& source, const StatsOptions& options) {
  auto analysed = analysis::AnalyzeTrace(source, options.analysis);
  if (!analysed.ok()) return analysed.status();
  TraceStats st;
  st.analysis = std::move(*analysed);
  const analysis::TraceAnalysis& a = st.analysis;
  st.info = a.info;
  st.version = a.version;
  st.duration_us = a.duration_us;
  st.allocs = a.allocated.blocks;
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
  st.by_words = options.by_words;
  st.by_live = options.by_live;
  if (options.by_live) {
    st.top_by_samples =
        Top(a, options.top, true, [](const Site& s) { return std::uint64_t(s.live.samples); });
    st.top_by_words = Top(a, options.top, true, [](const Site& s) { return s.live.words; });
  } else {
    st.top_by_samples =
        Top(a, options.top, false, [](const Site& s) { return s.allocated.samples; });
    st.top_by_words = Top(a, options.top, false, [](const Site& s) { return s.allocated.words; });
  }
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
    s.allocs, s.by_source[0], s.by_source[1], s.by_source[2], s.promotes, s.collects);
  p("samples: %" PRIu64 ", sampled words: %" PRIu64 ", estimated bytes allocated: %s\n", s.samples,
    s.words, BytesText(s.est_bytes).c_str());
  const double a = s.allocs ? static_cast<double>(s.allocs) : 1.0;
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
  const std::vector<SiteStats>& top = s.by_words ? s.top_by_words : s.top_by_samples;
  if (s.by_live)
    p("top allocation sites by %s of the blocks %s (of %zu with such blocks):\n",
      s.by_words ? "words" : "estimated bytes", analysis::LiveAtPhrase(s.analysis).c_str(),
      s.live_sites);
  else
    p("top allocation sites by %s (of %zu):\n", s.by_words ? "words" : "estimated bytes", s.sites);
  for (const SiteStats& site : top) {
    if (s.by_live)
      p("  %12s %10" PRIu64 " samples %12" PRIu64 " words  ",
        BytesText(site.live_est_bytes).c_str(), site.live_samples, site.live_words);
    else
      p("  %12s %10" PRIu64 " samples %12" PRIu64 " words  ", BytesText(site.est_bytes).c_str(),
        site.samples, site.words);
    out += site.frames;
    out += '\n';
    for (const std::string& c : site.callers) p("  %48s<- %s\n", "", c.c_str());
  }
  return out;
}

std::string FormatTraceStatsJson(const TraceStats& s, const std::string& name) {
  using json_text::AppendDouble;
  using json_text::AppendInt;
  using json_text::AppendUint;
  const analysis::TraceAnalysis& a = s.analysis;
  std::string out = "{";
  analysis::AppendTraceMember(out, name, a);
  out += ',';
  analysis::AppendWindowMember(out, a);
  out += ',';
  analysis::AppendDamageMember(out, a.damage);
  out += ",\"allocated\":";
  analysis::AppendTallyJson(out, a.allocated, a.info);
  out += ",\"sources\":{\"minor\":";
  AppendUint(out, s.by_source[0]);
  out += ",\"major\":";
  AppendUint(out, s.by_source[1]);
  out += ",\"external\":";
  AppendUint(out, s.by_source[2]);
  out += "},\"promotes\":";
  AppendUint(out, s.promotes);
  out += ",\"collects\":";
  AppendUint(out, s.collects);
  out += ",\"live_at_end\":";
  if (a.live_at.kind == analysis::LiveAt::Kind::kEnd)
    analysis::AppendTallyJson(out, a.live, a.info);
  else
    out += "null";
  out += ',';
  analysis::AppendLiveAtMember(out, a);
  out += ',';
  analysis::AppendPeakMember(out, a);
  out += ",\"lifetimes_us\":";
  if (s.lifetimes == 0) {
    out += "null";
  } else {
    out += "{\"count\":";
    AppendUint(out, s.lifetimes);
    out += ",\"mean\":";
    AppendDouble(out, s.lifetime_mean);
    out += ",\"median\":";
    AppendInt(out, s.lifetime_median);
    out += ",\"p90\":";
    AppendInt(out, s.lifetime_p90);
    out += ",\"max\":";
    AppendInt(out, s.lifetime_max);
    out += ",\"promoted_before_collection\":";
    AppendUint(out, s.collected_promoted);
    out += '}';
  }
  out += s.by_words ? ",\"by\":\"words\"" : ",\"by\":\"bytes\"";
  out += s.by_live ? ",\"sites_by\":\"live\"" : ",\"sites_by\":\"allocated\"";
  out += ",\"sites\":[";
  const std::vector<SiteStats>& top = s.by_words ? s.top_by_words : s.top_by_samples;
  for (std::size_t i = 0; i < top.size(); ++i) {
    const SiteStats& site = top[i];
    if (i > 0) out += ',';
    out += "{\"site\":";
    if (!site.has_frames)
      out += "null";
    else
      json_text::AppendString(out, site.frames);
    out += ",\"callers\":[";
    for (std::size_t c = 0; c < site.callers.size(); ++c) {
      if (c > 0) out += ',';
      json_text::AppendString(out, site.callers[c]);
    }
    out += "],\"allocs\":";
    AppendUint(out, site.allocs);
    out += ",\"samples\":";
    AppendUint(out, site.samples);
    out += ",\"words\":";
    AppendUint(out, site.words);
    out += ",\"est_bytes\":";
    AppendDouble(out, site.est_bytes);
    out += ",\"live_blocks\":";
    AppendUint(out, site.live_blocks);
    out += ",\"live_samples\":";
    AppendUint(out, site.live_samples);
    out += ",\"live_words\":";
    AppendUint(out, site.live_words);
    out += ",\"live_est_bytes\":";
    AppendDouble(out, site.live_est_bytes);
    out += '}';
  }
  out += "],\"sites_total\":";
  AppendUint(out, s.sites);
  out += ",\"sites_live_total\":";
  AppendUint(out, s.live_sites);
  out += ',';
  analysis::AppendTimelineMember(out, a);
  out += "}\n";
  return out;
}

}  // namespace mpo::memtrace
