#include "core/memtrace/analysis/trace_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "core/base/splitmix64.h"
#include "core/memtrace/analysis/backtrace_frames.h"
#include "core/memtrace/analysis/site_attribution.h"
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

// A block not collected yet (allocated in the window or not: the timeline counts them
// all); its site is kNoSite when it was allocated outside the window.
struct LiveBlock {
  LivenessTracker::Block b;
  bool promoted;
};
constexpr std::uint32_t kNoSite = LivenessTracker::kNoSite;

std::uint64_t Saturated(unsigned __int128 v) {
  return v > std::numeric_limits<std::uint64_t>::max() ? std::numeric_limits<std::uint64_t>::max()
                                                       : static_cast<std::uint64_t>(v);
}

Tally TallyOf(const LiveSum& s) { return Tally{s.blocks, Saturated(s.samples), s.words}; }

void AddTo(Tally& t, const LiveSum& s) {
  t.blocks += s.blocks;
  t.samples += Saturated(s.samples);
  t.words += s.words;
}

// Live samples over time at a resolution that halves whenever the events outrun it, so
// that the memory stays at 2 * points buckets whatever the trace's span. The deltas add
// modulo 2^64 (hostile sample counts may overflow; unsigned wrap is defined). Each
// bucket also keeps the least and the most of the step function's values in it.
class Timeline {
 public:
  explicit Timeline(std::size_t points)
      : cap_(2 * points), deltas_(cap_, 0), min_(cap_, kUnset), max_(cap_, 0) {}
  void Add(std::uint64_t offset, std::uint64_t delta) { deltas_[Bucket(offset)] += delta; }
  // The live heap is `live` samples from `offset` on (until the next step).
  void Step(std::uint64_t offset, std::uint64_t live) {
    const std::size_t i = Bucket(offset);
    min_[i] = std::min(min_[i], live);
    max_[i] = std::max(max_[i], live);
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
      const std::uint64_t end_live = signed_live < 0 ? 0 : live;
      // A v3 trace's out-of-time events can leave the end outside the steps' range.
      const bool stepped = min_[i] <= max_[i];
      out.push_back({t, end_live, stepped ? std::min(min_[i], end_live) : end_live,
                     stepped ? std::max(max_[i], end_live) : end_live});
    }
    return out;
  }

 private:
  static constexpr std::uint64_t kUnset = std::numeric_limits<std::uint64_t>::max();
  std::size_t Bucket(std::uint64_t offset) {
    while (offset / width_ >= cap_) Coarsen();
    const std::size_t i = offset / width_;
    used_ = std::max(used_, i + 1);
    return i;
  }
  void Coarsen() {
    for (std::size_t i = 0; i < cap_ / 2; ++i) {
      deltas_[i] = deltas_[2 * i] + deltas_[2 * i + 1];
      min_[i] = std::min(min_[2 * i], min_[2 * i + 1]);
      max_[i] = std::max(max_[2 * i], max_[2 * i + 1]);
    }
    const auto half = static_cast<std::ptrdiff_t>(cap_ / 2);
    std::fill(deltas_.begin() + half, deltas_.end(), 0);
    std::fill(min_.begin() + half, min_.end(), kUnset);
    std::fill(max_.begin() + half, max_.end(), 0);
    used_ = (used_ + 1) / 2;
    width_ *= 2;
  }
  std::size_t cap_;
  std::vector<std::uint64_t> deltas_, min_, max_;
  std::size_t used_ = 0;
  // Offsets are below 2^63, so 64 coarsenings always suffice and width_ never overflows.
  std::uint64_t width_ = 1;
};

