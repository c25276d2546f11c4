#include "core/memtrace/trace_stats.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <unordered_map>

#include "core/memtrace/site_name.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/view/trace_view.h"

namespace mpo::memtrace {

std::int64_t SaturatingSub(std::int64_t a, std::int64_t b) {
  std::int64_t d;
  if (!__builtin_sub_overflow(a, b, &d)) return d;
  return b < 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

Result<TraceStats> ComputeTraceStats(ByteSource& source, std::size_t top, const Limits& limits,
                                     const ProgressFn& progress) {
  ReaderOptions opts;
  opts.limits = limits;
  // Through the decoded view: an undefined location code anywhere is its typed error.
  auto opened = view::TraceView::Open(BorrowSource(source), opts);
  if (!opened.ok()) return opened.status();
  view::TraceView& v = **opened;
  const TraceReader& r = v.reader();
  TraceStats st;
  st.info = r.info();
  st.version = r.version();
  std::unordered_map<OcamlInt, SiteStats> sites;
  struct Live {
    std::int64_t time;
    bool promoted;
  };
  std::unordered_map<OcamlInt, Live> live;
  std::vector<std::int64_t> lifetimes;
  std::int64_t last_time = r.info().start_time;
  while (const Event* ev = v.NextEvent()) {
    const Event& e = *ev;
    last_time = e.time;
    if (progress) progress(r.offset(), r.file_size());
    switch (e.kind) {
      case EventKind::kAlloc: {
        ++st.allocs;
        st.samples += static_cast<std::uint64_t>(e.nsamples);
        st.words += static_cast<std::uint64_t>(e.length);
        ++st.by_source[static_cast<int>(e.source)];
        if (!e.backtrace.empty()) {
          SiteStats& s = sites[e.backtrace.back()];
          if (s.allocs == 0) s.first_use = r.event_offset();
          ++s.allocs;
          s.samples += static_cast<std::uint64_t>(e.nsamples);
          s.words += static_cast<std::uint64_t>(e.length);
        }
        live[e.obj_id] = {e.time, false};
        break;
      }
      case EventKind::kPromote: {
        ++st.promotes;
        auto it = live.find(e.obj_id);
        if (it != live.end()) it->second.promoted = true;
        break;
      }
      case EventKind::kCollect: {
        ++st.collects;
        auto it = live.find(e.obj_id);
        if (it != live.end()) {
          lifetimes.push_back(SaturatingSub(e.time, it->second.time));
          st.collected_promoted += it->second.promoted;
          live.erase(it);
        }
        break;
      }
    }
  }
  if (!v.status().ok()) return v.status();
  // Every event is at or after the start (the reader checks), so this is exact.
  st.duration_us =
      static_cast<std::uint64_t>(last_time) - static_cast<std::uint64_t>(st.info.start_time);
  st.live_at_end = live.size();
  if (!lifetimes.empty()) {
    std::sort(lifetimes.begin(), lifetimes.end());
    double sum = 0;
    for (auto l : lifetimes) sum += static_cast<double>(l);
    st.lifetimes = lifetimes.size();
    st.lifetime_mean = sum / static_cast<double>(lifetimes.size());
    st.lifetime_median = lifetimes[lifetimes.size() / 2];
    st.lifetime_p90 = lifetimes[lifetimes.size() * 9 / 10];
    st.lifetime_max = lifetimes.back();
  }
  std::vector<SiteStats> all;
  all.reserve(sites.size());
  for (auto& [code, s] : sites) {
    s.code = code;
    all.push_back(s);
  }
  auto take_top = [&](auto key, std::vector<SiteStats>* out) -> Status {
    const std::size_t n = std::min(top, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(),
                      [&](const SiteStats& x, const SiteStats& y) {
                        return key(x) != key(y) ? key(x) > key(y) : x.code < y.code;
                      });
    for (std::size_t i = 0; i < n; ++i) {
      auto frames = SiteName(r, all[i].code, all[i].first_use);
      if (!frames.ok()) return frames.status();
      out->push_back(all[i]);
      out->back().frames = std::move(*frames);
    }
    return Status::Ok();
  };
  MPO_RETURN_IF_ERROR(take_top([](const SiteStats& s) { return s.samples; }, &st.top_by_samples));
  MPO_RETURN_IF_ERROR(take_top([](const SiteStats& s) { return s.words; }, &st.top_by_words));
  return st;
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
  const Info& info = s.info;
  p("trace: %s (v%03d), %s, pid %" PRId64 ", sample rate %g\n", name.c_str(), s.version,
    info.executable_name.c_str(), info.pid, info.sample_rate);
  p("duration: %.6f s\n", static_cast<double>(s.duration_us) / 1e6);
  p("events: %" PRIu64 " allocs (%" PRIu64 " minor, %" PRIu64 " major, %" PRIu64
    " external), %" PRIu64 " promotes, %" PRIu64 " collects\n",
    s.allocs, s.by_source[0], s.by_source[1], s.by_source[2], s.promotes, s.collects);
  p("samples: %" PRIu64 ", sampled words: %" PRIu64 "\n", s.samples, s.words);
  const double a = s.allocs ? static_cast<double>(s.allocs) : 1.0;
  p("promotion rate: %.4f, collection rate: %.4f, still live at end: %zu\n",
    static_cast<double>(s.promotes) / a, static_cast<double>(s.collects) / a,
    static_cast<std::size_t>(s.live_at_end));
  if (s.lifetimes > 0)
    p("lifetimes (us, collected objects): mean %.1f, median %" PRId64 ", p90 %" PRId64
      ", max %" PRId64 "; promoted before collection: %" PRIu64 "\n",
      s.lifetime_mean, s.lifetime_median, s.lifetime_p90, s.lifetime_max, s.collected_promoted);
  auto print_top = [&](const char* title, const std::vector<SiteStats>& v) {
    p("top allocation sites by %s:\n", title);
    for (const SiteStats& site : v) {
      p("  %10" PRIu64 " samples %12" PRIu64 " words  ", site.samples, site.words);
      out += site.frames;
      out += '\n';
    }
  };
  print_top("samples", s.top_by_samples);
  print_top("words", s.top_by_words);
  return out;
}

}  // namespace mpo::memtrace
