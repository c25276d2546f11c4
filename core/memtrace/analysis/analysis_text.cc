#include "core/memtrace/analysis/analysis_text.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "core/base/json_text.h"
#include "core/base/view_json.h"

namespace mpo::memtrace::analysis {

std::string BytesText(double bytes, bool sign) {
  if (!std::isfinite(bytes)) return "?";
  const char* prefix = bytes < 0 ? "-" : (sign && bytes > 0 ? "+" : "");
  double v = std::fabs(bytes);
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::size_t u = 0;
  // Bytes up to 1023; then the unit in which three figures round below 1000.
  while ((u == 0 ? v >= 1024 : v >= 999.5) && u + 1 < std::size(kUnits)) {
    v /= 1024;
    ++u;
  }
  char buf[64];
  const char* format = u == 0      ? "%s%.0f %s"
                       : v < 9.995 ? "%s%.2f %s"
                       : v < 99.95 ? "%s%.1f %s"
                                   : "%s%.0f %s";
  std::snprintf(buf, sizeof buf, format, prefix, v, kUnits[u]);
  return buf;
}

std::string SiteText(const Site& s) { return s.names.empty() ? "<no backtrace>" : s.names[0]; }

std::string CallersText(const Site& s) {
  std::string out;
  for (std::size_t i = 1; i < s.names.size(); ++i) {
    if (i > 1) out += " <- ";
    out += s.names[i];
  }
  return out;
}

void AppendTraceMember(std::string& out, const std::string& file, const TraceAnalysis& a) {
  out += "\"trace\":{\"file\":";
  json_text::AppendString(out, file);
  out += ",\"version\":";
  json_text::AppendInt(out, a.version);
  out += ",\"executable\":";
  json_text::AppendString(out, a.info.executable_name);
  out += ",\"pid\":";
  json_text::AppendInt(out, a.info.pid);
  out += ",\"sample_rate\":";
  json_text::AppendDouble(out, a.info.sample_rate);
  out += ",\"word_size\":";
  json_text::AppendUint(out, a.info.word_size);
  out += ",\"start_time_us\":";
  json_text::AppendInt(out, a.info.start_time);
  out += ",\"duration_s\":";
  json_text::AppendDouble(out, static_cast<double>(a.duration_us) / 1e6);
  out += '}';
}

void AppendWindowMember(std::string& out, const TraceAnalysis& a) {
  out += "\"window\":{\"from_s\":";
  json_text::AppendDouble(out, static_cast<double>(a.from_us) / 1e6);
  out += ",\"to_s\":";
  if (a.to_us == std::numeric_limits<std::int64_t>::max())
    out += "null";
  else
    json_text::AppendDouble(out, static_cast<double>(a.to_us) / 1e6);
  out += '}';
}

void AppendSiteMembers(std::string& out, const Site& s) {
  out += "\"site\":";
  if (s.names.empty())
    out += "null";
  else
    json_text::AppendString(out, s.names[0]);
  out += ",\"callers\":[";
  for (std::size_t i = 1; i < s.names.size(); ++i) {
    if (i > 1) out += ',';
    json_text::AppendString(out, s.names[i]);
  }
  out += ']';
}

void AppendTallyJson(std::string& out, const Tally& t, const Info& info) {
  out += "{\"blocks\":";
  json_text::AppendUint(out, t.blocks);
  out += ",\"samples\":";
  json_text::AppendUint(out, t.samples);
  out += ",\"words\":";
  json_text::AppendUint(out, t.words);
  out += ",\"est_bytes\":";
  json_text::AppendDouble(out, EstimatedBytes(t.samples, info));
  out += '}';
}

void AppendDamageMember(std::string& out, const std::optional<Damage>& d) {
  out += "\"damage\":";
  if (!d) {
    out += "null";
    return;
  }
  out += "{\"offset\":";
  json_text::AppendUint(out, d->offset);
  out += ",\"events_read\":";
  json_text::AppendUint(out, d->events_read);
  out += ",\"error\":";
  view_json::AppendError(out, d->error);
  out += ",\"message\":";
  json_text::AppendString(out, d->error.ToString());
  out += '}';
}

namespace {

// 118810 -> "118,810".
std::string Grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string DamageText(const std::string& file, const Damage& d) {
  return file + ": stopped at byte " + std::to_string(d.offset) + " (" + d.error.ToString() +
         "): figures cover the " + Grouped(d.events_read) + " events before it";
}

std::string WindowText(const TraceAnalysis& a) {
  const bool to_end = a.to_us == std::numeric_limits<std::int64_t>::max();
  if (a.from_us == 0 && to_end) return "";
  char buf[96];
  if (to_end)
    std::snprintf(buf, sizeof buf, " in [%.6f s, end]", static_cast<double>(a.from_us) / 1e6);
  else
    std::snprintf(buf, sizeof buf, " in [%.6f s, %.6f s]", static_cast<double>(a.from_us) / 1e6,
                  static_cast<double>(a.to_us) / 1e6);
  return buf;
}

}  // namespace mpo::memtrace::analysis
