#include "core/memtrace/analysis/liveness_text.h"

#include <cmath>
#include <cstdio>

#include "core/base/json_text.h"
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

void AppendLiveAtMember(std::string& out, const TraceAnalysis& a) {
  out += "\"live_at\":{\"at\":\"";
  out += LiveAtKindName(a.live_at.kind);
  out += "\",\"t_s\":";
  json_text::AppendDouble(out, static_cast<double>(a.live_at_us) / 1e6);
  out += ",\"heap\":";
  AppendTallyJson(out, a.live_heap, a.info);
  out += '}';
}

void AppendPeakMember(std::string& out, const TraceAnalysis& a) {
  out += "\"peak\":";
  if (!a.peak) {
    out += "null";
    return;
  }
  out += "{\"t_s\":";
  json_text::AppendDouble(out, static_cast<double>(a.peak->t_us) / 1e6);
  out += ',';
  std::string tally;
  AppendTallyJson(tally, a.peak->live, a.info);
  out.append(tally, 1, std::string::npos);  // the tally's members, after its '{'
}

void AppendTimelineMember(std::string& out, const TraceAnalysis& a) {
  out += "\"timeline\":[";
  for (std::size_t i = 0; i < a.timeline.size(); ++i) {
    const TimelinePoint& p = a.timeline[i];
    if (i > 0) out += ',';
    out += "{\"t_s\":";
    json_text::AppendDouble(out, static_cast<double>(p.t_us) / 1e6);
    out += ",\"live_est_bytes\":";
    json_text::AppendDouble(out, EstimatedBytes(p.live_samples, a.info));
    out += ",\"min_est_bytes\":";
    json_text::AppendDouble(out, EstimatedBytes(p.min_samples, a.info));
    out += ",\"max_est_bytes\":";
    json_text::AppendDouble(out, EstimatedBytes(p.max_samples, a.info));
    out += '}';
  }
  out += ']';
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
