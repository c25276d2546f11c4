// The definition of WriteJsonView for the view of any reader (core/memtrace/faults.h):
// json_view.cc instantiates it for the correct reader, test-only code for mutants.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/json_text.h"
#include "core/base/view_json.h"
#include "core/memtrace/view/event_names.h"
#include "core/memtrace/view/frame_render.h"
#include "core/memtrace/view/json_view.h"
#include "core/memtrace/view/trace_view.h"

namespace mpo::memtrace::view {
namespace json_view_detail {

// The buffer goes to the sink once it passes this size: few, large writes.
constexpr std::size_t kFlushBytes = std::size_t{1} << 16;

// A string literal, its length known at compile time (no strlen per member).
template <std::size_t N>
inline void Lit(std::string& out, const char (&s)[N]) {
  out.append(s, N - 1);
}

inline void AppendInfo(std::string& out, const Info& info, int version) {
  Lit(out, "{\"version\":");
  json_text::AppendInt(out, version);
  Lit(out, ",\"sample_rate\":");
  json_text::AppendDouble(out, info.sample_rate);
  Lit(out, ",\"word_size\":");
  json_text::AppendUint(out, info.word_size);
  Lit(out, ",\"executable_name\":");
  json_text::AppendString(out, info.executable_name);
  Lit(out, ",\"host_name\":");
  json_text::AppendString(out, info.host_name);
  Lit(out, ",\"ocaml_runtime_params\":");
  json_text::AppendString(out, info.ocaml_runtime_params);
  Lit(out, ",\"pid\":");
  json_text::AppendInt(out, info.pid);
  Lit(out, ",\"initial_domain\":");
  json_text::AppendUint(out, info.initial_domain);
  Lit(out, ",\"start_time\":");
  json_text::AppendInt(out, info.start_time);
  Lit(out, ",\"context\":");
  if (info.context) {
    json_text::AppendString(out, *info.context);
  } else {
    Lit(out, "null");
  }
  out += '}';
}

inline void AppendCode(std::string& out, OcamlInt code) {
  json_text::AppendHexCode(out, OcamlUnsigned(code));
}

// The "backtrace" members' text. A backtrace shares its first common_prefix entries with
// the previous one of its domain (or is that one, when the prefix is longer; see
// TraceReader), so each domain's last array text is kept, with where each entry ends,
// and only the new suffix is rendered: deep stacks cost a copy, not a rendering per
// entry. Memory: the text of every domain's current backtrace, which the reader's
// max_held_frames budget bounds (about 20 bytes per entry).
class BacktraceText {
 public:
  // Appends ,"backtrace":[...] for `e`.
  void Append(std::string& out, const Event& e) {
    Domain& d = domains_[e.domain];
    const std::span<const OcamlInt> bt = e.backtrace;
    const std::size_t keep =
        std::min<std::uint64_t>({static_cast<std::uint64_t>(std::max<OcamlInt>(e.common_prefix, 0)),
                                 d.ends.size(), bt.size()});
    d.ends.resize(keep);
    d.text.resize(keep == 0 ? 0 : d.ends.back());
    for (std::size_t i = keep; i < bt.size(); ++i) {
      if (i != 0) d.text += ',';
      json_text::AppendHexCode(d.text, OcamlUnsigned(bt[i]));
      d.ends.push_back(static_cast<std::uint32_t>(d.text.size()));
    }
    Lit(out, ",\"backtrace\":[");
    out += d.text;
    out += ']';
  }

