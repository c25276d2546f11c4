#include "core/memtrace/analysis/trace_check.h"

#include <utility>

#include "core/base/json_text.h"
#include "core/base/view_json.h"
#include "core/memtrace/analysis/analysis_text.h"
#include "core/memtrace/analysis/trace_analysis.h"
#include "core/memtrace/view/trace_view.h"

namespace mpo::memtrace::analysis {

TraceCheck CheckTrace(std::unique_ptr<ByteSource> source, const TraceCheckOptions& options) {
  TraceCheck c;
  auto opened = view::TraceView::Open(std::move(source), options.reader);
  if (!opened.ok()) {
    c.errors.push_back(opened.status());
    return c;
  }
  view::TraceView& v = **opened;
  const TraceReader& r = v.reader();
  c.header_read = true;
  c.version = r.version();
  c.info = r.info();
  c.last_time = r.info().start_time;
  while (true) {
    const Event* ev = v.NextEvent();
    if (ev == nullptr && !v.status().ok()) {
      c.errors.push_back(v.status());
      // The reader is fine when the error is the view's undefined-code policy.
      ++(r.status().ok() ? c.undefined_codes : c.bad_packets);
      if (options.on_error) options.on_error(v.status());
      if (options.keep_going && v.SkipAfterError()) continue;
      break;
    }
    if (ev == nullptr) break;
    ++c.events;
    c.last_time = ev->time;
    if (options.progress) options.progress(r.offset(), r.file_size());
  }
  c.packets = r.packets_read();
  c.locations = r.LocationCodes().size();
  c.warnings = r.warnings();
  return c;
}

std::string FormatTraceCheckJson(const TraceCheck& c, const std::string& file) {
  using json_text::AppendUint;
  std::string out = "{\"file\":";
  json_text::AppendString(out, file);
  if (!c.header_read) {
    out += ",\"trace\":null";
  } else {
    TraceAnalysis a;  // only the members AppendTraceMember reads
    a.info = c.info;
    a.version = c.version;
    a.duration_us = static_cast<std::uint64_t>(c.last_time - c.info.start_time);
    out += ',';
    AppendTraceMember(out, file, a);
  }
  out += ",\"valid\":";
  out += c.valid() ? "true" : "false";
  out += ",\"packets\":";
  AppendUint(out, c.packets);
  out += ",\"events\":";
  AppendUint(out, c.events);
  out += ",\"locations\":";
  AppendUint(out, c.locations);
  out += ",\"undefined_location_codes\":";
  AppendUint(out, c.undefined_codes);
  out += ",\"bad_packets\":";
  AppendUint(out, c.bad_packets);
  out += ",\"warnings\":[";
  for (std::size_t i = 0; i < c.warnings.size(); ++i) {
    if (i > 0) out += ',';
    out += "{\"offset\":";
    AppendUint(out, c.warnings[i].offset);
    out += ",\"message\":";
    json_text::AppendString(out, c.warnings[i].message);
    out += '}';
  }
  out += "],\"error\":";
  if (c.errors.empty())
    out += "null";
  else
    view_json::AppendError(out, c.errors.front());
  out += ",\"errors\":[";
  for (std::size_t i = 0; i < c.errors.size(); ++i) {
    if (i > 0) out += ',';
    view_json::AppendError(out, c.errors[i]);
  }
  out += "]}\n";
  return out;
}

}  // namespace mpo::memtrace::analysis
