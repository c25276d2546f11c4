#include "core/memtrace/analysis/trace_check.h"

#include <utility>

#include "core/base/json_writer.h"
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
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  w.Key("file");
  w.String(file);
  if (!c.header_read) {
    w.Key("trace");
    w.Null();
  } else {
    TraceAnalysis a;  // only the members WriteTraceMember reads
    a.info = c.info;
    a.version = c.version;
    a.duration_us = static_cast<std::uint64_t>(c.last_time - c.info.start_time);
    WriteTraceMember(w, file, a);
  }
  w.Key("valid");
  w.Bool(c.valid());
  w.Key("packets");
  w.Uint(c.packets);
  w.Key("events");
  w.Uint(c.events);
  w.Key("locations");
  w.Uint(c.locations);
  w.Key("undefined_location_codes");
  w.Uint(c.undefined_codes);
  w.Key("bad_packets");
  w.Uint(c.bad_packets);
  w.Key("warnings");
  w.BeginArray();
  for (const auto& warning : c.warnings) {
    w.BeginObject();
    w.Key("offset");
    w.Uint(warning.offset);
    w.Key("message");
    w.String(warning.message);
    w.EndObject();
  }
  w.EndArray();
  w.Key("error");
  if (c.errors.empty())
    w.Null();
  else
    view_json::WriteError(w, c.errors.front());
  w.Key("errors");
  w.BeginArray();
  for (const Status& e : c.errors) view_json::WriteError(w, e);
  w.EndArray();
  w.EndObject();
  w.EndLine();
  return out;
}

}  // namespace mpo::memtrace::analysis