 private:
  struct Domain {
    std::string text;                 // the entries, comma-separated
    std::vector<std::uint32_t> ends;  // ends[i]: where entry i ends in `text`
  };
  std::unordered_map<std::uint16_t, Domain> domains_;
};

inline void AppendEvent(std::string& out, const Event& e, BacktraceText* backtraces) {
  Lit(out, "{\"kind\":\"");
  out += EventKindName(e.kind);
  Lit(out, "\",\"time\":");
  json_text::AppendInt(out, e.time);
  Lit(out, ",\"domain\":");
  json_text::AppendUint(out, e.domain);
  Lit(out, ",\"id\":");
  json_text::AppendInt(out, e.obj_id);
  if (e.kind != EventKind::kAlloc) {
    Lit(out, "}\n");
    return;
  }
  Lit(out, ",\"length\":");
  json_text::AppendInt(out, e.length);
  Lit(out, ",\"nsamples\":");
  json_text::AppendInt(out, e.nsamples);
  Lit(out, ",\"source\":\"");
  out += AllocationSourceName(e.source);
  Lit(out, "\",\"common_prefix\":");
  json_text::AppendInt(out, e.common_prefix);
  if (backtraces != nullptr) backtraces->Append(out, e);
  Lit(out, "}\n");
}

// The location record; false (nothing written) when its strings would pass the budget.
inline bool AppendLocation(std::string& out, const Record& r, const StringInterner& strings,
                           std::uint64_t* bytes_left) {
  std::uint64_t bytes = 0;
  for (const CompactFrame& f : r.frames)
    bytes += strings.Get(f.filename).size() + strings.Get(f.defname).size();
  if (bytes > *bytes_left) return false;
  *bytes_left -= bytes;
  Lit(out, "{\"kind\":\"location\",\"code\":");
  AppendCode(out, r.code);
  Lit(out, ",\"frames\":[");
  for (std::size_t i = 0; i < r.frames.size(); ++i) {
    if (i != 0) out += ',';
    AppendFrameJson(out, RefOf(r.frames[i], strings));
  }
  Lit(out, "]}\n");
  return true;
}

inline void AppendSkipped(std::string& out, const Record& r) {
  Lit(out, "{\"kind\":\"skipped_packet\",\"offset\":");
  json_text::AppendUint(out, r.offset);
  Lit(out, ",\"reason\":");
  json_text::AppendString(out, r.reason);
  Lit(out, "}\n");
}

}  // namespace json_view_detail

// WriteJsonView (json_view.h) over BasicTraceView<Faults>.
template <class Faults>
Status WriteJsonViewWith(ByteSource& source, TextSink& out, const JsonViewOptions& options) {
  using namespace json_view_detail;
  std::string buf;
  buf.reserve(kFlushBytes + (kFlushBytes >> 2));
  Lit(buf, "{\"schema\":2,\"format\":\"memtrace\",\"info\":");
  ReaderOptions ro;
  ro.parse_backtraces = options.backtraces;
  ro.limits = options.limits;
  ro.rules = RulesOf(options.verdicts).memtrace;
  auto opened = BasicTraceView<Faults>::Open(BorrowSource(source), ro);
  if (!opened.ok()) {
    Lit(buf, "null}\n");
    view_json::AppendEndLine(buf, opened.status(), 0);
    out.Write(buf);
    return opened.status();
  }
  BasicTraceView<Faults>& view = **opened;
  AppendInfo(buf, view.info(), view.version());
  Lit(buf, "}\n");
  std::uint64_t records = 0;
  BacktraceText backtraces;
  std::uint64_t location_bytes_left = options.limits.max_location_bytes;
  Status status;
  while (const Record* r = view.Next()) {
    switch (r->kind) {
      case RecordKind::kEvent:
        AppendEvent(buf, *r->event, options.backtraces ? &backtraces : nullptr);
        if (options.progress) options.progress(view.reader().offset(), view.reader().file_size());
        break;
      case RecordKind::kLocation:
        if (!AppendLocation(buf, *r, view.strings(), &location_bytes_left))
          status = LimitExceeded("location strings written", options.limits.max_location_bytes,
                                 "--max-location-bytes")
                       .AtOffset(r->offset);
        break;
      case RecordKind::kSkippedPacket: AppendSkipped(buf, *r); break;
    }
    if (!status.ok()) break;
    ++records;
    if (buf.size() >= kFlushBytes) {
      out.Write(buf);
      buf.clear();
    }
  }
  if (status.ok()) status = view.status();
  view_json::AppendEndLine(buf, status, records);
  out.Write(buf);
  return status;
}

}  // namespace mpo::memtrace::view