class Analyzer {
 public:
  Analyzer(view::TraceView& v, const AnalysisOptions& o)
      : v_(v), r_(v.reader()), o_(o), timeline_(o.timeline_points), liveness_(o.live_at) {}

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
      if (events > 0 && e->time != last_time) StepEnd(events, SaturatingSub(last_time, start));
      ++events;
      seq_ = events;
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
    if (events > 0) StepEnd(events, SaturatingSub(last_time, start));
    // Every event is at or after the start (the reader checks), so this is exact.
    a_.duration_us = static_cast<std::uint64_t>(last_time) - static_cast<std::uint64_t>(start);
    MPO_RETURN_IF_ERROR(CheckWindowStart(o_.from_us, a_.duration_us));
    MPO_RETURN_IF_ERROR(CheckLiveAt(o_.live_at, a_.duration_us));
    CountLive();
    a_.lifetimes = lifetimes_.Figures();
    a_.timeline = timeline_.Points(0, o_.timeline_points);
    // The last step may end after the last event; the trace ends there.
    for (TimelinePoint& p : a_.timeline)
      p.t_us = std::min(p.t_us, static_cast<std::int64_t>(a_.duration_us));
    MPO_RETURN_IF_ERROR(NameSites());
    return std::move(a_);
  }

 private:
  std::uint32_t SiteOf(const Event& e) {
    key_.clear();
    std::size_t skip = TracerFramesToSkip(r_, e.source, e.backtrace);
    VisitFramesInnermostFirst(r_, e.backtrace, [&](const CompactFrame& f) {
      if (skip > 0) {
        --skip;
        return true;
      }
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
    const LiveBlock block{{seq_, rel, site, samples, words}, false};
    auto [it, fresh] = live_.try_emplace(e.obj_id, block);
    if (!fresh) {
      // An id allocated again while live (only a hostile trace does it): the first block
      // is forgotten, as if collected unseen.
      Forget(it->second.b, rel);
      it->second = block;
    }
    liveness_.Allocated(block.b);
    timeline_.Add(static_cast<std::uint64_t>(rel), samples);
  }

  void Forget(const LivenessTracker::Block& b, std::int64_t rel) {
    liveness_.Collected(b, rel);
    timeline_.Add(static_cast<std::uint64_t>(rel), 0 - b.samples);
  }

  // The events up to `seq` are all at `rel` or before: the live heap is a step's value.
  void StepEnd(std::uint64_t seq, std::int64_t rel) {
    liveness_.StepEnd(seq, rel);
    timeline_.Step(static_cast<std::uint64_t>(rel), Saturated(liveness_.running().samples));
  }

  // The blocks live at the asked time (options' live_at), per site and in all, and the peak.
  void CountLive() {
    for (const auto& [id, lb] : live_) {
      const LivenessTracker::Block& b = lb.b;
      if (!liveness_.LiveAtAsked(b)) continue;
      const LiveSum one{1, b.samples, b.words};
      AddTo(a_.live_heap, one);
      if (b.site == kNoSite) continue;
      AddTo(sites_[b.site].live, one);
      AddTo(a_.live, one);
    }
    AddTo(a_.live_heap, liveness_.collected_after_total());
    for (std::uint32_t i = 0; i < sites_.size(); ++i) {
      const LiveSum after = liveness_.CollectedAfter(i);
      AddTo(sites_[i].live, after);
      AddTo(a_.live, after);
    }
    a_.live_at = o_.live_at;
    a_.live_at_us = liveness_.AskedTime(static_cast<std::int64_t>(a_.duration_us));
    if (const auto& p = liveness_.peak()) a_.peak = Peak{p->t_us, TallyOf(p->live)};
  }

  void OnPromote(const Event& e, bool in_window) {
    auto it = live_.find(e.obj_id);
    if (it == live_.end() || it->second.b.site == kNoSite || !in_window) return;
    ++a_.promotes;
    it->second.promoted = true;
  }

  void OnCollect(const Event& e, std::int64_t rel, bool in_window) {
    auto it = live_.find(e.obj_id);
    if (it == live_.end()) return;
    const LiveBlock& b = it->second;
    if (b.b.site != kNoSite && in_window) {
      ++a_.collects;
      lifetimes_.Add(SaturatingSub(rel, b.b.rel_time));
      a_.collected_promoted += b.promoted;
    }
    Forget(b.b, rel);
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
  LivenessTracker liveness_;
  std::uint64_t seq_ = 0;  // the current event's index, from 1
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

Status CheckLiveAt(const LiveAt& at, std::uint64_t duration_us) {
  if (at.kind != LiveAt::Kind::kTime || at.t_us < 0 ||
      static_cast<std::uint64_t>(at.t_us) <= duration_us)
    return Status::Ok();
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.6f s is after the trace's last event (the trace lasts %.6f s)",
                static_cast<double>(at.t_us) / 1e6, static_cast<double>(duration_us) / 1e6);
  return Status(ErrorCode::kInvalidArgument, buf).WithField("--live-at");
}

Result<TraceAnalysis> AnalyzeTrace(ByteSource& source, const AnalysisOptions& options) {
  if (options.callers > 64 || options.timeline_points == 0 || options.timeline_points > 1'000'000 ||
      options.from_us < 0 || options.to_us < options.from_us ||
      (options.live_at.kind == LiveAt::Kind::kTime && options.live_at.t_us < 0))
    return Status(ErrorCode::kInvalidArgument, "analysis options out of range");
  ReaderOptions opts;
  opts.limits = options.limits;
  auto opened = view::TraceView::Open(BorrowSource(source), opts);
  if (!opened.ok()) return opened.status();
  Analyzer analyzer(**opened, options);
  return analyzer.Run();
}

}  // namespace mpo::memtrace::analysis
