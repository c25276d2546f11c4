// The definition of WriteJsonView for the view of any reader (core/memtrace/faults.h):
// json_view.cc instantiates it for the correct reader, test-only code for mutants.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/json_writer.h"
#include "core/base/view_json.h"
#include "core/memtrace/view/event_names.h"
#include "core/memtrace/view/frame_render.h"
#include "core/memtrace/view/json_view.h"
#include "core/memtrace/view/trace_view.h"

namespace mpo::memtrace::view {
namespace json_view_detail {

// The buffer goes to the sink once it passes this size: few, large writes.
constexpr std::size_t kFlushBytes = std::size_t{1} << 16;

inline void WriteInfo(JsonWriter& w, const Info& info, int version) {
  w.BeginObject();
  w.Key("version");
  w.Int(version);
  w.Key("sample_rate");
  w.Double(info.sample_rate);
  w.Key("word_size");
  w.Uint(info.word_size);
  w.Key("executable_name");
  w.String(info.executable_name);
  w.Key("host_name");
  w.String(info.host_name);
  w.Key("ocaml_runtime_params");
  w.String(info.ocaml_runtime_params);
  w.Key("pid");
  w.Int(info.pid);
  w.Key("initial_domain");
  w.Uint(info.initial_domain);
  w.Key("start_time");
  w.Int(info.start_time);
  w.Key("context");
  if (info.context) {
    w.String(*info.context);
  } else {
    w.Null();
  }
  w.EndObject();
}

// The "backtrace" members' text. A backtrace shares its first common_prefix entries with
// the previous one of its domain (or is that one, when the prefix is longer; see
// TraceReader), so each domain's last array text is kept, with where each entry ends,
// and only the new suffix is rendered: deep stacks cost a copy, not a rendering per
// entry. Memory: the text of every domain's current backtrace, which the reader's
// max_held_frames budget bounds (about 20 bytes per entry).
class BacktraceText {
 public:
  // Writes the "backtrace" member of `e`.
  void Write(JsonWriter& w, const Event& e) {
    Domain& d = domains_[e.domain];
    const std::span<const OcamlInt> bt = e.backtrace;
    const std::size_t keep =
        std::min<std::uint64_t>({static_cast<std::uint64_t>(std::max<OcamlInt>(e.common_prefix, 0)),
                                 d.ends.size(), bt.size()});
    d.ends.resize(keep);
    d.text.resize(keep == 0 ? 0 : d.ends.back());
    JsonWriter entries(d.text, /*after_value=*/keep != 0);
    for (std::size_t i = keep; i < bt.size(); ++i) {
      entries.HexCode(OcamlUnsigned(bt[i]));
      d.ends.push_back(static_cast<std::uint32_t>(d.text.size()));
    }
    w.Key("backtrace");
    w.BeginArray();
    w.Raw(d.text);
    w.EndArray();
  }

 private:
  struct Domain {
    std::string text;                 // the entries, comma-separated
    std::vector<std::uint32_t> ends;  // ends[i]: where entry i ends in `text`
  };
  std::unordered_map<std::uint16_t, Domain> domains_;
};

inline void WriteEvent(JsonWriter& w, const Event& e, BacktraceText* backtraces) {
  w.BeginObject();
  w.Key("kind");
  w.Name(EventKindName(e.kind));
  w.Key("time");
  w.Int(e.time);
  w.Key("domain");
  w.Uint(e.domain);
  w.Key("id");
  w.Int(e.obj_id);
  if (e.kind == EventKind::kAlloc) {
    w.Key("length");
    w.Int(e.length);
    w.Key("nsamples");
    w.Int(e.nsamples);
    w.Key("source");
    w.Name(AllocationSourceName(e.source));
    w.Key("common_prefix");
    w.Int(e.common_prefix);
    if (backtraces != nullptr) backtraces->Write(w, e);
  }
  w.EndObject();
  w.EndLine();
}

// The location record; false (nothing written) when its strings would pass the budget.
inline bool WriteLocation(JsonWriter& w, const Record& r, const StringInterner& strings,
                          std::uint64_t* bytes_left) {
  std::uint64_t bytes = 0;
  for (const CompactFrame& f : r.frames)
    bytes += strings.Get(f.filename).size() + strings.Get(f.defname).size();
  if (bytes > *bytes_left) return false;
  *bytes_left -= bytes;
  w.BeginObject();
  w.Key("kind");
  w.Name("location");
  w.Key("code");
  w.HexCode(OcamlUnsigned(r.code));
  w.Key("frames");
  w.BeginArray();
  for (const CompactFrame& f : r.frames) WriteFrameJson(w, RefOf(f, strings));
  w.EndArray();
  w.EndObject();
  w.EndLine();
  return true;
}

inline void WriteSkipped(JsonWriter& w, const Record& r) {
  w.BeginObject();
  w.Key("kind");
  w.Name("skipped_packet");
  w.Key("offset");
  w.Uint(r.offset);
  w.Key("reason");
  w.String(r.reason);
  w.EndObject();
  w.EndLine();
}

}  // namespace json_view_detail

// WriteJsonView (json_view.h) over BasicTraceView<Faults>.
template <class Faults>
Status WriteJsonViewWith(ByteSource& source, TextSink& out, const JsonViewOptions& options) {
  using namespace json_view_detail;
  std::string buf;
  buf.reserve(kFlushBytes + (kFlushBytes >> 2));
  JsonWriter w(buf);
  view_json::BeginHeader(w, "memtrace");
  w.Key("info");
  ReaderOptions ro;
  ro.parse_backtraces = options.backtraces;
  ro.limits = options.limits;
  ro.rules = RulesOf(options.verdicts).memtrace;
  auto opened = BasicTraceView<Faults>::Open(BorrowSource(source), ro);
  if (!opened.ok()) {
    w.Null();
    w.EndObject();
    w.EndLine();
    view_json::WriteEndLine(w, opened.status(), 0);
    out.Write(buf);
    return opened.status();
  }
  BasicTraceView<Faults>& view = **opened;
  WriteInfo(w, view.info(), view.version());
  w.EndObject();
  w.EndLine();
  std::uint64_t records = 0;
  BacktraceText backtraces;
  std::uint64_t location_bytes_left = options.limits.max_location_bytes;
  Status status;
  while (const Record* r = view.Next()) {
    switch (r->kind) {
      case RecordKind::kEvent:
        WriteEvent(w, *r->event, options.backtraces ? &backtraces : nullptr);
        if (options.progress) options.progress(view.reader().offset(), view.reader().file_size());
        break;
      case RecordKind::kLocation:
        if (!WriteLocation(w, *r, view.strings(), &location_bytes_left))
          status = LimitExceeded("location strings written", options.limits.max_location_bytes,
                                 "--max-location-bytes")
                       .AtOffset(r->offset);
        break;
      case RecordKind::kSkippedPacket: WriteSkipped(w, *r); break;
    }
    if (!status.ok()) break;
    ++records;
    if (buf.size() >= kFlushBytes) {
      out.Write(buf);
      buf.clear();
    }
  }
  if (status.ok()) status = view.status();
  view_json::WriteEndLine(w, status, records);
  out.Write(buf);
  return status;
}

}  // namespace mpo::memtrace::view
