#include "core/memtrace/analysis/trace_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "core/base/splitmix64.h"
#include "core/memtrace/analysis/backtrace_frames.h"
#include "core/memtrace/limits.h"
#include "core/memtrace/trace_reader.h"
#include "core/memtrace/view/frame_render.h"
#include "core/memtrace/view/trace_view.h"

namespace mpo::memtrace::analysis {
namespace {

// A site's key: its frame and its callers' frames, innermost first (backtrace_frames.h),
// strings as the reader interned them.
using SiteKey = std::vector<CompactFrame>;

struct FrameHash {
  std::size_t operator()(const CompactFrame& f) const {
    const std::uint64_t h = (std::uint64_t{f.filename} << 32 | f.defname) * kGoldenGamma ^
                            static_cast<std::uint64_t>(f.line) ^
                            static_cast<std::uint64_t>(f.start_char) << 40 ^
                            static_cast<std::uint64_t>(f.end_char) << 20;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

struct SiteKeyHash {
  std::size_t operator()(const SiteKey& k) const {
    std::uint64_t h = k.size();
    for (const CompactFrame& f : k) h = (h ^ FrameHash{}(f)) * kGoldenGamma;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

// A block not collected yet (allocated in the window or not: the timeline counts them all).
struct LiveBlock {
  std::int64_t rel_time;
  std::uint32_t site;  // kNoSite: allocated outside the window
  bool promoted;
  std::uint64_t samples;
  std::uint64_t words;
};
constexpr std::uint32_t kNoSite = ~std::uint32_t{0};

// Live samples over time at a resolution that halves whenever the events outrun it, so
// that the memory stays at 2 * points buckets whatever the trace's span. The deltas add
// modulo 2^64 (hostile sample counts may overflow; unsigned wrap is defined).
class Timeline {
 public:
  explicit Timeline(std::size_t points) : cap_(2 * points), deltas_(cap_, 0) {}
  void Add(std::uint64_t offset, std::uint64_t delta) {
    while (offset / width_ >= cap_) Coarsen();
    const std::size_t i = offset / width_;
    deltas_[i] += delta;
    used_ = std::max(used_, i + 1);
  }
  // Cumulative live samples at the end of each bucket, at most `points` of them.
  std::vector<TimelinePoint> Points(std::int64_t from_us, std::size_t points) {
    while (used_ > points) Coarsen();
    std::vector<TimelinePoint> out;
    std::uint64_t live = 0;
    for (std::size_t i = 0; i < used_; ++i) {
      live += deltas_[i];
      // A collection filed before its allocation (v3 domains) can dip below zero.
      const auto signed_live = static_cast<std::int64_t>(live);
      const std::uint64_t end = (i + 1) * width_ - 1;
      const std::int64_t t =
          end > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() - from_us)
              ? std::numeric_limits<std::int64_t>::max()
              : from_us + static_cast<std::int64_t>(end);
      out.push_back({t, signed_live < 0 ? 0 : live});
    }
    return out;
  }

 private:
  void Coarsen() {
    for (std::size_t i = 0; i < cap_ / 2; ++i) deltas_[i] = deltas_[2 * i] + deltas_[2 * i + 1];
    std::fill(deltas_.begin() + static_cast<std::ptrdiff_t>(cap_ / 2), deltas_.end(), 0);
    used_ = (used_ + 1) / 2;
    width_ *= 2;
  }
  std::size_t cap_;
  std::vector<std::uint64_t> deltas_;
  std::size_t used_ = 0;
  // Offsets are below 2^63, so 64 coarsenings always suffice and width_ never overflows.
  std::uint64_t width_ = 1;
};

class Analyzer {
 public:
  Analyzer(view::TraceView& v, const AnalysisOptions& o)
      : v_(v), r_(v.reader()), o_(o), timeline_(o.timeline_points) {}

  Result<TraceAnalysis> Run() {
    a_.info = r_.info();
    a_.version = r_.version();
    a_.from_us = o_.from_us;
    a_.to_us = o_.to_us;
    const std::int64_t start = r_.info().start_time;
    std::int64_t last_time = start;
    std::uint64_t events = 0;
    while (const Event* e = v_.NextEvent()) {
      if (!failure_.ok()) return failure_;
      ++events;
      last_time = e->time;
      if (o_.progress) o_.progress(r_.offset(), r_.file_size());
      const std::int64_t rel = SaturatingSub(e->time, start);
      const bool in_window = rel >= o_.from_us && rel <= o_.to_us;
      a_.events_in_window += in_window;
      switch (e->kind) {
        case EventKind::kAlloc: OnAlloc(*e, rel, in_window); break;
        case EventKind::kPromote: OnPromote(*e, in_window); break;
        case EventKind::kCollect: OnCollect(*e, rel, in_window); break;
      }
    }
    if (!failure_.ok()) return failure_;
    if (!v_.status().ok()) {
      if (!o_.stop_at_damage || !IsDamage(v_.status(), events)) return v_.status();
      a_.damage = DamageAt(v_.status(), r_, events);
    }
    // Every event is at or after the start (the reader checks), so this is exact.
    a_.duration_us = static_cast<std::uint64_t>(last_time) - static_cast<std::uint64_t>(start);
    MPO_RETURN_IF_ERROR(CheckWindowStart(o_.from_us, a_.duration_us));
    for (const auto& [id, b] : live_) {
      if (b.site == kNoSite) continue;
      Tally& t = sites_[b.site].live;
      ++t.blocks;
      t.samples += b.samples;
      t.words += b.words;
      ++a_.live.blocks;
      a_.live.samples += b.samples;
      a_.live.words += b.words;
    }
    a_.lifetimes = lifetimes_.Figures();
    a_.timeline = timeline_.Points(0, o_.timeline_points);
    MPO_RETURN_IF_ERROR(NameSites());
    return std::move(a_);
  }

 private:
  std::uint32_t SiteOf(const Event& e) {
    key_.clear();
    VisitFramesInnermostFirst(r_, e.backtrace, [&](const CompactFrame& f) {
      key_.push_back(f);
      return key_.size() <= o_.callers;
    });
    auto it = index_.find(key_);
    if (it != index_.end()) return it->second;
    // Every site holds its own key: the budget counts the frames held, not the distinct ones.
    if (key_.size() > held_frames_left_) {
      failure_ = LimitExceeded("frames held by the site keys", o_.limits.max_held_frames,
                               "--max-held-frames");
      return kNoSite;
    }
    held_frames_left_ -= key_.size();
    const auto site = static_cast<std::uint32_t>(sites_.size());
    index_.emplace(key_, site);
    sites_.emplace_back();
    return site;
  }

  void OnAlloc(const Event& e, std::int64_t rel, bool in_window) {
    const auto samples = static_cast<std::uint64_t>(e.nsamples);
    const auto words = static_cast<std::uint64_t>(e.length);
    std::uint32_t site = kNoSite;
    if (in_window) {
      site = SiteOf(e);
      if (site == kNoSite) return;
      for (Tally* t : {&a_.allocated, &sites_[site].allocated}) {
        ++t->blocks;
        t->samples += samples;
        t->words += words;
      }
      ++a_.by_source[static_cast<int>(e.source) % 3];
    }
    live_[e.obj_id] = LiveBlock{rel, site, false, samples, words};
    timeline_.Add(static_cast<std::uint64_t>(rel), samples);
  }

  void OnPromote(const Event& e, bool in_window) {
    auto it = live_.find(e.obj_id);
    if (it == live_.end() || it->second.site == kNoSite || !in_window) return;
    ++a_.promotes;
    it->second.promoted = true;
  }

  void OnCollect(const Event& e, std::int64_t rel, bool in_window) {
    auto it = live_.find(e.obj_id);
    if (it == live_.end()) return;
    const LiveBlock& b = it->second;
    if (b.site != kNoSite && in_window) {
      ++a_.collects;
      lifetimes_.Add(SaturatingSub(rel, b.rel_time));
      a_.collected_promoted += b.promoted;
    }
    timeline_.Add(static_cast<std::uint64_t>(rel), 0 - b.samples);
    live_.erase(it);
  }

  // Renders every site's frames (memtrace's text, each frame rendered once) and sorts the
  // table. Each site keeps its own copy of its names, so every copy counts against the
  // location budget (Limits::max_location_bytes): a long name held by many sites counts
  // as often as it is held.
  Status NameSites() {
    std::unordered_map<CompactFrame, std::string, FrameHash> names;
    std::uint64_t left = o_.limits.max_location_bytes;
    for (const auto& [key, i] : index_) {
      for (const CompactFrame& f : key) {
        auto it = names.find(f);
        if (it == names.end()) {
          std::string text;
          view::AppendFrameText(text, view::RefOf(f, r_.strings()));
          it = names.emplace(f, std::move(text)).first;
        }
        if (it->second.size() > left)
          return LimitExceeded("rendered site names held", o_.limits.max_location_bytes,
                               "--max-location-bytes");
        left -= it->second.size();
        sites_[i].names.push_back(it->second);
      }
    }
    a_.sites = std::move(sites_);
    std::sort(a_.sites.begin(), a_.sites.end(), [](const Site& x, const Site& y) {
      if (x.allocated.samples != y.allocated.samples)
        return x.allocated.samples > y.allocated.samples;
      return x.names < y.names;
    });
    return Status::Ok();
  }

  view::TraceView& v_;
  const TraceReader& r_;
  const AnalysisOptions& o_;
  TraceAnalysis a_;
  Timeline timeline_;
  LifetimeSummary lifetimes_;
  std::vector<Site> sites_;
  std::unordered_map<SiteKey, std::uint32_t, SiteKeyHash> index_;
  std::unordered_map<OcamlInt, LiveBlock> live_;
  SiteKey key_;
  std::uint64_t held_frames_left_ = o_.limits.max_held_frames;
  Status failure_ = Status::Ok();
};

}  // namespace

std::int64_t SaturatingSub(std::int64_t a, std::int64_t b) {
  std::int64_t d;
  if (!__builtin_sub_overflow(a, b, &d)) return d;
  return b < 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

double EstimatedBytes(std::uint64_t samples, const Info& info) {
  const double rate = info.sample_rate;
  if (!(rate > 0) || !std::isfinite(rate)) return 0;
  return static_cast<double>(samples) / rate * (static_cast<double>(info.word_size) / 8);
}

std::int64_t SecondsToMicros(double seconds) {
  const double us = std::round(seconds * 1e6);
  if (!(us > 0)) return 0;
  if (us >= 9.2e18) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(us);
}

bool IsDamage(const Status& s, std::uint64_t events_read) {
  switch (s.code()) {
    case ErrorCode::kTruncated: return true;
    case ErrorCode::kCorrupt:
    case ErrorCode::kOutOfRange:
    case ErrorCode::kUnsupportedVersion: return events_read > 0;
    default: return false;
  }
}

Damage DamageAt(const Status& error, const TraceReader& reader, std::uint64_t events_read) {
  return Damage{error.byte_offset().value_or(reader.packet_offset()), error, events_read};
}

Status CheckWindowStart(std::int64_t from_us, std::uint64_t duration_us) {
  if (from_us <= 0 || static_cast<std::uint64_t>(from_us) <= duration_us) return Status::Ok();
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "the window starts at %.6f s, after the trace's last event (the trace lasts "
                "%.6f s)",
                static_cast<double>(from_us) / 1e6, static_cast<double>(duration_us) / 1e6);
  return Status(ErrorCode::kInvalidArgument, buf).WithField("--from");
}

Result<TraceAnalysis> AnalyzeTrace(ByteSource& source, const AnalysisOptions& options) {
  if (options.callers > 64 || options.timeline_points == 0 || options.timeline_points > 1'000'000 ||
      options.from_us < 0 || options.to_us < options.from_us)
    return Status(ErrorCode::kInvalidArgument, "analysis options out of range");
  ReaderOptions opts;
  opts.limits = options.limits;
  auto opened = view::TraceView::Open(BorrowSource(source), opts);
  if (!opened.ok()) return opened.status();
  Analyzer analyzer(**opened, options);
  return analyzer.Run();
}

}  // namespace mpo::memtrace::analysis
