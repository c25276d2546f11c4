#include "core/memtrace/analysis/analysis_text.h"

#include <cmath>
#include <cstdio>
#include <limits>

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

void WriteTraceMember(JsonWriter& w, const std::string& file, const TraceAnalysis& a) {
  w.Key("trace");
  w.BeginObject();
  w.Key("file");
  w.String(file);
  w.Key("version");
  w.Int(a.version);
  w.Key("executable_name");
  w.String(a.info.executable_name);
  w.Key("host_name");
  w.String(a.info.host_name);
  w.Key("pid");
  w.Int(a.info.pid);
  w.Key("sample_rate");
  w.Double(a.info.sample_rate);
  w.Key("word_size");
  w.Uint(a.info.word_size);
  w.Key("start_time_us");
  w.Int(a.info.start_time);
  w.Key("duration_s");
  w.Double(static_cast<double>(a.duration_us) / 1e6);
  w.EndObject();
}

void WriteWindowMember(JsonWriter& w, const TraceAnalysis& a) {
  w.Key("window");
  w.BeginObject();
  w.Key("from_s");
  w.Double(static_cast<double>(a.from_us) / 1e6);
  w.Key("to_s");
  if (a.to_us == std::numeric_limits<std::int64_t>::max())
    w.Null();
  else
    w.Double(static_cast<double>(a.to_us) / 1e6);
  w.EndObject();
}

void WriteTally(JsonWriter& w, const Tally& t, const Info& info) {
  w.BeginObject();
  w.Key("blocks");
  w.Uint(t.blocks);
  w.Key("samples");
  w.Uint(t.samples);
  w.Key("words");
  w.Uint(t.words);
  w.Key("est_bytes");
  w.Double(EstimatedBytes(t.samples, info));
  w.EndObject();
}

void WriteSiteNameMembers(JsonWriter& w, const Site& s) {
  w.Key("site");
  if (s.names.empty())
    w.Null();
  else
    w.String(s.names[0]);
  w.Key("callers");
  w.BeginArray();
  for (std::size_t i = 1; i < s.names.size(); ++i) w.String(s.names[i]);
  w.EndArray();
}

void WriteSite(JsonWriter& w, const Site& s, const Info& info) {
  w.BeginObject();
  WriteSiteNameMembers(w, s);
  w.Key("blocks");
  w.Uint(s.allocated.blocks);
  w.Key("samples");
  w.Uint(s.allocated.samples);
  w.Key("words");
  w.Uint(s.allocated.words);
  w.Key("est_bytes");
  w.Double(EstimatedBytes(s.allocated.samples, info));
  w.Key("live_blocks");
  w.Uint(s.live.blocks);
  w.Key("live_samples");
  w.Uint(s.live.samples);
  w.Key("live_words");
  w.Uint(s.live.words);
  w.Key("live_est_bytes");
  w.Double(EstimatedBytes(s.live.samples, info));
  w.EndObject();
}

void WriteDamageMember(JsonWriter& w, const std::optional<Damage>& d) {
  w.Key("damage");
  if (!d) {
    w.Null();
    return;
  }
  w.BeginObject();
  w.Key("offset");
  w.Uint(d->offset);
  w.Key("events_read");
  w.Uint(d->events_read);
  w.Key("error");
  view_json::WriteError(w, d->error);
  w.Key("message");
  w.String(d->error.ToString());
  w.EndObject();
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
