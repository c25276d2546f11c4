#include "core/memtrace/analysis/liveness.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace mpo::memtrace::analysis {
namespace {

// The bound of every time option (window_options: a year of trace is far beyond any).
constexpr double kMaxSeconds = 1e9;

void Add(LiveSum& sum, const LivenessTracker::Block& b) {
  ++sum.blocks;
  sum.samples += b.samples;
  sum.words += b.words;
}

}  // namespace

Result<LiveAt> ParseLiveAt(std::string_view text) {
  if (text == "end") return LiveAt{};
  if (text == "peak") return LiveAt{LiveAt::Kind::kPeak, 0};
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = s.empty() ? NAN : std::strtod(s.c_str(), &end);
  const bool whole = end != nullptr && *end == '\0';
  if (!whole || !std::isfinite(v) || v < 0 || v > kMaxSeconds || (errno == ERANGE && v == 0))
    return Status(ErrorCode::kInvalidArgument,
                  "'" + s +
                      "' is not end, peak or a number of seconds from the trace start in [0, 1e9]")
        .WithField("--live-at");
  return LiveAt{LiveAt::Kind::kTime, static_cast<std::int64_t>(std::llround(v * 1e6))};
}

std::string LiveAtText(const LiveAt& at) {
  switch (at.kind) {
    case LiveAt::Kind::kEnd: return "end";
    case LiveAt::Kind::kPeak: return "peak";
    case LiveAt::Kind::kTime: break;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f s", static_cast<double>(at.t_us) / 1e6);
  return buf;
}

const char* LiveAtKindName(LiveAt::Kind kind) {
  switch (kind) {
    case LiveAt::Kind::kEnd: return "end";
    case LiveAt::Kind::kPeak: return "peak";
    case LiveAt::Kind::kTime: return "time";
  }
  return "end";
}

void LivenessTracker::Allocated(const Block& b) { Add(running_, b); }

void LivenessTracker::Collected(const Block& b, std::int64_t rel) {
  --running_.blocks;
  running_.samples -= b.samples;
  running_.words -= b.words;
  if (WasLiveAt(b, rel)) AddAfter(b);
}

void LivenessTracker::StepEnd(std::uint64_t seq, std::int64_t rel) {
  if (running_.samples <= (peak_ ? peak_->live.samples : 0)) return;
  peak_ = Peak{rel, running_};
  peak_seq_ = seq;
  if (at_.kind != LiveAt::Kind::kPeak) return;
  ++epoch_;
  after_total_ = {};
}

bool LivenessTracker::WasLiveAt(const Block& b, std::int64_t collect_rel) const {
  switch (at_.kind) {
    case LiveAt::Kind::kEnd: return false;
    // Steps end before the next event is read, so a collection is after the current
    // peak; the block was live at it when allocated no later.
    case LiveAt::Kind::kPeak: return peak_ && b.seq <= peak_seq_;
    case LiveAt::Kind::kTime: return b.rel_time <= at_.t_us && collect_rel > at_.t_us;
  }
  return false;
}

void LivenessTracker::AddAfter(const Block& b) {
  Add(after_total_, b);
  if (b.site == kNoSite) return;
  if (b.site >= after_.size()) {
    after_.resize(b.site + 1);
    after_epoch_.resize(b.site + 1, 0);
  }
  if (after_epoch_[b.site] != epoch_) {
    after_[b.site] = {};
    after_epoch_[b.site] = epoch_;
  }
  Add(after_[b.site], b);
}

bool LivenessTracker::LiveAtAsked(const Block& b) const {
  switch (at_.kind) {
    case LiveAt::Kind::kEnd: return true;
    case LiveAt::Kind::kPeak: return peak_ && b.seq <= peak_seq_;
    case LiveAt::Kind::kTime: return b.rel_time <= at_.t_us;
  }
  return false;
}

std::int64_t LivenessTracker::AskedTime(std::int64_t end_us) const {
  switch (at_.kind) {
    case LiveAt::Kind::kEnd: return end_us;
    case LiveAt::Kind::kPeak: return peak_ ? peak_->t_us : 0;
    case LiveAt::Kind::kTime: return at_.t_us;
  }
  return end_us;
}

LiveSum LivenessTracker::CollectedAfter(std::uint32_t site) const {
  if (site >= after_.size() || after_epoch_[site] != epoch_) return {};
  return after_[site];
}

}  // namespace mpo::memtrace::analysis
