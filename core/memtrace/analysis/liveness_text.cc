#include "core/memtrace/analysis/liveness_text.h"

#include <cmath>
#include <cstdio>

#include "core/memtrace/analysis/analysis_text.h"

namespace mpo::memtrace::analysis {
namespace {

std::string Seconds(std::int64_t us) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f s", static_cast<double>(us) / 1e6);
  return buf;
}

// Three significant figures of `v` (at least 1, below 1000) and its unit.
std::string ThreeFigures(double v, const char* unit) {
  char buf[48];
  std::snprintf(buf, sizeof buf, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, unit);
  return buf;
}

}  // namespace

std::string DurationText(double us) {
  if (!std::isfinite(us)) return "?";
  const char* sign = us < 0 ? "-" : "";
  const double v = std::fabs(us);
  char buf[64];
  // Each unit while the rounded figure stays below 1000 of it.
  if (v < 999.5) {
    std::snprintf(buf, sizeof buf, "%s%.0f us", sign, v);
    return buf;
  }
  if (v < 999.5e3) return sign + ThreeFigures(v / 1e3, "ms");
  if (v < 59.95e6) return sign + ThreeFigures(v / 1e6, "s");
  const auto s = static_cast<std::uint64_t>(std::llround(v / 1e6));
  if (s < 3600)
    std::snprintf(buf, sizeof buf, "%s%llu min %llu s", sign,
                  static_cast<unsigned long long>(s / 60), static_cast<unsigned long long>(s % 60));
  else
    std::snprintf(buf, sizeof buf, "%s%llu h %02llu min", sign,
                  static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60));
  return buf;
}

void WriteLiveAtMember(JsonWriter& w, const TraceAnalysis& a) {
  w.Key("live_at");
  w.BeginObject();
  w.Key("at");
  w.Name(LiveAtKindName(a.live_at.kind));
  w.Key("t_s");
  w.Double(static_cast<double>(a.live_at_us) / 1e6);
  w.Key("heap");
  WriteTally(w, a.live_heap, a.info);
  w.EndObject();
}

void WritePeakMember(JsonWriter& w, const TraceAnalysis& a) {
  w.Key("peak");
  if (!a.peak) {
    w.Null();
    return;
  }
  const Tally& t = a.peak->live;
  w.BeginObject();
  w.Key("t_s");
  w.Double(static_cast<double>(a.peak->t_us) / 1e6);
  w.Key("blocks");
  w.Uint(t.blocks);
  w.Key("samples");
  w.Uint(t.samples);
  w.Key("words");
  w.Uint(t.words);
  w.Key("est_bytes");
  w.Double(EstimatedBytes(t.samples, a.info));
  w.EndObject();
}

void WriteTimelineMember(JsonWriter& w, const TraceAnalysis& a) {
  w.Key("timeline");
  w.BeginArray();
  for (const TimelinePoint& p : a.timeline) {
    w.BeginObject();
    w.Key("t_s");
    w.Double(static_cast<double>(p.t_us) / 1e6);
    w.Key("live_est_bytes");
    w.Double(EstimatedBytes(p.live_samples, a.info));
    w.Key("min_est_bytes");
    w.Double(EstimatedBytes(p.min_samples, a.info));
    w.Key("max_est_bytes");
    w.Double(EstimatedBytes(p.max_samples, a.info));
    w.EndObject();
  }
  w.EndArray();
}

std::string PeakText(const TraceAnalysis& a) {
  if (!a.peak) return "none (no sampled allocation)";
  return "est. " + BytesText(EstimatedBytes(a.peak->live.samples, a.info)) + " at " +
         Seconds(a.peak->t_us) + " (" + std::to_string(a.peak->live.blocks) + " blocks)";
}

std::string LiveAtPhrase(const TraceAnalysis& a) {
  switch (a.live_at.kind) {
    case LiveAt::Kind::kEnd: return "never collected";
    case LiveAt::Kind::kPeak:
      return a.peak ? "still live at the peak (" + Seconds(a.live_at_us) + ")"
                    : "still live at the peak (none: no sampled allocation)";
    case LiveAt::Kind::kTime: break;
  }
  return "still live at " + Seconds(a.live_at_us);
}

}  // namespace mpo::memtrace::analysis
